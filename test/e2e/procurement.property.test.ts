// Property tests over GET /api/procurement, in the style of search.property.test.ts: paging never
// loses or repeats notices for random filters, sorts and page sizes, and no mutation of a cursor
// gets anything but a 400.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { procurementDataset, writeDataset } from '../fakes/procurement/dataset.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cursorMutations } from '../helpers/cursor-mutations.ts';

const BUYERS = ['974760673', '971032081', '991324968'];
const WINNERS = ['982463718', '914782007', '935411718'];

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startServer({ overrides: { clock: new FakeClock(new Date('2026-11-20T12:00:00Z')) } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'ncd-procurement-prop-'));
  await writeDataset(dir, procurementDataset(150, BUYERS, WINNERS, new Date('2026-06-01T08:00:00Z')));
  await runJob(server.ctx, 'procurement', { file: dir }, () => undefined);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const freshKey = async () => (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;

async function pages(query: string, limit: number, key: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 45; i++) {
    const r: { status: number; body: any } = await http(
      server.url,
      'GET',
      `/api/procurement?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    out.push(...r.body.data.map((d: { noticeId: string }) => d.noticeId));
    if (!r.body.hasMore) return out;
    cursor = r.body.nextCursor;
  }
  throw new Error('too many pages');
}

const filterArb = fc.record(
  {
    status: fc.constantFrom('ACTIVE', 'CLOSED', 'AWARDED', 'CANCELLED'),
    cpv: fc.constantFrom('90', '909', '72', '45233162', '33'),
    orgNumber: fc.constantFrom(...BUYERS, ...WINNERS),
    country: fc.constantFrom('NO', 'SE'),
    q: fc.constantFrom('renhold', 'ØST', 'it-drift', 'nord', 'av'),
    deadlineAfter: fc.constantFrom('2026-09-01', '2026-11-20T12:00:00Z', '2027-01-01'),
    publishedAfter: fc.constantFrom('2026-07-01', '2026-09-15T00:00:00Z'),
  },
  { requiredKeys: [] },
);

describe('procurement list properties', () => {
  it('pages concatenated equal the full ordered result, for random filters, sorts and page sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        filterArb,
        fc.constantFrom('publishedAt', 'deadline', 'value'),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 3, max: 40 }),
        async (filters, sort, order, limit) => {
          const query = new URLSearchParams({ ...filters, sort, order }).toString();
          const key = await freshKey();
          const whole = await pages(query, 100, key);
          const paged = await pages(query, limit, key);
          expect(paged).toEqual(whole);
          expect(new Set(whole).size).toBe(whole.length);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('answers every mutated cursor with 400 and a stable code, never 500', async () => {
    const key = await freshKey();
    const first = await http(server.url, 'GET', '/api/procurement?status=CLOSED&limit=3', { key });
    const cursor: string = first.body.nextCursor;
    const other: string = (await http(server.url, 'GET', '/api/procurement?status=ACTIVE&limit=3', { key })).body
      .nextCursor;
    const mutation = cursorMutations(cursor, other);
    await fc.assert(
      fc.asyncProperty(mutation, async (bad) => {
        fc.pre(bad !== cursor && bad.length > 0);
        const r = await http(
          server.url,
          'GET',
          `/api/procurement?status=CLOSED&limit=3&cursor=${encodeURIComponent(bad)}`,
          { key },
        );
        expect(r.status).toBe(400);
        expect(['invalid_cursor', 'validation_failed', 'cursor_query_mismatch']).toContain(r.body.code);
      }),
      { numRuns: 120 },
    );
  });
});
