// Batch upsert of flat records keyed by their upstream identity, with a content hash: new rows
// are inserted, changed rows rewritten, unchanged rows not written at all (no dead tuples, no
// index churn on a re-import of the same file). One statement per batch through
// jsonb_to_recordset, so a batch of 1000 rows is one round trip on both engines.
// The column helpers serve every such batch statement (company-writes.ts, company-parts.ts too).
import { hash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * [column, SQL type, value of the write]: one list drives the INSERT column list, the record
 * type of jsonb_to_recordset and the UPDATE SET clause.
 */
export type Column<W> = [string, string, (w: W) => unknown];

export interface UpsertResult {
  inserted: number;
  changed: number;
}

/**
 * The content hash of a row or a part: what decides whether a write changes anything. One-shot
 * `hash` (the same digest as createHash's) builds no Hash object per row: a dump load hashes
 * 1.19M cores.
 */
export const contentHash = (v: unknown) => hash('sha1', JSON.stringify(v), 'hex');

export const columnNames = <W>(columns: Column<W>[]) => columns.map(([n]) => n);

/** `name type, …` for `jsonb_to_recordset(…) AS x(…)`; `extra` are fields that are no column. */
export const recordType = <W>(columns: Column<W>[], extra: string[] = []) =>
  [...columns.map(([n, t]) => `${n} ${t}`), ...extra].join(', ');

/** `a = EXCLUDED.a, …` for ON CONFLICT … DO UPDATE SET. */
export const setFromExcluded = (names: string[]) => names.map((n) => `${n} = EXCLUDED.${n}`).join(', ');

/**
 * One write as a jsonb_to_recordset row. jsonb_to_recordset reads a missing key as NULL, as it
 * does a JSON null, so `skipNulls` only makes the text shorter (a quarter on a registry row).
 */
export function recordOf<W>(columns: Column<W>[], w: W, skipNulls = false): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  for (const [name, , get] of columns) {
    const v = get(w);
    if (!skipNulls || v !== null) r[name] = v;
  }
  return r;
}

/**
 * An upsert into `table` (which has a `content_hash text` and a `synced_at` column) on the
 * unique key `keyColumns`. A batch must not hold one key twice: PostgreSQL refuses to update a
 * row twice in one statement.
 */
export function hashedUpsert<W>(table: string, columns: Column<W>[], keyColumns: string[]) {
  const names = columnNames(columns);
  const updates = setFromExcluded(names.filter((n) => !keyColumns.includes(n)));
  const statement = {
    insert: sql.raw(
      `INSERT INTO ${table} (${names.join(', ')}, content_hash) SELECT ${names.map((n) => `x.${n}`).join(', ')}, x.content_hash`,
    ),
    conflict:
      sql.raw(`ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${updates}, content_hash = EXCLUDED.content_hash, synced_at = now()
      WHERE ${table}.content_hash IS DISTINCT FROM EXCLUDED.content_hash RETURNING (xmax = 0) AS inserted`),
    recordType: sql.raw(recordType(columns, ['content_hash text'])),
  };

  return async (db: Kysely<Database>, writes: W[]): Promise<UpsertResult> => {
    if (!writes.length) return { inserted: 0, changed: 0 };
    const rows = writes.map((w) => {
      const r = recordOf(columns, w);
      r.content_hash = contentHash(r);
      return r;
    });
    const res = await sql<{ inserted: boolean }>`${statement.insert}
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${statement.recordType})
      ${statement.conflict}`.execute(db);
    const inserted = res.rows.filter((r) => r.inserted).length;
    return { inserted, changed: res.rows.length - inserted };
  };
}
