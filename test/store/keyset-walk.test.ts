// A keyset page with a walk (engine/keyset.ts KeysetWalk) is the page the plain query returns:
// when the walk finds a full page within its bound, and when it falls back because it does not.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysetPage, type KeysetPosition, type SortOrder } from '../../src/store/engine/keyset.ts';
import { SORTS } from '../../src/store/company-search.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await loadGeneratedCompanies(server, 400, 7);
}, 180_000);
afterAll(() => server?.close());

interface Row {
  id: number;
  name: string;
}

/** Every id of the filter's result, page by page (walked or not). */
async function drain(substring: string, order: SortOrder, limit: number, walkRows?: number): Promise<number[]> {
  const filter = sql<boolean>`c.name_norm LIKE ${'%' + substring + '%'}`;
  const live = [sql<boolean>`NOT c.is_deleted`];
  const ids: number[] = [];
  let after: KeysetPosition | undefined;
  for (let pages = 0; pages < 500; pages++) {
    const page = await keysetPage<Row>(server.ctx.store.db, {
      from: 'companies c',
      alias: 'c',
      where: walkRows === undefined ? [...live, filter] : live,
      walk: walkRows === undefined ? undefined : { columns: 'c.name_norm', filter, rows: walkRows },
      sort: SORTS.name,
      order,
      limit,
      after,
    });
    ids.push(...page.rows.map((r) => Number(r.id)));
    if (page.rows.length < limit) return ids;
    after = page.positions.at(-1);
  }
  throw new Error('too many pages');
}

describe('keyset walk', () => {
  it('returns the plain query pages, in both orders, with walks shorter and longer than the matches', async () => {
    const common = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM companies WHERE name_norm LIKE '%as%'`.execute(
        server.ctx.store.db,
      )
    ).rows[0].n;
    // A substring most names hold and one few do: the walk finds its pages, or falls back.
    expect(common).toBeGreaterThan(100);
    for (const substring of ['as', 'bakeri', 'zzqx']) {
      for (const order of ['asc', 'desc'] as const) {
        const plain = await drain(substring, order, 7);
        for (const walkRows of [3, 20, 10_000]) {
          expect(await drain(substring, order, 7, walkRows)).toEqual(plain);
        }
      }
    }
    expect(await drain('zzqx', 'asc', 7)).toEqual([]);
  });
});
