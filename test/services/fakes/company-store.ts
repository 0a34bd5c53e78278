// The company repositories a lookup uses, in memory: `load` answers what `write` stored, `purge`
// deletes every copy. Rows are built as the real store's columns read (roles and sub-units as
// rows; `fetched_at` set by a live fetch, `roles_hash` once roles were written), so the real
// record builder and the service's "incomplete bulk record" rule see what they would in SQL.
import type { Clock } from '../../../src/domain/clock.ts';
import type { CompanyCore } from '../../../src/domain/company.ts';
import type { CompanyReadRepository, CompanyRow, StoredCompany } from '../../../src/store/company-reads.ts';
import type { CompanyWrite, CompanyWriteRepository, WriteResult } from '../../../src/store/company-writes.ts';
import type { LiveFetchMissRepository } from '../../../src/store/live-fetch-misses.ts';
import type { ForeignShare } from '../../../src/store/ownership-signals.ts';
import type { OwnerSummary } from '../../../src/store/shareholders.ts';

type Reads = Pick<CompanyReadRepository, 'load' | 'foreignSharesOf' | 'ownersFor'>;
type Writes = Pick<CompanyWriteRepository, 'write' | 'purge'>;

function rowOf(id: number, core: CompanyCore, now: Date): CompanyRow {
  const b = core.businessAddress;
  const p = core.postalAddress;
  return {
    id,
    country: core.country,
    org_number: core.orgNumber,
    name: core.name,
    name_norm: core.name.toLowerCase(),
    org_form_code: core.orgFormCode,
    org_form_description: core.orgFormDescription,
    nace_code1: core.naceCode1,
    nace_description1: core.naceDescription1,
    nace_code2: core.naceCode2,
    nace_description2: core.naceDescription2,
    nace_code3: core.naceCode3,
    nace_description3: core.naceDescription3,
    sector_code: core.sectorCode,
    employee_count: core.employeeCount,
    employee_count_range: core.employeeCountRange ?? null,
    has_registered_employees: core.hasRegisteredEmployees,
    business_address_street: b?.street ?? null,
    business_address_postal_code: b?.postalCode ?? null,
    business_address_city: b?.city ?? null,
    business_address_municipality: b?.municipality ?? null,
    business_address_muni_no: b?.municipalityNumber ?? null,
    business_address_country_code: b?.countryCode ?? null,
    postal_address_street: p?.street ?? null,
    postal_address_postal_code: p?.postalCode ?? null,
    postal_address_city: p?.city ?? null,
    postal_address_municipality: p?.municipality ?? null,
    postal_address_muni_no: p?.municipalityNumber ?? null,
    postal_address_country_code: p?.countryCode ?? null,
    website: core.website,
    email: core.email,
    phone: core.phone,
    registry_parent_org_number: core.registryParentOrgNumber,
    parent_org_number: null,
    parent_source: null,
    is_in_group: false,
    founding_date: core.foundingDate,
    registration_date: core.registrationDate,
    registered_in_vat: core.registeredInVat,
    registered_in_biz: core.registeredInBiz,
    is_bankrupt: core.isBankrupt,
    is_being_dissolved: core.isBeingDissolved,
    is_in_forced_dissolution: core.isInForcedDissolution,
    is_in_debt_negotiation: core.isInDebtNegotiation ?? null,
    marketing_protected: null,
    is_deleted: core.isDeleted,
    deleted_date: core.deletedDate,
    status: core.status,
    description: core.description,
    last_submitted_accounts_year: core.lastSubmittedAccountsYear,
    primary_domain: null,
    enriched_domains: [],
    linkedin_handle: null,
    facebook_handle: null,
    instagram_handle: null,
    twitter_handle: null,
    technologies: [],
    technology_names: [],
    has_ad_pixel: false,
    latest_revenue: null,
    sources: { companyCore: core.source },
    content_hash: `core:${core.orgNumber}`,
    roles_hash: null,
    sub_units_hash: null,
    fetched_at: null,
    created_at: now,
    updated_at: now,
  };
}

export class FakeCompanyStore implements Reads, Writes {
  /** Numbers purged, in order. */
  readonly purged: string[] = [];
  /** Every write, in order (one entry per company). */
  readonly written: CompanyWrite[] = [];
  private readonly companies = new Map<string, StoredCompany>();
  private nextId = 1;

