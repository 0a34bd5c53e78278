// Reads company records with their relations, in a fixed number of queries per batch.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { CompaniesTable, Database, FinancialsTable, LicensesTable, RolesTable, SubUnitsTable } from './schema.ts';
import { createShareholderRepository, type OwnerSummary } from './shareholders.ts';

export type CompanyRow = Selectable<CompaniesTable>;
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
}

export interface RelationOptions {
  /** Latest N financial years per company; undefined = all stored. */
  financialsLimit?: number;
  roles?: boolean;
  subUnits?: boolean;
  licenses?: boolean;
}

export function createCompanyReadRepository(db: Kysely<Database>) {
  const shareholders = createShareholderRepository(db);
  async function relations(rows: CompanyRow[], opts: RelationOptions): Promise<StoredCompany[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const numbers = rows.map((r) => r.org_number);
    const [financials, roles, subUnits, licenses, owners] = await Promise.all([
      opts.financialsLimit === 0
        ? Promise.resolve([] as FinancialRow[])
        : sql<FinancialRow & { rn: number }>`SELECT * FROM (
            SELECT f.*, row_number() OVER (PARTITION BY f.company_id ORDER BY f.period_to DESC, (f.accounts_type = 'SELSKAP') DESC) AS rn
            FROM financials f WHERE f.company_id = ANY(${ids}::bigint[])) t
          WHERE ${opts.financialsLimit === undefined ? sql`true` : sql`t.rn <= ${opts.financialsLimit}`}
          ORDER BY t.company_id, t.rn`.execute(db).then((r) => r.rows),
      opts.roles === false
        ? Promise.resolve([] as RoleRow[])
        : db.selectFrom('roles').selectAll().where('company_id', 'in', ids).orderBy('company_id').orderBy('group_code').orderBy('position').orderBy('id').execute(),
      opts.subUnits
        ? db.selectFrom('sub_units').selectAll().where('parent_org_number', 'in', numbers).where('country', '=', rows[0].country).orderBy('org_number').execute()
        : Promise.resolve([] as SubUnitRow[]),
      opts.licenses && rows[0].country === 'NO'
        ? db.selectFrom('licenses').selectAll().where('org_number', 'in', numbers).orderBy('valid_from', 'desc').execute()
        : Promise.resolve([] as LicenseRow[]),
      shareholders.ownersOf(rows.filter((r) => r.country === 'NO').map((r) => r.org_number)),
    ]);
    const group = <T>(items: T[], key: (t: T) => string | number | null) => {
      const m = new Map<string | number, T[]>();
      for (const it of items) {
        const k = key(it);
        if (k === null) continue;
        if (!m.has(k)) m.set(k, []);
        m.get(k)!.push(it);
      }
      return m;
    };
    const fin = group(financials, (f) => f.company_id);
    const rol = group(roles, (r) => r.company_id);
    const sub = group(subUnits, (s) => s.parent_org_number);
    const lic = group(licenses, (l) => l.org_number);
    return rows.map((row) => ({
      row,
      financials: (fin.get(row.id) ?? []).map((f) => {
        const { rn: _rn, ...rest } = f as FinancialRow & { rn?: number };
        return rest;
      }),
      roles: rol.get(row.id) ?? [],
      subUnits: sub.get(row.org_number) ?? [],
      licenses: lic.get(row.org_number) ?? [],
      owners: row.country === 'NO' ? (owners.get(row.org_number) ?? { majorityOwner: null, largestShareholder: null }) : undefined,
    }));
  }

  return {
    relations,

    async findRows(country: string, orgNumbers: string[]): Promise<CompanyRow[]> {
      if (!orgNumbers.length) return [];
      return db.selectFrom('companies').selectAll().where('country', '=', country).where('org_number', 'in', orgNumbers).execute();
    },

    async load(country: string, orgNumbers: string[], opts: RelationOptions): Promise<StoredCompany[]> {
      const rows = await this.findRows(country, orgNumbers);
      return relations(rows, opts);
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
     * municipality, and in the same NACE division, among active companies.
     */
    async context(municipalityNo: string | null, naceDivision: string | null) {
      const res = await sql<{ scope: string; companies: number; median_employees: number | null }>`
        SELECT 'municipality' AS scope, count(*)::int AS companies,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY employee_count) AS median_employees
        FROM companies WHERE country = 'NO' AND NOT is_deleted AND business_address_muni_no = ${municipalityNo}
        UNION ALL
        SELECT 'industry', count(*)::int, percentile_cont(0.5) WITHIN GROUP (ORDER BY employee_count)
        FROM companies WHERE country = 'NO' AND NOT is_deleted AND nace_code1 LIKE ${(naceDivision ?? '--') + '%'}`.execute(db);
      return res.rows;
    },
  };
}

export type CompanyReadRepository = ReturnType<typeof createCompanyReadRepository>;
