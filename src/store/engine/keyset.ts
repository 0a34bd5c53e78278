// Keyset pagination shared by the list endpoints: rows in (sort expression, id) order after a
// position, with the position of each row read back as text in full precision (timestamps to
// the microsecond) and cast back to the expression's type on the next page.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { PREPARED } from './db.ts';
import type { Database } from './schema.ts';

export type KeysetPosition = [string | number | null, number];
export type SortOrder = 'asc' | 'desc';

export interface SortSpec {
  /** SQL expression over the table alias, e.g. `COALESCE(c.employee_count, -1)`. */
  expr: string;
  /** The SQL type its keyset value is cast back to. */
  type: string;
}

export interface KeysetQuery {
  /** `table alias`, e.g. `companies c`. */
  from: string;
  alias: string;
  where: RawBuilder<SqlBool>[];
  sort: SortSpec;
  order: SortOrder;
  limit: number;
  after?: KeysetPosition;
  /** More columns of each page row (over the table alias), read in the same statement. */
  columns?: RawBuilder<unknown>;
  /** The row's own columns, instead of all of the table's (must include `id`). */
  rowColumns?: RawBuilder<unknown>;
  /**
   * A named (prepared) statement: planned once per connection instead of per page. Only for
   * queries whose plan does not hinge on the values (a LIKE prefix does, so search pages are not).
   */
  prepared?: boolean;
  /**
   * A filter tried first on a bounded walk of the sort order (see KeysetWalk); the query falls
   * back to `where` plus the filter when the walk finds less than a page.
   */
  walk?: KeysetWalk;
}

/**
 * A filter whose matches the planner cannot count (a name substring: the trigram index's
 * estimate was 474 rows for 63 102 on the Nordic store, so it sorted them all) is checked on
 * the first `rows` entries of the sort order's index instead, index-only: a page found there is
 * exactly the page the whole query would return, at a bounded cost. Only for a sort whose index
 * carries `columns`.
 */
export interface KeysetWalk {
  /** The walked index's columns the filter reads, over the table alias (e.g. `c.name_norm`). */
  columns: string;
  /** Over the same alias, as if on the table. */
  filter: RawBuilder<SqlBool>;
  /** Index entries walked at most. */
  rows: number;
}

export async function keysetPage<Row>(
  db: Kysely<Database>,
  q: KeysetQuery,
): Promise<{ rows: Row[]; positions: KeysetPosition[] }> {
  if (q.walk) {
    const walked = await pageOf<Row>(db, q, q.walk);
    if (walked.rows.length >= q.limit) return walked;
  }
  return pageOf<Row>(db, q.walk ? { ...q, where: [...q.where, q.walk.filter] } : q);
}

async function pageOf<Row>(
  db: Kysely<Database>,
  q: KeysetQuery,
  walk?: KeysetWalk,
): Promise<{ rows: Row[]; positions: KeysetPosition[] }> {
  const expr = sql.raw(q.sort.expr);
  const id = sql.raw(`${q.alias}.id`);
  const clauses = [...q.where];
  if (q.after) {
    const value = sql`CAST(${q.after[0]} AS ${sql.raw(q.sort.type)})`;
    clauses.push(
      q.order === 'asc'
        ? sql`(${expr}, ${id}) > (${value}, ${q.after[1]})`
        : sql`(${expr}, ${id}) < (${value}, ${q.after[1]})`,
    );
  }
  const dir = sql.raw(q.order === 'asc' ? 'ASC' : 'DESC');
  // A prepared statement's generic plan costs `LIMIT $n` as 10% of the matching rows, so it never
  // beat the custom plans and every page was planned afresh; a literal limit (an integer of
  // ours, one statement text per page size) lets the generic plan, planned once, serve.
  const limit = q.prepared ? sql.lit(Math.trunc(q.limit)) : sql`${q.limit}`;
  const where = clauses.length ? sql.join(clauses, sql` AND `) : sql`true`;
  // The walk's LIMIT keeps its filter out of the inner scan (a qual is not pushed below a LIMIT).
  const chosen = walk
    ? sql`SELECT page_id, page_key FROM (
        SELECT ${id} AS page_id, ${expr} AS page_key, ${sql.raw(walk.columns)} FROM ${sql.raw(q.from)}
        WHERE ${where} ORDER BY ${expr} ${dir}, ${id} ${dir} LIMIT ${sql.lit(Math.trunc(walk.rows))}
      ) ${sql.raw(q.alias)} WHERE ${walk.filter}
      ORDER BY page_key ${dir}, page_id ${dir} LIMIT ${limit}`
    : sql`SELECT ${id} AS page_id, ${expr} AS page_key FROM ${sql.raw(q.from)}
      WHERE ${where} ORDER BY ${expr} ${dir}, ${id} ${dir} LIMIT ${limit}`;
  // Ids and sort keys first, rows after: the page is chosen from the narrowest plan (an
  // index-only scan where a covering index exists, migration 0012), and only the page's rows
  // are read in full.
  const res = await sql<Row & { sort_key: string; id: number }>`${sql.raw(q.prepared ? PREPARED : '')}
    WITH page AS MATERIALIZED (${chosen})
    SELECT ${q.rowColumns ?? sql.raw(`${q.alias}.*`)}, ${q.columns ? sql`${q.columns},` : sql``} page.page_key::text AS sort_key
    FROM page JOIN ${sql.raw(q.from)} ON ${id} = page.page_id
    ORDER BY page.page_key ${dir}, page.page_id ${dir}`.execute(db);
  // The position is taken out of each row in place (no copy of a page of full rows).
  const positions = res.rows.map((r) => {
    const position: KeysetPosition = [r.sort_key, Number(r.id)];
    delete (r as { sort_key?: string }).sort_key;
    return position;
  });
  return { rows: res.rows as unknown as Row[], positions };
}
