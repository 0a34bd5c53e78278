// The HubSpot destination config: a private-app access token or the OAuth tokens an install
// stored, the field mappings with their rules, and the marketing-protection option. Sealed at
// rest like every destination config; served back without any token.
import {
  mappingProblems,
  resolveMappings,
  type CrmField,
  type FieldMapping,
  type FieldMappingInput,
} from '../crm-fields.ts';

/** Properties we create in the portal on first use (custom, in the companyinformation group). */
export const HUBSPOT_ORG_NUMBER_PROPERTY = 'ncd_org_number';
export const HUBSPOT_STATUS_PROPERTY = 'ncd_enrichment_status';

/** Record field -> HubSpot company property. Standard properties where HubSpot has one. */
export const HUBSPOT_DEFAULT_MAPPING: Partial<Record<CrmField, string>> = {
  orgNumber: HUBSPOT_ORG_NUMBER_PROPERTY,
  name: 'name',
  orgFormCode: 'ncd_legal_form',
  naceCode1: 'ncd_industry_code',
  naceDescription1: 'ncd_industry_label',
  employeeCount: 'numberofemployees',
  businessAddressStreet: 'address',
  businessAddressPostalCode: 'zip',
  businessAddressCity: 'city',
  businessAddressMunicipality: 'ncd_municipality',
  foundingDate: 'ncd_founding_date',
  website: 'website',
  primaryDomain: 'domain',
  latestRevenue: 'annualrevenue',
  latestNetResult: 'ncd_net_result',
  companyStatus: 'ncd_company_status',
  marketingProtected: 'ncd_marketing_protected',
};

export interface HubspotOAuth {
  refreshToken: string;
  /** ISO time the access token expires. */
  expiresAt: string;
}

export interface HubspotConfig {
  kind: 'hubspot';
  accessToken: string;
  oauth?: HubspotOAuth;
  /** The portal (hub id) the token belongs to: routes its webhooks here. */
  portalId?: string;
  fieldMappings: Record<string, FieldMappingInput>;
  allowMarketingProtected: boolean;
}

export interface HubspotConfigInput {
  accessToken?: string;
  portalId?: string;
  fieldMappings?: Record<string, FieldMappingInput>;
  allowMarketingProtected?: boolean;
}

const PROPERTY = /^[a-z][a-z0-9_]{0,99}$/;
// Private-app tokens ("pat-eu1-…") and OAuth access tokens: printable, no spaces, ≤ 512.
const TOKEN = /^[\x21-\x7e]{8,512}$/;

export function validateHubspotConfig(
  input: HubspotConfigInput,
  path: string,
  previous?: HubspotConfig,
): { config: HubspotConfig; details: { path: string; message: string }[] } {
  const details = mappingProblems(input.fieldMappings, `${path}.fieldMappings`, PROPERTY);
  // A PUT that keeps OAuth tokens of an install may leave accessToken out.
  const token = input.accessToken ?? previous?.accessToken;
  if (token === undefined)
    details.push({
      path: `${path}.accessToken`,
      message: 'is required (a private app access token), or connect with GET /api/integrations/hubspot/install',
    });
  else if (!TOKEN.test(token))
    details.push({ path: `${path}.accessToken`, message: 'must be 8-512 printable characters without spaces' });
  if (input.portalId !== undefined && !/^\d{1,20}$/.test(input.portalId))
    details.push({ path: `${path}.portalId`, message: 'must be the numeric HubSpot account (hub) id' });
  const config: HubspotConfig = {
    kind: 'hubspot',
    accessToken: token ?? '',
    ...(input.accessToken === undefined && previous?.oauth ? { oauth: previous.oauth } : {}),
    ...((input.portalId ?? previous?.portalId) ? { portalId: input.portalId ?? previous?.portalId } : {}),
    fieldMappings: input.fieldMappings ?? {},
    allowMarketingProtected: input.allowMarketingProtected ?? false,
  };
  return { config, details };
}

export function hubspotMappings(c: Pick<HubspotConfig, 'fieldMappings'>): Map<CrmField, FieldMapping> {
  return resolveMappings(HUBSPOT_DEFAULT_MAPPING, c.fieldMappings);
}

/** The served view: how it is connected and what it writes; never a token. */
export function maskedHubspotConfig(c: HubspotConfig) {
  return {
    auth: c.oauth ? ('oauth' as const) : ('private-app' as const),
    ...(c.portalId ? { portalId: c.portalId } : {}),
    orgNumberProperty: hubspotMappings(c).get('orgNumber')!.property,
    fieldMappings: Object.fromEntries([...hubspotMappings(c)].map(([f, m]) => [f, m])),
    allowMarketingProtected: c.allowMarketingProtected,
  };
}

export function parseStoredHubspotConfig(v: Partial<HubspotConfig>): HubspotConfig {
  if (typeof v.accessToken !== 'string') throw new Error('stored hubspot config has an unexpected shape');
  return {
    kind: 'hubspot',
    accessToken: v.accessToken,
    ...(v.oauth ? { oauth: v.oauth } : {}),
    ...(v.portalId ? { portalId: v.portalId } : {}),
    fieldMappings: v.fieldMappings ?? {},
    allowMarketingProtected: v.allowMarketingProtected === true,
  };
}
