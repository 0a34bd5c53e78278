// GET /api/licenses on licences loaded through `ncd sync licenses`: every filter (activeOnly on an
// injected clock), every sort in both orders, every 400, cursors (follow-through, tampering,
// depth limit), the tier cap, and one row shape shared with the licenses[] of company records.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { generateLicensesCsv } from '../../src/sources/tbr/generate.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { walkPages } from '../helpers/pages.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const NOW = '2026-03-01T00:00:00.000Z';
const clock = new FakeClock(new Date(NOW));

interface Row {
  id: number;
  org_number: string | null;
  register_type: string;
  license_type_code: string;
  municipality_no: string | null;
  valid_to: Date | null;
}

let server: TestServer;
let internal: string;
let all: Row[];
let holders: string[];

// Edge rows: open-ended, no start, ending exactly now (not active), 1 ms after now (active),
// and no venue or municipality (sorted as '').
const EDGE = [
  'licenseNumber;registerType;licenseTypeCode;orgNumber;venueName;municipality;municipalityNo;validFrom;validTo',
  'E-1;Alkoholsbevilling;01SKJE;;Åpen Bar;Oslo;0301;2020-01-01;',
  'E-2;Tobakksbevilling;19TBEK;;Kiosk uten start;Bergen;4601;;2030-01-01',
  `E-3;Alkoholsbevilling;01SKJE;;Slutter nå;Bodø;1804;2022-01-01;${NOW}`,
  'E-4;Alkoholsbevilling;01SKJE;;Slutter straks;Bodø;1804;2022-01-01;2026-03-01T00:00:00.001Z',
  'E-5;Alkoholsbevilling;11ENGR;;;;;2021-06-01;2031-06-01',
  '',
].join('\n');

beforeAll(async () => {
  server = await startServer({ overrides: { clock } });
  await loadGeneratedCompanies(server, 120, 21);
  holders = (
    await server.ctx.store.pool.query<{ org_number: string; name: string }>(
      `SELECT org_number, name FROM companies ORDER BY org_number`,
    )
  ).rows.map((r) => r.org_number);
  const companies = (
    await server.ctx.store.pool.query<{ org_number: string; name: string }>(
      `SELECT org_number, name FROM companies ORDER BY org_number`,
    )
  ).rows;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'licenses-e2e-'));
  try {
    const generated = path.join(dir, 'licenses.csv');
    await writeFile(
      generated,
      await text(
        generateLicensesCsv({
          companies: companies.map((c) => ({ orgNumber: c.org_number, name: c.name })),
          seed: 9,
          maxLicensesPerCompany: 4,
          toYear: 2026,
        }),
      ),
    );
    await runJob(server.ctx, 'licenses', { file: generated }, () => undefined);
    const edge = path.join(dir, 'edge.csv');
    await writeFile(edge, EDGE);
    await runJob(server.ctx, 'licenses', { file: edge }, () => undefined); // the guard keeps the rest
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  all = (
    await server.ctx.store.pool.query<Row>(
      'SELECT id::int AS id, org_number, register_type, license_type_code, municipality_no, valid_to FROM licenses',
    )
  ).rows;
  internal = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
}, 240_000);
afterAll(() => server?.close());

