// Batch upsert of flat records keyed by their upstream identity, with a content hash: new rows
// are inserted, changed rows rewritten, unchanged rows not written at all (no dead tuples, no
// index churn on a re-import of the same file). One statement per batch through
// jsonb_to_recordset, so a batch of 1000 rows is one round trip on both engines.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** [column, SQL type, value of the write]. */
export type Column<W> = [string, string, (w: W) => unknown];

export interface UpsertResult {
  inserted: number;
  changed: number;
}

const hash = (v: unknown) => createHash('sha1').update(JSON.stringify(v)).digest('hex');

/**
 * An upsert into `table` (which has a `content_hash text` and a `synced_at` column) on the
 * unique key `keyColumns`. A batch must not hold one key twice: PostgreSQL refuses to update a
 * row twice in one statement.
 */
export function hashedUpsert<W>(table: string, columns: Column<W>[], keyColumns: string[]) {
  const names = columns.map(([n]) => n);
  const recordType = [...columns.map(([n, t]) => `${n} ${t}`), 'content_hash text'].join(', ');
  const updates = names
    .filter((n) => !keyColumns.includes(n))
    .map((n) => `${n} = EXCLUDED.${n}`)
    .join(', ');
  const statement = {
    insert: sql.raw(
      `INSERT INTO ${table} (${names.join(', ')}, content_hash) SELECT ${names.map((n) => `x.${n}`).join(', ')}, x.content_hash`,
    ),
    conflict:
      sql.raw(`ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${updates}, content_hash = EXCLUDED.content_hash, synced_at = now()
      WHERE ${table}.content_hash IS DISTINCT FROM EXCLUDED.content_hash RETURNING (xmax = 0) AS inserted`),
    recordType: sql.raw(recordType),
  };

  return async (db: Kysely<Database>, writes: W[]): Promise<UpsertResult> => {
    if (!writes.length) return { inserted: 0, changed: 0 };
    const rows = writes.map((w) => {
      const r: Record<string, unknown> = {};
      for (const [name, , get] of columns) r[name] = get(w);
      r.content_hash = hash(r);
      return r;
    });
    const res = await sql<{ inserted: boolean }>`${statement.insert}
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${statement.recordType})
      ${statement.conflict}`.execute(db);
    const inserted = res.rows.filter((r) => r.inserted).length;
    return { inserted, changed: res.rows.length - inserted };
  };
}
