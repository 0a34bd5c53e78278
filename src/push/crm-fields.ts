// The fields of a company record a CRM destination can write, and the rules per field. Each
// vendor maps a field to its own property (HubSpot) or attribute (Attio); this file knows only
// the record side: which fields exist, their kind, and the value of each for one record.

export const CRM_FIELDS = {
  orgNumber: 'text',
  name: 'text',
  country: 'text',
  orgFormCode: 'text',
  orgFormDescription: 'text',
  naceCode1: 'text',
  naceDescription1: 'text',
  employeeCount: 'number',
  businessAddressStreet: 'text',
  businessAddressPostalCode: 'text',
  businessAddressCity: 'text',
  businessAddressMunicipality: 'text',
  businessAddressMuniNo: 'text',
  businessAddressCountryCode: 'text',
  foundingDate: 'date',
  website: 'text',
  primaryDomain: 'text',
  phone: 'text',
  latestRevenue: 'number',
  latestNetResult: 'number',
  companyStatus: 'text',
  marketingProtected: 'boolean',
} as const;

export type CrmField = keyof typeof CRM_FIELDS;
export type FieldRule = 'overwrite' | 'fillIfEmpty';
export type CrmValue = string | number | boolean | null;

export interface FieldMapping {
  property: string;
  rule: FieldRule;
}

/** A mapping as the user may write it: the property name, or {property, rule}. */
export type FieldMappingInput = string | { property: string; rule?: FieldRule };

export const isCrmField = (f: string): f is CrmField => Object.hasOwn(CRM_FIELDS, f);

/** The parts of a company record the CRM fields are read from. */
export interface CrmSourceRecord {
  orgNumber: string;
  name: string;
  country: string;
  orgFormCode?: string | null;
  orgFormDescription?: string | null;
  naceCode1?: string | null;
  naceDescription1?: string | null;
  employeeCount?: number | null;
  businessAddressStreet?: string | null;
  businessAddressPostalCode?: string | null;
  businessAddressCity?: string | null;
  businessAddressMunicipality?: string | null;
  businessAddressMuniNo?: string | null;
  businessAddressCountryCode?: string | null;
  foundingDate?: string | null;
  website?: string | null;
  primaryDomain?: string | null;
  phone?: string | null;
  status?: string | null;
  isBankrupt?: boolean;
  isBeingDissolved?: boolean;
  isInForcedDissolution?: boolean;
  isDeleted?: boolean;
  marketingProtected?: boolean | null;
  financials?: { periodTo?: string | null; revenue?: number | null; netResult?: number | null }[];
}

/**
 * One word for the company's standing: bankrupt, dissolved (being wound up, forced or not),
 * deregistered (deleted from the register), or active.
 */
export function companyStatus(r: CrmSourceRecord): string {
  if (r.isBankrupt || r.status === 'bankruptcy') return 'bankrupt';
  if (r.isDeleted || r.status === 'deregistered') return 'deregistered';
  if (r.isBeingDissolved || r.isInForcedDissolution || r.status === 'liquidation') return 'dissolved';
  return 'active';
}

function latest(r: CrmSourceRecord) {
  const withPeriod = (r.financials ?? []).filter((f) => f.periodTo);
  return withPeriod.sort((a, b) => String(b.periodTo).localeCompare(String(a.periodTo)))[0];
}

/** The value of every field for one record (null where the record has none). */
export function crmValues(r: CrmSourceRecord): Record<CrmField, CrmValue> {
  const f = latest(r);
  return {
    orgNumber: r.orgNumber,
    name: r.name,
    country: r.country,
    orgFormCode: r.orgFormCode ?? null,
    orgFormDescription: r.orgFormDescription ?? null,
    naceCode1: r.naceCode1 ?? null,
    naceDescription1: r.naceDescription1 ?? null,
    employeeCount: r.employeeCount ?? null,
    businessAddressStreet: r.businessAddressStreet ?? null,
    businessAddressPostalCode: r.businessAddressPostalCode ?? null,
    businessAddressCity: r.businessAddressCity ?? null,
    businessAddressMunicipality: r.businessAddressMunicipality ?? null,
    businessAddressMuniNo: r.businessAddressMuniNo ?? null,
    businessAddressCountryCode: r.businessAddressCountryCode ?? null,
    foundingDate: r.foundingDate ?? null,
    website: r.website ?? null,
    primaryDomain: r.primaryDomain ?? null,
    phone: r.phone ?? null,
    latestRevenue: f?.revenue ?? null,
    latestNetResult: f?.netResult ?? null,
    companyStatus: companyStatus(r),
    marketingProtected: r.marketingProtected ?? null,
  };
}