const get = (p: string, key = internal) => http(server.url, 'GET', p, { key });
const freshKey = async () => (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;

/** Follows nextCursor to the end with a key of its own; returns the rows in order. */
const walk = async (query: string, limit = 100) =>
  walkPages(server.url, '/api/licenses', `${query}&limit=${limit}`, await freshKey());
const ids = (rows: { id: string | number }[]) => rows.map((r) => String(r.id)).sort();
const activeAt = (at: Date) => (r: Row) => r.valid_to === null || new Date(r.valid_to).getTime() > at.getTime();

describe('filters', () => {
  const busyHolder = () => {
    const counts = new Map<string, number>();
    for (const r of all) if (r.org_number) counts.set(r.org_number, (counts.get(r.org_number) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0][0];
  };

  it.each<[string, () => string, (r: Row) => boolean]>([
    ['orgNumber', () => `orgNumber=${busyHolder()}`, (r) => r.org_number === busyHolder()],
    [
      'registerType=Alkoholsbevilling',
      () => 'registerType=Alkoholsbevilling',
      (r) => r.register_type === 'Alkoholsbevilling',
    ],
    [
      'registerType=Tobakksbevilling',
      () => 'registerType=Tobakksbevilling',
      (r) => r.register_type === 'Tobakksbevilling',
    ],
    ['licenseTypeCode', () => 'licenseTypeCode=11ENGR', (r) => r.license_type_code === '11ENGR'],
    ['municipalityNo', () => 'municipalityNo=0301', (r) => r.municipality_no === '0301'],
    ['activeOnly=true', () => 'activeOnly=true', activeAt(new Date(NOW))],
    ['activeOnly=false (everything)', () => 'activeOnly=false', () => true],
    [
      'combined',
      () => 'registerType=Alkoholsbevilling&licenseTypeCode=01SKJE&activeOnly=true',
      (r) => r.license_type_code === '01SKJE' && activeAt(new Date(NOW))(r),
    ],
  ])('%s returns exactly the matching licences', async (_name, query, predicate) => {
    const expected = all.filter(predicate);
    expect(expected.length).toBeGreaterThan(0);
    if (query() !== 'activeOnly=false') expect(expected.length).toBeLessThan(all.length);
    expect(ids(await walk(query()))).toEqual(ids(expected));
  });

  it('activeOnly follows the injected clock: validTo must be after now, no validTo is open-ended', async () => {
    try {
      const names = async () => (await walk('activeOnly=true&municipalityNo=1804')).map((r) => r.venueName);
      expect(await names()).toContain('Slutter straks');
      expect(await names()).not.toContain('Slutter nå'); // validTo = now is not in the future
      clock.set('2026-03-01T00:00:00.001Z');
      expect(await names()).not.toContain('Slutter straks');
      for (const at of ['2019-06-01T00:00:00Z', '2028-01-01T00:00:00Z', '2040-01-01T00:00:00Z']) {
        clock.set(at);
        const expected = all.filter(activeAt(new Date(at)));
        expect(ids(await walk('activeOnly=true'))).toEqual(ids(expected));
      }
      expect((await walk('activeOnly=true')).map((r) => r.venueName)).toContain('Åpen Bar'); // open-ended, even in 2040
    } finally {
      clock.set(NOW);
    }
  });

  it.each([
    'registerType=Skjenkebevilling',
    'registerType=alkoholsbevilling',
    'municipalityNo=301',
    'municipalityNo=03011',
    'licenseTypeCode=01-SKJE',
    'licenseTypeCode=',
    'activeOnly=maybe',
    'orgNumber=12345',
    'sort=name',
    'order=up',
    'limit=0',
    'limit=101',
  ])('answers 400 with details for %s', async (query) => {
    const r = await get(`/api/licenses?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.details[0].path).toMatch(/^query/);
  });

  it('needs a key', async () => {
    expect((await http(server.url, 'GET', '/api/licenses')).status).toBe(401);
  });
});

describe('sort and order', () => {
  const SQL: Record<string, string> = {
    validFrom: "COALESCE(valid_from, '-infinity')",
    validTo: "COALESCE(valid_to, 'infinity')",
    venueName: "lower(COALESCE(venue_name, ''))",
    municipality: "COALESCE(municipality, '')",
  };

  it.each(
    ['validFrom', 'validTo', 'venueName', 'municipality'].flatMap((s) => [
      [s, 'asc'],
      [s, 'desc'],
    ]),
  )('sort=%s order=%s matches the database order, in pages that add up to the whole', async (sort, order) => {
    const expected = (
      await server.ctx.store.pool.query(
        `SELECT id::text AS key FROM licenses ORDER BY ${SQL[sort]} ${order}, id ${order}`,
      )
    ).rows.map((r) => r.key);
    const whole = await walk(`sort=${sort}&order=${order}`);
    expect(whole.map((r) => r.id)).toEqual(expected);
    const paged = await walk(`sort=${sort}&order=${order}`, Math.ceil(expected.length / 30));
    expect(paged.map((r) => r.id)).toEqual(expected);
  });

  it('defaults to validFrom, newest first; a licence without validFrom comes last, open-ended ones last by validTo', async () => {
    const rows = await walk('');
    expect(rows.at(-1)!.venueName).toBe('Kiosk uten start');
    const starts = rows.slice(0, -1).map((r) => r.validFrom as string);
    expect(starts).toEqual([...starts].sort().reverse());
    const byEnd = await walk('sort=validTo&order=asc');
    expect(byEnd.at(-1)!.validTo).toBeNull();
  });
});

describe('rows', () => {
  it('carry the licence type description, municipality number and issuing authority', async () => {
    const r = await get('/api/licenses?licenseTypeCode=01SKJE&municipalityNo=0301&limit=100');
    expect(r.status).toBe(200);
    const generated = r.body.data.find((d: { licenseNumber: string }) => !d.licenseNumber.startsWith('E-'));
    expect(generated).toMatchObject({
      id: expect.any(String),
      licenseNumber: expect.any(String),
      orgNumber: expect.stringMatching(/^\d{9}$/),
      venueName: expect.any(String),
      registerType: 'Alkoholsbevilling',
      licenseTypeCode: '01SKJE',
      licenseTypeDescription: 'Skjenkebevilling',
      municipality: 'Oslo',
      municipalityNo: '0301',
      issuingAuthority: 'Oslo kommune',
      productGroups: expect.arrayContaining(['GRP1']),
      validFrom: expect.stringMatching(/^\d{4}-\d{2}-01T00:00:00\.000Z$/),
      validTo: expect.stringMatching(/^\d{4}-09-30T00:00:00\.000Z$/),
    });
  });

  it('have the shape of licenses[] on company records', async () => {
    const holder = holders.find((n) => all.some((r) => r.org_number === n))!;
    const listed = await walk(`orgNumber=${holder}`);
    const company = await get(`/api/companies/${holder}`);
    expect(company.status).toBe(200);
    expect(ids(company.body.licenses)).toEqual(ids(listed));
    for (const l of listed) expect(company.body.licenses.find((c: { id: string }) => c.id === l.id)).toEqual(l);
  });
});

describe('limits and cursors', () => {
  it('caps limit at the tier page size silently', async () => {
    const free = (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw;
    const r = await get('/api/licenses?limit=100', free);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(20);
    expect(r.body.hasMore).toBe(true);
    expect((await get('/api/licenses')).body.data).toHaveLength(20);
  });

  it('refuse a tampered cursor and one used with other filters', async () => {
    const key = await freshKey();
    const first = await get('/api/licenses?registerType=Alkoholsbevilling&limit=5', key);
    const cursor: string = first.body.nextCursor;
    const [body, sig] = cursor.split('.');
    const flipped = body.slice(0, -2) + (body.at(-2) === 'A' ? 'B' : 'A') + body.at(-1);
    for (const bad of [`${flipped}.${sig}`, `${body}.${sig.slice(1)}`, 'garbage']) {
      const r = await get(
        `/api/licenses?registerType=Alkoholsbevilling&limit=5&cursor=${encodeURIComponent(bad)}`,
        key,
      );
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_cursor');
    }
    for (const other of [
      'registerType=Tobakksbevilling',
      'registerType=Alkoholsbevilling&activeOnly=true',
      'registerType=Alkoholsbevilling&sort=validTo',
      'registerType=Alkoholsbevilling&order=asc',
    ]) {
      const r = await get(`/api/licenses?${other}&limit=5&cursor=${encodeURIComponent(cursor)}`, key);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('cursor_query_mismatch');
    }
    // a company-search cursor is no licences cursor
    const companies = await get('/api/companies?limit=1', key);
    const r = await get(`/api/licenses?cursor=${encodeURIComponent(companies.body.nextCursor)}`, key);
    expect(r.body.code).toBe('cursor_query_mismatch');
  });

  it('allow 50 consecutive cursor follows per key in 5 minutes; the 51st gets 429 with Retry-After', async () => {
    const key = await freshKey();
    let cursor: string = (await get('/api/licenses?limit=1', key)).body.nextCursor;
    for (let i = 1; i <= 50; i++) {
      const r = await get(`/api/licenses?limit=1&cursor=${encodeURIComponent(cursor)}`, key);
      expect(r.status, `follow ${i}`).toBe(200);
      cursor = r.body.nextCursor;
    }
    const r = await get(`/api/licenses?limit=1&cursor=${encodeURIComponent(cursor)}`, key);
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('cursor_depth_exceeded');
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(300);
    expect((await get('/api/licenses?limit=1', key)).status).toBe(200);
  });
});
