// Reads company records with their relations: one statement per batch (a second only when a
// company of the batch has shareholders).
import { sql, type Kysely, type Selectable } from 'kysely';
import { PREPARED } from './engine/db.ts';
import type {
  CompaniesTable,
  Database,
  FinancialsTable,
  LicensesTable,
  RolesTable,
  SubUnitsTable,
} from './engine/schema.ts';
import { foreignSharesOf, largestDanishOwnersOf, type ForeignShare, type OwnerBand } from './ownership-signals.ts';
import { createShareholderRepository, LATEST_SHAREHOLDER_RUN, type OwnerSummary } from './shareholders.ts';

export type CompanyRow = Selectable<CompaniesTable>;

/** The stored spellings of one municipality: its codes and, where addresses name only the town, its town names. */
interface MunicipalityMatch {
  codes: string[];
  towns: string[];
}
export type FinancialRow = Selectable<FinancialsTable>;
export type RoleRow = Selectable<RolesTable>;
export type SubUnitRow = Selectable<SubUnitsTable>;
export type LicenseRow = Selectable<LicensesTable>;

export interface StoredCompany {
  row: CompanyRow;
  financials: FinancialRow[];
  roles: RoleRow[];
  subUnits: SubUnitRow[];
  licenses: LicenseRow[];
  /** Latest shareholder year (NO); undefined when not loaded. */
  owners?: OwnerSummary;
  /** Lookup and enrich only: the foreign-held share, for the isForeignOwned signal. */
  foreignShare?: ForeignShare | null;
  /** Lookup and enrich only (DK): the largest legal owner's CVR band, for ownershipConcentrationPct. */
  danishLargestOwner?: OwnerBand | null;
}

export interface RelationOptions {
  /** Latest N financial years per company; undefined = all stored. */
  financialsLimit?: number;
  roles?: boolean;
  subUnits?: boolean;
  licenses?: boolean;
}

/**
 * The relation columns of the one-statement read, NULL when empty or not asked for. json_agg
 * renders timestamps as ISO strings (dates, numbers and arrays come out as the row types have them).
 */
export interface RelationColumns {
  rel_financials: FinancialRow[] | null;
  rel_roles: RoleRow[] | null;
  rel_sub_units: (Omit<SubUnitRow, 'updated_at'> & { updated_at: string })[] | null;
  rel_licenses:
    | (Omit<LicenseRow, 'valid_from' | 'valid_to' | 'synced_at'> & {
        valid_from: string | null;
        valid_to: string | null;
        synced_at: string;
      })[]
    | null;
  has_owners: boolean;
}

/**
 * The relations of company `c` as json_agg sub-selects, so a batch of companies and all their
 * relations come back in one statement (one round trip, one parse) instead of one query per
 * relation. Orders match the API: latest accounts first (company accounts before group
 * accounts of the same period), roles by group and position, sub-units by number, licences
 * newest first.
 */
export function relationColumns(opts: RelationOptions) {
  const none = sql`NULL::json`;
  const limit = opts.financialsLimit === undefined ? sql`ALL` : sql`${opts.financialsLimit}::int`;
  return sql`
    ${
      opts.financialsLimit === 0
        ? none
        : sql`(SELECT json_agg(f) FROM (
      SELECT * FROM financials WHERE company_id = c.id
      ORDER BY period_to DESC, (accounts_type = 'SELSKAP') DESC, id LIMIT ${limit}) f)`
    } AS rel_financials,
    ${opts.roles === false ? none : sql`(SELECT json_agg(r ORDER BY r.group_code, r.position, r.id) FROM roles r WHERE r.company_id = c.id)`} AS rel_roles,
    ${opts.subUnits ? sql`(SELECT json_agg(s ORDER BY s.org_number) FROM sub_units s WHERE s.parent_org_number = c.org_number AND s.country = c.country)` : none} AS rel_sub_units,
    ${opts.licenses ? sql`CASE WHEN c.country = 'NO' THEN (SELECT json_agg(l ORDER BY l.valid_from DESC, l.id) FROM licenses l WHERE l.org_number = c.org_number) END` : none} AS rel_licenses,
    (c.country = 'NO' AND EXISTS (SELECT 1 FROM shareholdings sh WHERE sh.run_id = (${LATEST_SHAREHOLDER_RUN}) AND sh.org_number = c.org_number)) AS has_owners`;
}

const NO_RELATIONS: RelationColumns = {
  rel_financials: null,
  rel_roles: null,
  rel_sub_units: null,
  rel_licenses: null,
  has_owners: false,
};

const toDate = (v: string | null) => (v === null ? null : new Date(v));

