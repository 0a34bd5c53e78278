// The secondary indexes a first load drops (store/deferred-indexes.ts) come back as they were;
// a build that fails leaves the others built and the saved definitions in place, so the next
// start (restoreAll) builds what is still missing. On the engine of this run.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

/** Each index of companies with its definition, by name. */
async function indexes(): Promise<Record<string, string>> {
  const rows = await sql<{ indexname: string; indexdef: string }>`
    SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'companies'`.execute(
    server.ctx.store.db,
  );
  return Object.fromEntries(rows.rows.map((r) => [r.indexname, r.indexdef]));
}

const STATE_SOURCE = 'deferred-indexes:companies';
type Saved = { definitions: { name: string; definition: string }[] };

/** The definitions a drop saved, while they are kept. */
const saved = async () =>
  (
    await server.ctx.store.db
      .selectFrom('sync_state')
      .select('state')
      .where('source', '=', STATE_SOURCE)
      .executeTakeFirst()
  )?.state as Saved | undefined;

/** Replaces the saved definitions, as a damaged or mended state would be. */
const setSaved = (state: Saved) =>
  server.ctx.store.db
    .updateTable('sync_state')
    .set({ state: JSON.stringify(state) })
    .where('source', '=', STATE_SOURCE)
    .execute();

describe('deferred indexes', () => {
  it('drops the secondary indexes and builds each back with its definition', async () => {
    const before = await indexes();
    const deferred = server.ctx.repos.deferredIndexes;
    const dropped = await deferred.drop('companies');
    // The GIN indexes (trigram, technologies) and the btrees; the primary key and the unique
    // (country, org_number) stay for lookups during the load.
    expect(dropped).toBe(Object.keys(before).length - 2);
    expect(Object.keys(await indexes())).toHaveLength(2);
    expect(await deferred.restore('companies')).toBe(dropped);
    expect(await indexes()).toEqual(before);
    expect(await saved()).toBeUndefined();
  });

  it('builds every other index when one build fails, and keeps the definitions for the next start', async () => {
    const before = await indexes();
    const deferred = server.ctx.repos.deferredIndexes;
    const dropped = await deferred.drop('companies');
    const state = (await saved())!;
    // A definition the database refuses (no such column), first in line.
    const broken = {
      name: 'companies_broken',
      definition: 'CREATE INDEX companies_broken ON companies (no_such_column)',
    };
    await setSaved({ definitions: [broken, ...state.definitions] });

    await expect(deferred.restore('companies')).rejects.toThrow(/no_such_column/);
    expect(await indexes()).toEqual(before);
    expect((await saved())?.definitions).toHaveLength(dropped + 1);

    // Mended, as an operator would: the next start builds nothing twice and forgets the state.
    await setSaved(state);
    expect(await deferred.restoreAll()).toBe(0);
    expect(await saved()).toBeUndefined();
    expect(await indexes()).toEqual(before);
  });
});
