// Turns stored rows into the company record the API serves (SPEC "Company record",
// REFERENCE-ORAKEL §2), with provenance assembled from what the store recorded.
import { SOURCE } from '../../domain/company.ts';
import { computeRatios } from '../../domain/financial-ratios.ts';
import { buildSources, type FieldSource, type Sources } from '../../domain/provenance.ts';
import type { ReferenceData } from '../../domain/reference-data.ts';
import type { RecordBasis } from '../../store/record-json.ts';
import type { FinancialRow, LicenseRow, RoleRow, StoredCompany, SubUnitRow } from '../../store/company-reads.ts';
import type { OwnerSummary } from '../../store/shareholders.ts';
import { websiteUrl } from '../../domain/website-url.ts';
import { recordSignals, sizeAndPlace, type SignalContext } from './record-signals.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function financial(f: FinancialRow, orgNumber: string) {
  return {
    orgNumber,
    regnskapstype: f.accounts_type,
    periodFrom: f.period_from,
    periodTo: f.period_to,
    currency: f.currency,
    revenue: f.revenue,
    operatingProfit: f.operating_profit,
    // Orakel's name for the same figure; its clients read this one.
    operatingResult: f.operating_profit,
    netResult: f.net_result,
    equity: f.equity,
    totalAssets: f.total_assets,
    totalLiabilities: f.total_liabilities,
    averageEmployees: f.average_employees,
  };
}

/** "50%" / "1/3" from the registry as a number, for partners' shares. */
function sharePercent(share: string | null): number | null {
  if (!share) return null;
  const pct = /^\s*(\d+(?:[.,]\d+)?)\s*%\s*$/.exec(share);
  if (pct) return Number(pct[1].replace(',', '.'));
  const frac = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(share);
  if (frac && Number(frac[2]) > 0) return Math.round((Number(frac[1]) / Number(frac[2])) * 10000) / 100;
  return null;
}

function role(r: RoleRow) {
  return {
    roleTypeCode: r.role_type_code,
    roleTypeDescription: r.role_type_description,
    groupCode: r.group_code,
    groupDescription: r.group_description,
    personFirstName: r.person_first_name,
    personMiddleName: r.person_middle_name,
    personLastName: r.person_last_name,
    personBirthYear: r.person_birth_year,
    entityOrgNumber: r.entity_org_number,
    entityName: r.entity_name,
    electedBy: r.elected_by,
    ownershipPercent: sharePercent(r.responsibility_share),
  };
}

export function subUnit(s: Omit<SubUnitRow, 'updated_at'>) {
  return {
    orgNumber: s.org_number,
    name: s.name,
    orgFormCode: s.org_form_code,
    naceCode1: s.nace_code1,
    naceDescription1: s.nace_description1,
    employeeCount: s.employee_count,
    addressStreet: s.address_street,
    addressPostalCode: s.address_postal_code,
    addressCity: s.address_city,
    addressMunicipality: s.address_municipality,
    addressMuniNo: s.address_muni_no,
    addressLat: s.address_lat,
    addressLng: s.address_lng,
    startDate: s.start_date,
    closureDate: s.closure_date,
    isDeleted: s.is_deleted,
  };
}

/** A licence as the API has it; the times may be the JSON strings of a relation column. */
type LicenseInput = Omit<LicenseRow, 'valid_from' | 'valid_to' | 'synced_at'> & {
  valid_from: Date | string | null;
  valid_to: Date | string | null;
};

export function licenseItem(l: LicenseInput) {
  return {
    id: String(l.id),
    licenseNumber: l.license_number,
    orgNumber: l.org_number,
    registerType: l.register_type,
    licenseTypeCode: l.license_type_code,
    licenseTypeDescription: l.license_type_description,
    venueName: l.venue_name,
    venueOrgNumber: l.venue_org_number,
    productGroups: l.product_groups,
    municipality: l.municipality,
    municipalityNo: l.municipality_no,
    issuingAuthority: l.issuing_authority,
    validFrom: iso(l.valid_from),
    validTo: iso(l.valid_to),
  };
}

interface RecordOptions {
  /** Classification labels, county hydration (lookup and search rows; not enrich). */
  labels?: boolean;
  /** Signals, computed at this time (lookup and enrich; not list rows). */
  signals?: SignalContext;
}

