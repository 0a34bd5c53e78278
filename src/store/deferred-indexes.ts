// First loads of a large table are several times faster without its secondary indexes: every
// row otherwise updates each of them (the companies table has a trigram index and a dozen
// btrees). A first load drops them and rebuilds them in bulk afterwards. Their definitions are
// saved first, so a process killed mid-load gets them back at the next start.
import { sql, type Kysely } from 'kysely';
import pLimit from 'p-limit';
import { withoutStatementTimeout } from './bulk-statement.ts';
import type { Database } from './schema.ts';

const STATE = (table: string) => `deferred-indexes:${table}`;

interface Saved extends Record<string, unknown> {
  definitions: { name: string; definition: string }[];
}

export interface DeferredIndexOptions {
  /**
   * Index builds run side by side on this many connections (PostgreSQL: 2). A GIN build is one
   * process (parallel builds are for btrees only), so on one lane the two GIN indexes of
   * companies and the btrees took turns on a single core.
   */
  lanes: number;
  /** maintenance_work_mem of each build: a GIN build spills its posting lists beyond it. */
  workMem: string;
}

/** GIN builds take several times a btree's: started first, so no lane is left with one at the end. */
const longestFirst = (a: { definition: string }, b: { definition: string }) =>
  Number(/ USING gin /i.test(b.definition)) - Number(/ USING gin /i.test(a.definition));

export function createDeferredIndexes(db: Kysely<Database>, opts: DeferredIndexOptions) {
  async function restore(table: string): Promise<number> {
    const row = await db.selectFrom('sync_state').select('state').where('source', '=', STATE(table)).executeTakeFirst();
    if (!row) return 0;
    const saved = row.state as unknown as Saved;
    const existing = new Set(
      (
        await sql<{
          indexname: string;
        }>`SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = ${table}`.execute(db)
      ).rows.map((r) => r.indexname),
    );
    const missing = saved.definitions.filter((d) => !existing.has(d.name)).sort(longestFirst);
    const lane = pLimit(opts.lanes);
    // Index builds may take longer than the request-path statement timeout.
    const build = (definition: string) =>
      withoutStatementTimeout(db, async (trx) => {
        await sql`SELECT set_config('maintenance_work_mem', ${opts.workMem}, true)`.execute(trx);
        await sql.raw(definition).execute(trx);
      });
    // Every build settles before the saved definitions go: one that failed is retried at the next start.
    const results = await Promise.allSettled(missing.map((d) => lane(() => build(d.definition))));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await db.deleteFrom('sync_state').where('source', '=', STATE(table)).execute();
    return missing.length;
  }

  return {
    restore,

    /** Restores indexes of any table whose load was interrupted (start-up). */
    async restoreAll(): Promise<number> {
      const rows = await db
        .selectFrom('sync_state')
        .select('source')
        .where('source', 'like', 'deferred-indexes:%')
        .execute();
      let n = 0;
      for (const r of rows) n += await restore(r.source.slice('deferred-indexes:'.length));
      return n;
    },

    /** Drops the secondary indexes of `table` (not those backing constraints). */
    async drop(table: string): Promise<number> {
      const defs = await sql<{ name: string; definition: string }>`
        SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename = ${table}
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`.execute(db);
      if (!defs.rows.length) return 0;
      await db
        .insertInto('sync_state')
        .values({ source: STATE(table), state: JSON.stringify({ definitions: defs.rows }) })
        .onConflict((oc) => oc.column('source').doUpdateSet({ state: JSON.stringify({ definitions: defs.rows }) }))
        .execute();
      for (const d of defs.rows) await sql`DROP INDEX IF EXISTS ${sql.id(d.name)}`.execute(db);
      return defs.rows.length;
    },
  };
}

export type DeferredIndexes = ReturnType<typeof createDeferredIndexes>;
