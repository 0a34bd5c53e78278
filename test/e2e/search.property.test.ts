// Property tests over the real search endpoint: paging never loses or repeats rows, and no
// mutation of a cursor gets anything but a 400.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cursorMutations } from '../helpers/cursor-mutations.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await loadGeneratedCompanies(server, 300, 5);
}, 180_000);
afterAll(() => server?.close());

const freshKey = async () => (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;

async function pages(query: string, limit: number, key: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 45; i++) {
    const r: { status: number; body: any } = await http(
      server.url,
      'GET',
      `/api/companies?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    out.push(...r.body.data.map((d: { orgNumber: string }) => d.orgNumber));
    if (!r.body.hasMore) return out;
    cursor = r.body.nextCursor;
  }
  throw new Error('too many pages');
}

const filterArb = fc.record(
  {
    orgForm: fc.constantFrom('AS', 'ENK', 'FLI', 'ANS'),
    county: fc.constantFrom('03', '11', '46', '50', '32'),
    minEmployees: fc.constantFrom(0, 1, 5, 20),
    q: fc.constantFrom('fj', 'bakeri', 'nord', 'øst', 'AS', 'e'),
    isBankrupt: fc.boolean(),
    nace: fc.constantFrom('01', '47', '56', '62', '68.2'),
  },
  { requiredKeys: [] },
);

describe('search properties', () => {
  it('pages concatenated equal the full ordered result, for random filters, sorts and page sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        filterArb,
        fc.constantFrom('name', 'employeeCount', 'foundingDate', 'updatedAt'),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 7, max: 40 }),
        async (filters, sort, order, limit) => {
          const query = new URLSearchParams({
            ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)])),
            sort,
            order,
          }).toString();
          const key = await freshKey();
          const whole = await pages(query, 100, key);
          const paged = await pages(query, limit, key);
          expect(paged).toEqual(whole);
          expect(new Set(whole).size).toBe(whole.length);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('answers every mutated cursor with 400 and a stable code, never 500', async () => {
    const key = await freshKey();
    const first = await http(server.url, 'GET', '/api/companies?orgForm=AS&limit=3', { key });
    const cursor: string = first.body.nextCursor;
    const other: string = (await http(server.url, 'GET', '/api/companies?orgForm=ENK&limit=3', { key })).body
      .nextCursor;
    const mutation = cursorMutations(
      cursor,
      other,
      fc.base64String({ minLength: 4, maxLength: 200 }),
      fc.constant(
        Buffer.from(JSON.stringify({ q: 'x', k: ['a', 1] })).toString('base64url') + '.' + cursor.split('.')[1],
      ),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async (bad) => {
        fc.pre(bad !== cursor && bad.length > 0);
        const r = await http(server.url, 'GET', `/api/companies?orgForm=AS&limit=3&cursor=${encodeURIComponent(bad)}`, {
          key,
        });
        expect(r.status).toBe(400);
        expect(['invalid_cursor', 'validation_failed', 'cursor_query_mismatch']).toContain(r.body.code);
      }),
      { numRuns: 150 },
    );
  });
});
