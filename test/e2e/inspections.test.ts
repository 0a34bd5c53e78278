// GET /api/inspections on inspections loaded through `ncd sync inspections`: every filter, every
// sort in both orders, every 400, cursors (follow-through, tampering, depth limit), tier cap.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { generateInspectionsCsv } from '../../src/sources/mattilsynet/generate.ts';
import { http } from '../helpers/http.ts';
import { walkPages } from '../helpers/pages.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const FIXTURE = new URL('../fixtures/mattilsynet/smilefjes-tilsyn-header-and-illustrative-row.csv', import.meta.url)
  .pathname;

interface Row {
  id: number;
  org_number: string | null;
  name: string;
  postnr: string | null;
  total_rating: number;
  date: string;
}

let server: TestServer;
let internal: string;
let all: Row[];

beforeAll(async () => {
  server = await startServer();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'inspections-e2e-'));
  try {
    // Mixed-case names (upstream has both) so the name sort is seen to ignore case.
    const venues = Array.from({ length: 200 }, (_, i) => ({
      orgNumber: i % 9 === 8 ? null : orgNumberFor(i % 150),
      name: i % 2 ? `KAFÉ ${i} AS` : `bistro ${i}`,
    }));
    const csv = await text(generateInspectionsCsv({ venues, seed: 3, maxInspectionsPerVenue: 4 }));
    const file = path.join(dir, 'tilsyn.csv');
    await writeFile(file, csv);
    await runJob(server.ctx, 'inspections', { file }, () => undefined);
    // The real sample row too (not a full replacement: the guard keeps the generated rows).
    await runJob(server.ctx, 'inspections', { file: FIXTURE }, () => undefined);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  all = (
    await server.ctx.store.pool.query<Row>(
      `SELECT id::int AS id, org_number, name, postnr, total_rating, to_char(date, 'YYYY-MM-DD') AS date FROM inspections`,
    )
  ).rows;
  internal = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
}, 180_000);
afterAll(() => server?.close());

