// The Attio destination config: an API token (Orakel's name for it, `apiKey`), field mappings with
// their rules, the marketing-protection option and the secret Attio signs its webhooks with.
import {
  mappingProblems,
  resolveMappings,
  type CrmField,
  type FieldMapping,
  type FieldMappingInput,
} from '../crm-fields.ts';

export const ATTIO_ORG_NUMBER_ATTRIBUTE = 'org_number';
export const ATTIO_STATUS_ATTRIBUTE = 'enrichment_status';
/** Attio's standard location attribute: the business address is written to it as one value. */
export const ATTIO_LOCATION = 'primary_location';
/** Attio's standard domain attribute (multiselect of domains). */
export const ATTIO_DOMAINS = 'domains';

/** Record field -> Attio company attribute slug; standard attributes where Attio has one. */
export const ATTIO_DEFAULT_MAPPING: Partial<Record<CrmField, string>> = {
  orgNumber: ATTIO_ORG_NUMBER_ATTRIBUTE,
  name: 'name',
  orgFormCode: 'legal_form',
  naceCode1: 'industry_code',
  naceDescription1: 'industry_label',
  employeeCount: 'employee_count',
  businessAddressStreet: ATTIO_LOCATION,
  businessAddressMunicipality: 'municipality',
  foundingDate: 'foundation_date',
  website: 'website',
  primaryDomain: ATTIO_DOMAINS,
  latestRevenue: 'revenue',
  latestNetResult: 'net_result',
  companyStatus: 'company_status',
  marketingProtected: 'marketing_protected',
};

export interface AttioConfig {
  kind: 'attio';
  apiKey: string;
  workspaceSlug?: string;
  /** Attio's webhook secret (shown when the webhook is created); enables enrich-on-write. */
  webhookSecret?: string;
  fieldMappings: Record<string, FieldMappingInput>;
  allowMarketingProtected: boolean;
}

export interface AttioConfigInput {
  apiKey: string;
  workspaceSlug?: string;
  webhookSecret?: string;
  fieldMappings?: Record<string, FieldMappingInput>;
  allowMarketingProtected?: boolean;
}

const SLUG = /^[a-z][a-z0-9_]{0,99}$/;
const TOKEN = /^[\x21-\x7e]{8,512}$/;

export function validateAttioConfig(input: AttioConfigInput, path: string) {
  const details = mappingProblems(input.fieldMappings, `${path}.fieldMappings`, SLUG);
  if (!TOKEN.test(input.apiKey))
    details.push({ path: `${path}.apiKey`, message: 'must be 8-512 printable characters without spaces' });
  if (input.webhookSecret !== undefined && !TOKEN.test(input.webhookSecret))
    details.push({ path: `${path}.webhookSecret`, message: 'must be 8-512 printable characters without spaces' });
  if (input.workspaceSlug !== undefined && !/^[A-Za-z0-9_-]{1,100}$/.test(input.workspaceSlug))
    details.push({ path: `${path}.workspaceSlug`, message: 'must be letters, digits, _ or -' });
  const config: AttioConfig = {
    kind: 'attio',
    apiKey: input.apiKey,
    ...(input.workspaceSlug ? { workspaceSlug: input.workspaceSlug } : {}),
    ...(input.webhookSecret ? { webhookSecret: input.webhookSecret } : {}),
    fieldMappings: input.fieldMappings ?? {},
    allowMarketingProtected: input.allowMarketingProtected ?? false,
  };
  return { config, details };
}

export function attioMappings(c: Pick<AttioConfig, 'fieldMappings'>): Map<CrmField, FieldMapping> {
  return resolveMappings(ATTIO_DEFAULT_MAPPING, c.fieldMappings);
}

export function maskedAttioConfig(c: AttioConfig) {
  return {
    ...(c.workspaceSlug ? { workspaceSlug: c.workspaceSlug } : {}),
    orgNumberAttribute: attioMappings(c).get('orgNumber')!.property,
    fieldMappings: Object.fromEntries([...attioMappings(c)].map(([f, m]) => [f, m])),
    allowMarketingProtected: c.allowMarketingProtected,
    webhookSigning: c.webhookSecret !== undefined,
  };
}

export function parseStoredAttioConfig(v: Partial<AttioConfig>): AttioConfig {
  if (typeof v.apiKey !== 'string') throw new Error('stored attio config has an unexpected shape');
  return {
    kind: 'attio',
    apiKey: v.apiKey,
    ...(v.workspaceSlug ? { workspaceSlug: v.workspaceSlug } : {}),
    ...(v.webhookSecret ? { webhookSecret: v.webhookSecret } : {}),
    fieldMappings: v.fieldMappings ?? {},
    allowMarketingProtected: v.allowMarketingProtected === true,
  };
}
