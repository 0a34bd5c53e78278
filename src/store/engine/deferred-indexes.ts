// First loads of a large table are several times faster without its secondary indexes: every
// row otherwise updates each of them (the companies table has a trigram index and a dozen
// btrees). A first load drops them and rebuilds them in bulk afterwards. Their definitions are
// saved first, so a process killed mid-load gets them back at the next start.
import { sql, type Kysely } from 'kysely';
import { withoutStatementTimeout } from './bulk-statement.ts';
import type { Database } from './schema.ts';

const STATE = (table: string) => `deferred-indexes:${table}`;

interface Saved extends Record<string, unknown> {
  definitions: { name: string; definition: string }[];
}

export function createDeferredIndexes(db: Kysely<Database>) {
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
    const missing = saved.definitions.filter((d) => !existing.has(d.name));
    // Every build is tried, so one that fails leaves search with all the others; the saved
    // definitions stay until all are built, and the next start (restoreAll) tries again.
    let failure: unknown;
    for (const { definition } of missing) {
      // Index builds may take longer than the request-path statement timeout.
      await withoutStatementTimeout(db, async (trx) => {
        await sql`SET LOCAL maintenance_work_mem = '64MB'`.execute(trx);
        await sql.raw(definition).execute(trx);
      }).catch((err: unknown) => {
        failure ??= err;
      });
    }
    if (failure) throw failure;
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