export function createCompanyReadRepository(db: Kysely<Database>) {
  const shareholders = createShareholderRepository(db);

  /**
   * Owner summaries of companies read with `has_owners` (in one more query when any has
   * shareholders): Norwegian ones get one (empty when the register names no owner), others none.
   */
  async function ownersFor(
    rows: Pick<CompanyRow, 'org_number' | 'country'>[],
    hasOwners: boolean[],
  ): Promise<(OwnerSummary | undefined)[]> {
    const withOwners = rows.filter((_, i) => hasOwners[i]).map((r) => r.org_number);
    const owners = withOwners.length ? await shareholders.ownersOf(withOwners) : new Map<string, OwnerSummary>();
    return rows.map((row) =>
      row.country === 'NO'
        ? (owners.get(row.org_number) ?? { majorityOwner: null, largestShareholder: null })
        : undefined,
    );
  }

  /** Company rows with their relation columns -> stored companies. */
  async function assemble(found: { row: CompanyRow; rel: RelationColumns }[]): Promise<StoredCompany[]> {
    const owners = await ownersFor(
      found.map((f) => f.row),
      found.map((f) => f.rel.has_owners),
    );
    return found.map(({ row, rel }, i) => ({
      row,
      financials: rel.rel_financials ?? [],
      roles: rel.rel_roles ?? [],
      subUnits: (rel.rel_sub_units ?? []).map((s) => ({ ...s, updated_at: new Date(s.updated_at) })),
      licenses: (rel.rel_licenses ?? []).map((l) => ({
        ...l,
        valid_from: toDate(l.valid_from),
        valid_to: toDate(l.valid_to),
        synced_at: new Date(l.synced_at),
      })),
      owners: owners[i],
    }));
  }

  /** Relations of rows already read (search pages, the change feed), in one statement. */
  async function relations(rows: CompanyRow[], opts: RelationOptions): Promise<StoredCompany[]> {
    if (!rows.length) return [];
    const res = await sql<{ id: number } & RelationColumns>`${sql.raw(PREPARED)}
      SELECT c.id, ${relationColumns(opts)} FROM companies c WHERE c.id = ANY(${rows.map((r) => r.id)}::bigint[])`.execute(
      db,
    );
    const byId = new Map(res.rows.map((r) => [r.id, r]));
    return assemble(rows.map((row) => ({ row, rel: byId.get(row.id) ?? NO_RELATIONS })));
  }

  return {
    relations,

    ownersFor,

    /** The foreign-held share of Norwegian companies (lookup and enrich only). */
    foreignSharesOf: (orgNumbers: string[]) => foreignSharesOf(db, orgNumbers),

    /** The largest legal owner's band of Danish companies (lookup and enrich only). */
    largestDanishOwnersOf: (cvrs: string[]) => largestDanishOwnersOf(db, cvrs),

    async findRows(country: string, orgNumbers: string[]): Promise<CompanyRow[]> {
      if (!orgNumbers.length) return [];
      return db
        .selectFrom('companies')
        .selectAll()
        .where('country', '=', country)
        .where('org_number', 'in', orgNumbers)
        .execute();
    },

    /** Companies by number with their relations: one statement (two when any has shareholders). */
    async load(country: string, orgNumbers: string[], opts: RelationOptions): Promise<StoredCompany[]> {
      if (!orgNumbers.length) return [];
      const res = await sql<CompanyRow & RelationColumns>`${sql.raw(PREPARED)}
        SELECT c.*, ${relationColumns(opts)} FROM companies c
        WHERE c.country = ${country} AND c.org_number = ANY(${orgNumbers}::text[])`.execute(db);
      return assemble(
        res.rows.map(({ rel_financials, rel_roles, rel_sub_units, rel_licenses, has_owners, ...row }) => ({
          row,
          rel: { rel_financials, rel_roles, rel_sub_units, rel_licenses, has_owners },
        })),
      );
    },

    /** Norwegian companies that filed a newer year of accounts than the store holds. */
    async companiesDueForAccounts(limit: number): Promise<string[]> {
      const res = await sql<{ org_number: string }>`
        SELECT c.org_number FROM companies c
        WHERE c.country = 'NO' AND NOT c.is_deleted AND c.last_submitted_accounts_year ~ '^[0-9]{4}$'
          AND NOT EXISTS (SELECT 1 FROM financials f WHERE f.company_id = c.id
                          AND f.period_to >= make_date(c.last_submitted_accounts_year::int, 1, 1))
        ORDER BY c.updated_at DESC LIMIT ${limit}`.execute(db);
      return res.rows.map((r) => r.org_number);
    },

    /**
     * Aggregate context from the store: companies and median employee count in the same
     * municipality, and in the same NACE division, among active companies. A municipality is
     * matched by its codes and, for registries whose addresses carry only the post town
     * (Bolagsverket), by the town names (`MunicipalityMatch`).
     */
    async context(country: string, place: MunicipalityMatch | null, naceDivision: string | null) {
      const inPlace =
        place === null
          ? sql<boolean>`false`
          : place.towns.length === 0
            ? sql<boolean>`business_address_muni_no = ANY(${place.codes}::text[])`
            : sql<boolean>`(business_address_muni_no = ANY(${place.codes}::text[])
                OR business_address_city = ANY(${place.towns}::text[])
                OR (business_address_city IS NULL AND postal_address_city = ANY(${place.towns}::text[])))`;
      const res = await sql<{ scope: string; companies: number; median_employees: number | null }>`
        SELECT 'municipality' AS scope, count(*)::int AS companies,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY employee_count) AS median_employees
        FROM companies WHERE country = ${country} AND NOT is_deleted AND ${inPlace}
        UNION ALL
        SELECT 'industry', count(*)::int, percentile_cont(0.5) WITHIN GROUP (ORDER BY employee_count)
        FROM companies WHERE country = ${country} AND NOT is_deleted AND nace_code1 LIKE ${(naceDivision ?? '--') + '%'}`.execute(
        db,
      );
      return res.rows;
    },
  };
}

export type CompanyReadRepository = ReturnType<typeof createCompanyReadRepository>;
