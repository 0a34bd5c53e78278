// Corporate groups: the derived parent of every Norwegian company (registry parent, else the
// majority shareholder of the latest shareholder year), is_in_group, and the reads the group
// walk needs. Recomputing is set-based SQL over the whole table, never a loop per company.
import { sql, type Kysely, type Transaction } from 'kysely';
import { PARENT_SOURCE, type GroupMember } from '../domain/group-tree.ts';
import type { Database } from './engine/schema.ts';

export interface RecomputeResult {
  /** Companies whose parent_org_number changed. */
  parentsChanged: number;
  /** Companies whose is_in_group changed. */
  groupFlagsChanged: number;
}

/**
 * Derives parent_org_number / parent_source for Norwegian companies, then is_in_group (has a
 * parent, or is the parent of a stored company). The registry parent wins; otherwise a holder is
 * the parent when its shares, summed over share classes, exceed half of the company's shares
 * (the sum over classes of the class total, or of the positions when the file gives no total).
 * Only Norwegian companies (holders with an org number) count, never the company itself (own
 * shares). updated_at moves only where the parent or the group flag actually changed.
 */
export async function recomputeGroups(db: Transaction<Database>): Promise<RecomputeResult> {
  // Runs inside the import's transaction, off the request path: whole-register aggregates may
  // take longer than the per-request statement timeout, and need memory not to spill to disk.
  await sql`SET LOCAL statement_timeout = '15min'`.execute(db);
  await sql`SET LOCAL work_mem = '64MB'`.execute(db);
  // Fresh statistics: the embedded engine has no autovacuum, and with default estimates the
  // planner picks nested loops that take minutes instead of hash joins that take a second.
  await sql`ANALYZE shareholdings, shareholder_years, companies`.execute(db);
  // One statement, so a company is written at most once (each write touches every index).
  const res = await sql<{ moved: number; regrouped: number }>`
    WITH latest AS MATERIALIZED (SELECT run_id FROM shareholder_years ORDER BY year DESC LIMIT 1),
    class_totals AS (
      SELECT org_number, share_class, COALESCE(NULLIF(max(total_shares), 0), sum(share_count)) AS total
      FROM shareholdings WHERE run_id = (SELECT run_id FROM latest) GROUP BY org_number, share_class
    ),
    totals AS (SELECT org_number, sum(total) AS total FROM class_totals GROUP BY org_number),
    holdings AS (
      SELECT org_number, holder_org_number, sum(share_count) AS shares
      FROM shareholdings
      WHERE run_id = (SELECT run_id FROM latest) AND holder_type = 'company' AND holder_org_number IS NOT NULL
        AND holder_org_number <> org_number
      GROUP BY org_number, holder_org_number
    ),
    majority AS (
      SELECT DISTINCT ON (h.org_number) h.org_number, h.holder_org_number AS parent
      FROM holdings h JOIN totals t ON t.org_number = h.org_number
      WHERE h.shares * 2 > t.total
      ORDER BY h.org_number, h.shares DESC, h.holder_org_number
    ),
    derived AS MATERIALIZED (
      SELECT c.id, c.org_number, c.parent_org_number AS old_parent, c.parent_source AS old_source, c.is_in_group AS old_in_group,
             COALESCE(c.registry_parent_org_number, m.parent) AS parent,
             CASE WHEN c.registry_parent_org_number IS NOT NULL THEN ${sql.lit(PARENT_SOURCE.registry)}
                  WHEN m.parent IS NOT NULL THEN ${sql.lit(PARENT_SOURCE.shareholders)} END AS source
      FROM companies c LEFT JOIN majority m ON m.org_number = c.org_number
      WHERE c.country = 'NO'
    ),
    parents AS (SELECT DISTINCT parent FROM derived WHERE parent IS NOT NULL),
    final AS (
      SELECT d.*, (d.parent IS NOT NULL OR p.parent IS NOT NULL) AS in_group
      FROM derived d LEFT JOIN parents p ON p.parent = d.org_number
    ),
    updated AS (
      UPDATE companies c SET
        parent_org_number = f.parent,
        parent_source = f.source,
        is_in_group = f.in_group,
        updated_at = CASE WHEN (f.old_parent, f.old_in_group) IS DISTINCT FROM (f.parent, f.in_group) THEN now() ELSE c.updated_at END
      FROM final f
      WHERE c.id = f.id AND (f.old_parent, f.old_source, f.old_in_group) IS DISTINCT FROM (f.parent, f.source, f.in_group)
      RETURNING (f.old_parent IS DISTINCT FROM f.parent) AS moved, (f.old_in_group IS DISTINCT FROM f.in_group) AS regrouped
    )
    SELECT count(*) FILTER (WHERE moved)::int AS moved, count(*) FILTER (WHERE regrouped)::int AS regrouped FROM updated`.execute(
    db,
  );
  return { parentsChanged: res.rows[0].moved, groupFlagsChanged: res.rows[0].regrouped };
}

/** Countries with group trees: Norway (registry + Aksjonærregisteret) and Denmark (CVR owners). */
export type GroupCountry = 'NO' | 'DK';

interface MemberRow {
  org_number: string;
  name: string;
  org_form_code: string | null;
  employee_count: number | null;
  parent_org_number: string | null;
  parent_source: string | null;
}

const toMember = (r: MemberRow): GroupMember => ({
  orgNumber: r.org_number,
  name: r.name,
  orgFormCode: r.org_form_code,
  employeeCount: r.employee_count,
  parentOrgNumber: r.parent_org_number,
  parentSource: r.parent_source,
});

const MEMBER_COLUMNS = [
  'org_number',
  'name',
  'org_form_code',
  'employee_count',
  'parent_org_number',
  'parent_source',
] as const;

export function createGroupRepository(db: Kysely<Database>) {
  return {
    /** Recomputes derived parents and group flags in one transaction. */
    recompute(): Promise<RecomputeResult> {
      return db.transaction().execute((trx) => recomputeGroups(trx));
    },

    // Danish parents come from CVR's owner register at ingest (registry_parent_org_number), so
    // the reads serve DK as well; the recompute above stays Norwegian.
    async member(orgNumber: string, country: GroupCountry = 'NO'): Promise<GroupMember | undefined> {
      const row = await db
        .selectFrom('companies')
        .select(MEMBER_COLUMNS)
        .where('country', '=', country)
        .where('org_number', '=', orgNumber)
        .executeTakeFirst();
      return row ? toMember(row) : undefined;
    },

    /** One level of the tree: companies whose parent is in `parents` (index companies_parent). */
    async children(
      parents: string[],
      exclude: string[],
      limit: number,
      country: GroupCountry = 'NO',
    ): Promise<GroupMember[]> {
      if (!parents.length || limit <= 0) return [];
      const res = await sql<MemberRow>`
        SELECT org_number, name, org_form_code, employee_count, parent_org_number, parent_source
        FROM companies
        WHERE country = ${country} AND parent_org_number = ANY(${parents}::text[]) AND NOT (org_number = ANY(${exclude}::text[]))
        ORDER BY org_number LIMIT ${limit}`.execute(db);
      return res.rows.map(toMember);
    },
  };
}

export type GroupRepository = ReturnType<typeof createGroupRepository>;