interface RecordPartsInput {
  row: RecordBasis;
  financials: FinancialRow[];
  roles: RoleRow[];
  /** Whether the company has roles, where they come as the database's JSON text instead of rows. */
  hasRoles?: boolean;
  owners?: OwnerSummary;
}

/**
 * The parts of a record that the service's rules derive (accounts with ratios, roles, labels,
 * `_sources`); the rest are stored columns as they are. The typed record and the change feed's
 * JSON text (`recordJson`) are both made from these, so they cannot drift apart.
 */
export function recordParts(
  c: RecordPartsInput,
  reference: ReferenceData,
  opts: RecordOptions = {},
  extra: Record<string, FieldSource> = {},
) {
  const r = c.row;
  const stored = r.sources as Record<string, string>;
  const financials = computeRatios(
    c.financials.map((f) => ({ ...financial(f, r.org_number), accountsType: f.accounts_type })),
  ).map(({ accountsType: _a, ...rest }) => rest);
  const hasWebProfile = r.primary_domain !== null || r.enriched_domains.length > 0;
  const hasHandles = Boolean(r.linkedin_handle || r.facebook_handle || r.instagram_handle || r.twitter_handle);
  const municipality = reference.municipality(r.business_address_muni_no);
  const fields: Record<string, FieldSource | null | undefined> = {
    companyCore: stored.companyCore,
    roles: (c.hasRoles ?? c.roles.length > 0) ? (stored.roles ?? SOURCE.brreg) : null,
    financials: financials.length ? (stored.financials ?? SOURCE.regnskap) : null,
    financialRatios: financials.length ? { source: stored.financials ?? SOURCE.regnskap, computed: true } : null,
    groupHierarchy: r.parent_org_number
      ? r.parent_source === 'shareholders'
        ? SOURCE.aksjonaer
        : stored.companyCore
      : null,
    domain: hasWebProfile ? (stored.domain ?? SOURCE.webProfile) : null,
    socialHandles: hasHandles ? (stored.socialHandles ?? SOURCE.webProfile) : null,
    technologies: r.technologies.length ? (stored.technologies ?? SOURCE.webProfile) : null,
    shareholders: c.owners?.largestShareholder ? SOURCE.aksjonaer : null,
    ...extra,
  };
  const labels = opts.labels
    ? {
        naceName: reference.naceName(r.nace_code1, r.nace_description1),
        orgFormName: reference.orgFormName(r.country, r.org_form_code),
        countryName: reference.countryName(r.country),
        municipalityName: municipality?.name ?? null,
        countyCode: municipality?.countyCode ?? null,
        countyName: municipality?.countyName ?? null,
      }
    : {};
  if (opts.labels) {
    if (labels.naceName) fields.industryLabel = SOURCE.ssbKlass;
    if (labels.orgFormName) fields.orgFormLabel = r.country === 'NO' ? SOURCE.ssbKlass : stored.companyCore;
    if (labels.countryName) fields.countryLabel = SOURCE.ssbKlass;
    if (municipality) fields.countyEnrichment = SOURCE.ssbKlass;
  }
  const sources: Sources = buildSources(fields);
  const optional = r.employee_count_range ? { employeeCountRange: r.employee_count_range } : {};
  const owners = {
    majorityOwner: c.owners?.majorityOwner ?? null,
    largestShareholder: c.owners?.largestShareholder ?? null,
  };
  const derived = sizeAndPlace(r, c.financials, reference);
  return { financials, roles: c.roles.map(role), labels, sources, optional, owners, derived };
}

/** DK and SE keep a marketing-protection register; elsewhere there is none to say (null). */
export function marketingProtectedOf(r: { country: string; marketing_protected?: boolean | null }): boolean | null {
  return r.country === 'DK' || r.country === 'SE' ? (r.marketing_protected ?? null) : null;
}