/**
 * The user's mappings over the vendor's defaults: a field mapped to "" is not written. Unknown
 * fields and empty property names are reported by the config check, not here.
 */
export function resolveMappings(
  defaults: Partial<Record<CrmField, string>>,
  given: Record<string, FieldMappingInput> | undefined,
): Map<CrmField, FieldMapping> {
  const out = new Map<CrmField, FieldMapping>();
  for (const [field, property] of Object.entries(defaults) as [CrmField, string][])
    out.set(field, { property, rule: 'overwrite' });
  for (const [field, m] of Object.entries(given ?? {})) {
    if (!isCrmField(field)) continue;
    const property = typeof m === 'string' ? m : m.property;
    const rule = typeof m === 'string' ? 'overwrite' : (m.rule ?? 'overwrite');
    if (!property) out.delete(field);
    else out.set(field, { property, rule });
  }
  return out;
}

/** Checks user mappings; each problem names its path. */
export function mappingProblems(
  given: Record<string, FieldMappingInput> | undefined,
  path: string,
  propertyPattern: RegExp,
): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  for (const [field, m] of Object.entries(given ?? {})) {
    const p = `${path}.${field}`;
    if (!isCrmField(field)) {
      out.push({
        path: p,
        message: `is not a record field a CRM can receive (one of ${Object.keys(CRM_FIELDS).join(', ')})`,
      });
      continue;
    }
    const property = typeof m === 'string' ? m : m?.property;
    if (typeof property !== 'string') out.push({ path: p, message: 'must be a property name or {property, rule}' });
    else if (property !== '' && !propertyPattern.test(property))
      out.push({ path: p, message: `property name must match ${propertyPattern.source}` });
    if (field === 'orgNumber' && property === '')
      out.push({ path: p, message: 'the organisation number is the upsert key and is always written' });
    if (typeof m === 'object' && m && m.rule !== undefined && m.rule !== 'overwrite' && m.rule !== 'fillIfEmpty')
      out.push({ path: `${p}.rule`, message: 'must be overwrite or fillIfEmpty' });
    if (field === 'orgNumber' && typeof m === 'object' && m?.rule === 'fillIfEmpty')
      out.push({ path: `${p}.rule`, message: 'the organisation number is the upsert key and cannot be fillIfEmpty' });
  }
  return out;
}

/** True when a CRM value counts as empty (never set, or cleared). */
export const isEmptyValue = (v: unknown) => v === null || v === undefined || v === '';

type Nordic = 'NO' | 'FI' | 'SE' | 'DK';

/**
 * The country and canonical spelling of an organisation number a person typed into a CRM:
 * "NO 923 609 016", "923609016" (NO, 9 digits), "12345678" (DK, 8), "556000-0001" (SE, 10),
 * "1234567-8" (FI). A country prefix decides when given. Check digits are the caller's.
 */
export function orgNumberInCrm(raw: string): { country: Nordic; orgNumber: string } | null {
  const t = raw.trim().toUpperCase();
  const prefixed = /^(NO|SE|DK|FI)[\s:-]*(.+)$/.exec(t);
  const body = (prefixed ? prefixed[2] : t).trim();
  const given = prefixed?.[1] as Nordic | undefined;
  if ((!given || given === 'FI') && /^\d{7}-\d$/.test(body)) return { country: 'FI', orgNumber: body };
  const digits = body.replace(/[\s.-]+/g, '');
  if (!/^\d+$/.test(digits)) return null;
  const byLength: Record<number, Nordic> = { 9: 'NO', 8: 'DK', 10: 'SE' };
  const country = given ?? byLength[digits.length];
  if (!country || country === 'FI') return null;
  return { country, orgNumber: digits };
}