  constructor(private readonly clock: Clock) {}

  has(country: string, orgNumber: string): boolean {
    return this.companies.has(`${country}:${orgNumber}`);
  }

  get(country: string, orgNumber: string): StoredCompany | undefined {
    return this.companies.get(`${country}:${orgNumber}`);
  }

  /** No shareholder register in this fake: no company has a foreign-held share. */
  async foreignSharesOf(): Promise<Map<string, ForeignShare>> {
    return new Map();
  }

  /** No shareholder register: a Norwegian company has an empty owner summary, others none. */
  async ownersFor(rows: { country: string }[]): Promise<(OwnerSummary | undefined)[]> {
    return rows.map((r) => (r.country === 'NO' ? { majorityOwner: null, largestShareholder: null } : undefined));
  }

  async load(country: string, orgNumbers: string[]): Promise<StoredCompany[]> {
    return orgNumbers.flatMap((n) => {
      const c = this.companies.get(`${country}:${n}`);
      return c ? [structuredClone(c)] : [];
    });
  }

  async write(writes: CompanyWrite[]): Promise<WriteResult> {
    const now = this.clock.now();
    let inserted = 0;
    for (const w of writes) {
      this.written.push(w);
      const key = `${w.core.country}:${w.core.orgNumber}`;
      const old = this.companies.get(key);
      if (!old) inserted++;
      const row = rowOf(old?.row.id ?? this.nextId++, w.core, now);
      row.created_at = old?.row.created_at ?? now;
      row.fetched_at = w.fetched ? now : (old?.row.fetched_at ?? null);
      row.roles_hash = w.roles ? `roles:${w.roles.length}` : (old?.row.roles_hash ?? null);
      const companyId = row.id;
      this.companies.set(key, {
        row,
        roles: w.roles
          ? w.roles.map((r, i) => ({
              id: i + 1,
              company_id: companyId,
              group_code: r.groupCode,
              group_description: r.groupDescription,
              role_type_code: r.roleTypeCode,
              role_type_description: r.roleTypeDescription,
              person_first_name: r.personFirstName,
              person_middle_name: r.personMiddleName,
              person_last_name: r.personLastName,
              person_birth_year: r.personBirthYear,
              entity_org_number: r.entityOrgNumber,
              entity_name: r.entityName,
              elected_by: r.electedBy,
              responsibility_share: r.responsibilityShare,
              position: r.position,
            }))
          : (old?.roles ?? []),
        financials: w.financials
          ? w.financials.map((f, i) => ({
              id: i + 1,
              company_id: companyId,
              upstream_id: f.upstreamId,
              accounts_type: f.accountsType,
              period_from: f.periodFrom,
              period_to: f.periodTo,
              currency: f.currency,
              revenue: f.revenue,
              operating_profit: f.operatingProfit,
              net_result: f.netResult,
              equity: f.equity,
              total_assets: f.totalAssets,
              total_liabilities: f.totalLiabilities,
              average_employees: f.employees ?? null,
              source: f.source,
            }))
          : (old?.financials ?? []),
        subUnits: old?.subUnits ?? [],
        licenses: [],
      });
    }
    return { inserted, changed: writes.length - inserted, unchanged: 0 };
  }

  async purge(country: string, orgNumber: string): Promise<boolean> {
    this.purged.push(orgNumber);
    return this.companies.delete(`${country}:${orgNumber}`);
  }
}

/** The negative cache of live fetches: numbers remembered as unknown until a time. */
export class FakeLiveFetchMisses implements LiveFetchMissRepository {
  private readonly until = new Map<string, Date>();

  async remembered(source: string, orgNumbers: string[], now: Date): Promise<Set<string>> {
    return new Set(orgNumbers.filter((n) => (this.until.get(`${source}:${n}`)?.getTime() ?? 0) > now.getTime()));
  }

  async remember(source: string, orgNumbers: string[], until: Date): Promise<void> {
    for (const n of orgNumbers) this.until.set(`${source}:${n}`, until);
  }

  async countActive(now: Date): Promise<number> {
    return [...this.until.values()].filter((u) => u.getTime() > now.getTime()).length;
  }
}
