// Completeness of the store per country and category, measured by counting (the nightly coverage
// job), and the snapshots it saves (GET /api/coverage reads the latest one).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { withoutStatementTimeout } from '../engine/bulk-statement.ts';
import type { Database } from '../engine/schema.ts';
import { COVERAGE_CATEGORIES, type CoverageCategory } from '../../domain/coverage.ts';

export { COVERAGE_CATEGORIES, type CoverageCategory };

/** What counting found for one country and category. */
export interface MeasuredCell {
  country: string;
  category: CoverageCategory;
  /** Rows stored (screening lists: listed entities). */
  records: number;
  /** Companies of the country with at least one such record; null where it does not apply. */
  companiesWith: number | null;
}

/** A saved cell: the measurement plus what the job added (share, freshness). */
export interface CoverageCell extends MeasuredCell {
  share: number | null;
  lastSync: string | null;
  cadence: { job: string; cron: string }[];
  sources: string[];
}

interface CoverageSnapshot {
  id: number;
  takenAt: string;
  cells: CoverageCell[];
}

type Row = { country: string; records: number | string; companies: number | string | null };

// One statement per category, each in its own short transaction: on the embedded engine a long
// transaction would hold the single connection (and every request) for the whole measurement.
const QUERIES: Record<Exclude<CoverageCategory, 'screeningLists'>, RawBuilder<Row>> = {
  companies: sql<Row>`SELECT country, count(*) AS records, count(*) AS companies FROM companies GROUP BY country`,
  financials: sql<Row>`SELECT c.country, count(*) AS records, count(DISTINCT f.company_id) AS companies
    FROM financials f JOIN companies c ON c.id = f.company_id GROUP BY c.country`,
  roles: sql<Row>`SELECT c.country, count(*) AS records, count(DISTINCT r.company_id) AS companies
    FROM roles r JOIN companies c ON c.id = r.company_id GROUP BY c.country`,
  subUnits: sql<Row>`SELECT s.country, count(*) AS records, count(DISTINCT c.id) AS companies
    FROM sub_units s LEFT JOIN companies c ON c.country = s.country AND c.org_number = s.parent_org_number
    GROUP BY s.country`,
  // Only the visible import of each year counts (rows of a running or failed import do not).
  // DK: the legal owners CVR registers (cvr_owners), one row per owner of a company.
  shareholders: sql<Row>`SELECT 'NO' AS country, count(*) AS records, count(DISTINCT c.id) AS companies
    FROM shareholdings s JOIN shareholder_years y ON y.run_id = s.run_id
    LEFT JOIN companies c ON c.country = 'NO' AND c.org_number = s.org_number
    UNION ALL
    SELECT 'DK' AS country, count(*) AS records, count(DISTINCT c.id) AS companies
    FROM cvr_owners o LEFT JOIN companies c ON c.country = 'DK' AND c.org_number = o.investee_cvr`,
  licenses: sql<Row>`SELECT 'NO' AS country, count(*) AS records, count(DISTINCT c.id) AS companies
    FROM licenses l LEFT JOIN companies c ON c.country = 'NO' AND c.org_number = l.org_number`,
  inspections: sql<Row>`SELECT 'NO' AS country, count(*) AS records, count(DISTINCT c.id) AS companies
    FROM inspections i LEFT JOIN companies c ON c.country = 'NO' AND c.org_number = i.org_number`,
  domains: sql<Row>`SELECT country, count(*) FILTER (WHERE primary_domain IS NOT NULL) AS records,
      count(*) FILTER (WHERE primary_domain IS NOT NULL) AS companies
    FROM companies GROUP BY country`,
  technologies: sql<Row>`SELECT country, COALESCE(sum(cardinality(technology_names)), 0) AS records,
      count(*) FILTER (WHERE cardinality(technology_names) > 0) AS companies
    FROM companies GROUP BY country`,
  // By the buyer's country, for the countries with a company register here (TED also carries
  // Icelandic buyers); companiesWith: Norwegian buyers linked by org number.
  procurement: sql<Row>`SELECT p.country, count(*) AS records, count(DISTINCT c.id) AS companies
    FROM procurement_notices p LEFT JOIN companies c ON c.country = 'NO' AND c.org_number = p.org_number
    WHERE p.country IN ('NO', 'FI', 'SE', 'DK') GROUP BY p.country`,
};

export function createCoverageRepository(db: Kysely<Database>) {
  return {
    /** Counts every category; `countries` get a cell in each even where nothing is stored. */
    async measure(countries: readonly string[]): Promise<MeasuredCell[]> {
      const found = new Map<string, MeasuredCell>();
      const all = new Set(countries);
      for (const [category, query] of Object.entries(QUERIES) as [CoverageCategory, RawBuilder<Row>][]) {
        const rows = await withoutStatementTimeout(db, async (trx) => (await query.execute(trx)).rows);
        for (const r of rows) {
          all.add(r.country);
          found.set(`${r.country}/${category}`, {
            country: r.country,
            category,
            records: Number(r.records),
            companiesWith: r.companies === null ? null : Number(r.companies),
          });
        }
      }
      const lists = await sql<{
        entities: number | string;
      }>`SELECT COALESCE(sum(entity_count), 0) AS entities FROM sanction_lists`.execute(db);
      const listed = Number(lists.rows[0].entities);
      const cells: MeasuredCell[] = [];
      for (const country of [...all].sort()) {
        for (const category of COVERAGE_CATEGORIES) {
          // Screening lists are not per country: every country's screening uses all of them.
          if (category === 'screeningLists') cells.push({ country, category, records: listed, companiesWith: null });
          else cells.push(found.get(`${country}/${category}`) ?? { country, category, records: 0, companiesWith: 0 });
        }
      }
      return cells;
    },

    async save(cells: CoverageCell[]): Promise<CoverageSnapshot> {
      const row = await sql<{ id: number | string; taken_at: Date }>`
        INSERT INTO coverage_snapshots (cells) VALUES (${JSON.stringify(cells)}::jsonb) RETURNING id, taken_at`.execute(
        db,
      );
      return { id: Number(row.rows[0].id), takenAt: new Date(row.rows[0].taken_at).toISOString(), cells };
    },

    async latest(): Promise<CoverageSnapshot | undefined> {
      const res = await sql<{ id: number | string; taken_at: Date; cells: CoverageCell[] | string }>`
        SELECT id, taken_at, cells FROM coverage_snapshots ORDER BY taken_at DESC, id DESC LIMIT 1`.execute(db);
      const r = res.rows[0];
      if (!r) return undefined;
      return {
        id: Number(r.id),
        takenAt: new Date(r.taken_at).toISOString(),
        cells: typeof r.cells === 'string' ? JSON.parse(r.cells) : r.cells,
      };
    },

    /** Drops all but the newest `keep` snapshots (one a night adds up over years). */
    async prune(keep: number): Promise<void> {
      await sql`DELETE FROM coverage_snapshots WHERE id NOT IN (SELECT id FROM coverage_snapshots ORDER BY taken_at DESC, id DESC LIMIT ${keep})`.execute(
        db,
      );
    },
  };
}

export type CoverageRepository = ReturnType<typeof createCoverageRepository>;