export function buildCompanyRecord(c: StoredCompany, reference: ReferenceData, opts: RecordOptions = {}) {
  const r = c.row;
  const computed = opts.signals ? recordSignals(c, opts.signals) : null;
  const { financials, roles, labels, sources, optional, owners, derived } = recordParts(
    c,
    reference,
    opts,
    computed ? { signals: computed.source } : {},
  );
  return {
    id: String(r.id),
    orgNumber: r.org_number,
    country: r.country,
    name: r.name,
    orgFormCode: r.org_form_code,
    orgFormDescription: r.org_form_description,
    naceCode1: r.nace_code1,
    naceDescription1: r.nace_description1,
    naceCode2: r.nace_code2,
    naceDescription2: r.nace_description2,
    naceCode3: r.nace_code3,
    naceDescription3: r.nace_description3,
    sectorCode: r.sector_code,
    employeeCount: r.employee_count,
    ...optional,
    hasRegisteredEmployees: r.has_registered_employees,
    businessAddressStreet: r.business_address_street,
    businessAddressPostalCode: r.business_address_postal_code,
    businessAddressCity: r.business_address_city,
    businessAddressMunicipality: r.business_address_municipality,
    businessAddressMuniNo: r.business_address_muni_no,
    businessAddressCountryCode: r.business_address_country_code,
    postalAddressStreet: r.postal_address_street,
    postalAddressPostalCode: r.postal_address_postal_code,
    postalAddressCity: r.postal_address_city,
    postalAddressMunicipality: r.postal_address_municipality,
    postalAddressMuniNo: r.postal_address_muni_no,
    postalAddressCountryCode: r.postal_address_country_code,
    website: websiteUrl(r.website),
    phone: r.phone,
    parentOrgNumber: r.parent_org_number,
    isInGroup: r.is_in_group,
    foundingDate: r.founding_date,
    registrationDate: r.registration_date,
    registeredInVat: r.registered_in_vat,
    registeredInBiz: r.registered_in_biz,
    isBankrupt: r.is_bankrupt,
    isBeingDissolved: r.is_being_dissolved,
    isInForcedDissolution: r.is_in_forced_dissolution,
    isDeleted: r.is_deleted,
    deletedDate: r.deleted_date,
    status: r.status,
    description: r.description,
    lastSubmittedAccountsYear: r.last_submitted_accounts_year,
    primaryDomain: r.primary_domain,
    enrichedDomains: r.enriched_domains,
    linkedinHandle: r.linkedin_handle,
    facebookHandle: r.facebook_handle,
    instagramHandle: r.instagram_handle,
    twitterHandle: r.twitter_handle,
    technologies: r.technologies,
    hasAnyAdPixel: r.has_ad_pixel,
    marketingProtected: marketingProtectedOf(r),
    ...owners,
    ...labels,
    ...derived,
    ...(computed ? { signals: computed.signals } : {}),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    financials,
    roles,
    subUnits: c.subUnits.map(subUnit),
    licenses: c.licenses.map(licenseItem),
    _sources: sources,
  };
}

export type CompanyRecord = ReturnType<typeof buildCompanyRecord>;

/**
 * One change-feed row as JSON text, byte for byte what the typed record serialises to under the
 * CompanyRow schema: its compiled serializer writes the required fields in the schema's order,
 * then the optional ones present (employeeCountRange, owners, labels). `head` is the stored
 * fields as the database wrote them, through hasAnyAdPixel, without the closing brace; `rolesJson`
 * the roles as it wrote them.
 */
export function recordRowJson(
  head: string,
  times: { createdMs: number; updatedMs: number },
  parts: ReturnType<typeof recordParts>,
  rolesJson: string,
): string {
  const owners = JSON.stringify(parts.owners).slice(1, -1);
  const labels = JSON.stringify(parts.labels).slice(1, -1);
  const range =
    parts.optional.employeeCountRange === undefined
      ? ''
      : `,"employeeCountRange":${JSON.stringify(parts.optional.employeeCountRange)}`;
  const derived = JSON.stringify(parts.derived).slice(1, -1);
  return `${head},"createdAt":"${new Date(times.createdMs).toISOString()}","updatedAt":"${new Date(times.updatedMs).toISOString()}","financials":${JSON.stringify(parts.financials)},"roles":${rolesJson},"_sources":${JSON.stringify(parts.sources)},${derived}${range},${owners}${labels ? `,${labels}` : ''}}`;
}