const get = (p: string, key = internal) => http(server.url, 'GET', p, { key });
const freshKey = async () => (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;

/** Follows nextCursor to the end with a key of its own; returns the rows in order. */
const walk = async (query: string, limit = 100) =>
  walkPages(server.url, '/api/inspections', `${query}&limit=${limit}`, await freshKey());
const ids = (rows: { id: string | number }[]) => rows.map((r) => String(r.id)).sort();

describe('filters', () => {
  const busyOrg = () => {
    const counts = new Map<string, number>();
    for (const r of all) if (r.org_number) counts.set(r.org_number, (counts.get(r.org_number) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0][0];
  };
  const somePostnr = () => all.find((r) => r.postnr)!.postnr!;
  const midDate = () => all.map((r) => r.date).sort()[Math.floor(all.length / 2)];

  it.each<[string, () => string, (r: Row) => boolean]>([
    ['orgNumber', () => `orgNumber=${busyOrg()}`, (r) => r.org_number === busyOrg()],
    ['minRating', () => 'minRating=2', (r) => r.total_rating >= 2],
    ['maxRating', () => 'maxRating=0', (r) => r.total_rating === 0],
    [
      'minRating and maxRating (inclusive)',
      () => 'minRating=1&maxRating=2',
      (r) => r.total_rating >= 1 && r.total_rating <= 2,
    ],
    ['minRating = maxRating', () => 'minRating=3&maxRating=3', (r) => r.total_rating === 3],
    ['postnr', () => `postnr=${somePostnr()}`, (r) => r.postnr === somePostnr()],
    ['fromDate (on or after)', () => `fromDate=${midDate()}`, (r) => r.date >= midDate()],
    ['toDate (on or before)', () => `toDate=${midDate()}`, (r) => r.date <= midDate()],
    [
      'fromDate = toDate (one day, inclusive)',
      () => `fromDate=${midDate()}&toDate=${midDate()}`,
      (r) => r.date === midDate(),
    ],
    [
      'combined',
      () => `minRating=1&fromDate=2023-01-01&toDate=2023-12-31`,
      (r) => r.total_rating >= 1 && r.date.startsWith('2023'),
    ],
  ])('%s returns exactly the matching inspections', async (_name, query, predicate) => {
    const expected = all.filter(predicate);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await walk(query()))).toEqual(ids(expected));
  });

  it('without filters returns every inspection', async () => {
    expect(ids(await walk('sort=date'))).toEqual(ids(all));
  });

  it.each([
    'minRating=-1',
    'minRating=4',
    'maxRating=4',
    'maxRating=1.5',
    'minRating=x',
    'minRating=3&maxRating=1',
    'postnr=123',
    'postnr=12345',
    'postnr=abcd',
    'fromDate=2024-13-01',
    'fromDate=2024-02-30',
    'toDate=yesterday',
    'toDate=20240101',
    'fromDate=2024-05-02&toDate=2024-05-01',
    'orgNumber=12345678',
    'sort=rating',
    'order=up',
    'limit=0',
    'limit=101',
  ])('answers 400 with details for %s', async (query) => {
    const r = await get(`/api/inspections?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.details.length).toBeGreaterThan(0);
    expect(r.body.details[0].path).toMatch(/^query/);
  });

  it('needs a key', async () => {
    expect((await http(server.url, 'GET', '/api/inspections')).status).toBe(401);
  });
});

describe('sort and order', () => {
  const SQL: Record<string, string> = { date: 'date', totalRating: 'total_rating', name: 'lower(name)' };

  it.each(
    ['date', 'totalRating', 'name'].flatMap((s) => [
      [s, 'asc'],
      [s, 'desc'],
    ]),
  )('sort=%s order=%s matches the database order, in pages that add up to the whole', async (sort, order) => {
    const expected = (
      await server.ctx.store.pool.query(
        `SELECT id::text AS key FROM inspections ORDER BY ${SQL[sort]} ${order}, id ${order}`,
      )
    ).rows.map((r) => r.key);
    const whole = await walk(`sort=${sort}&order=${order}`);
    expect(whole.map((r) => r.id)).toEqual(expected);
    const paged = await walk(`sort=${sort}&order=${order}`, 17); // under 50 follows, the depth limit
    expect(paged.map((r) => r.id)).toEqual(expected);
  });

  it('defaults to date, newest first', async () => {
    const r = await get('/api/inspections?limit=50');
    const dates = r.body.data.map((d: { date: string }) => d.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual(
      (await walk('sort=date&order=desc')).slice(0, 50).map((d) => d.id),
    );
  });
});

describe('rows', () => {
  it('carry the visit, its office, municipality and the upstream id', async () => {
    const r = await get('/api/inspections?orgNumber=999999999');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      {
        id: expect.any(String),
        orgNumber: '999999999',
        name: 'ILLUSTRATIVE RESTAURANT AS',
        postnr: '0162',
        totalRating: 1,
        date: '2024-06-25T00:00:00.000Z',
        office: 'Region Stor-Oslo',
        municipality: 'Oslo',
        municipalityNo: '0301',
        upstreamId: 'Z2406251324396200239ZDBTB_TilsynAvtale',
        venueId: 'Z1703151057439673252OPMTI',
        address: 'Karl Johans gate 37',
        poststed: 'OSLO',
        inspectionType: 'ordinary',
        themes: [
          {
            number: 1,
            nameNo: 'Rutiner og ledelse',
            nameNn: 'Rutiner og ledelse',
            grade: 0,
            applicable: true,
            assessed: true,
          },
          {
            number: 2,
            nameNo: 'Lokaler og utstyr',
            nameNn: 'Lokaler og utstyr',
            grade: 1,
            applicable: true,
            assessed: true,
          },
          {
            number: 3,
            nameNo: 'Mathåndtering og tilberedning',
            nameNn: 'Mathåndtering og tilberedning',
            grade: 0,
            applicable: true,
            assessed: true,
          },
          {
            number: 4,
            nameNo: 'Merking og sporbarhet',
            nameNn: 'Merking og sporbarhet',
            grade: 4,
            applicable: false,
            assessed: false,
          },
        ],
      },
    ]);
    expect(r.body).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('have an office and municipality wherever the postal code is known', async () => {
    for (const row of (await get('/api/inspections?limit=100')).body.data) {
      expect(row.municipalityNo).toMatch(/^\d{4}$/);
      expect(row.municipality).toBeTruthy();
      expect(row.office).toMatch(/^Region /);
    }
  });
});

describe('limits and cursors', () => {
  it('caps limit at the tier page size silently', async () => {
    const free = (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw;
    const r = await get('/api/inspections?limit=100', free);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(20);
    expect(r.body.hasMore).toBe(true);
    expect((await get('/api/inspections')).body.data).toHaveLength(20); // default
  });

  it('refuse a tampered cursor and one used with other filters', async () => {
    const key = await freshKey();
    const first = await get('/api/inspections?minRating=1&limit=5', key);
    const cursor: string = first.body.nextCursor;
    const [body, sig] = cursor.split('.');
    const flipped = body.slice(0, -2) + (body.at(-2) === 'A' ? 'B' : 'A') + body.at(-1);
    for (const bad of [`${flipped}.${sig}`, `${body}.${sig.slice(1)}`, 'garbage']) {
      const r = await get(`/api/inspections?minRating=1&limit=5&cursor=${encodeURIComponent(bad)}`, key);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_cursor');
    }
    for (const other of ['minRating=2', 'minRating=1&sort=name', 'minRating=1&order=asc', 'minRating=1&postnr=0150']) {
      const r = await get(`/api/inspections?${other}&limit=5&cursor=${encodeURIComponent(cursor)}`, key);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('cursor_query_mismatch');
    }
  });

  it('allow 50 consecutive cursor follows per key in 5 minutes; the 51st gets 429 with Retry-After', async () => {
    const key = await freshKey();
    let cursor: string = (await get('/api/inspections?limit=1', key)).body.nextCursor;
    for (let i = 1; i <= 50; i++) {
      const r = await get(`/api/inspections?limit=1&cursor=${encodeURIComponent(cursor)}`, key);
      expect(r.status, `follow ${i}`).toBe(200);
      cursor = r.body.nextCursor;
    }
    const r = await get(`/api/inspections?limit=1&cursor=${encodeURIComponent(cursor)}`, key);
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('cursor_depth_exceeded');
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(300);
    expect((await get('/api/inspections?limit=1', key)).status).toBe(200); // a first page still is
  });
});
