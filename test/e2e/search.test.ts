// GET /api/companies and GET /api/updates on a generated store loaded through the sync jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { http } from '../helpers/http.ts';
import { walkPages } from '../helpers/pages.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let internal: string;
let free: string;

interface Row {
  id: number;
  org_number: string;
  country: string;
  name_norm: string;
  nace_code1: string | null;
  org_form_code: string | null;
  business_address_muni_no: string | null;
  employee_count: number | null;
  latest_revenue: number | null;
  is_bankrupt: boolean;
  is_in_group: boolean;
  parent_org_number: string | null;
  technology_names: string[];
  has_ad_pixel: boolean;
  is_deleted: boolean;
}
let all: Row[];

beforeAll(async () => {
  server = await startServer();
  await loadGeneratedCompanies(server, 500, 11);
  const db = server.ctx.store.pool;
  // Web-profile and group data the generator does not produce.
  await db.query(`UPDATE companies SET technology_names = '{Shopify,Google Tag Manager}', has_ad_pixel = true,
      technologies = '[{"name":"Shopify","category":"ecommerce","confidence":0.9}]' WHERE id % 17 = 0`);
  await db.query(`UPDATE companies SET technology_names = '{WordPress}' WHERE id % 17 = 5`);
  await db.query(`UPDATE companies c SET parent_org_number = p.org_number, parent_source = 'shareholders', is_in_group = true
      FROM companies p WHERE p.id = 1 AND c.id % 23 = 0 AND c.id <> 1`);
  await db.query(`UPDATE companies SET is_in_group = true WHERE id = 1`);
  all = (await db.query<Row>('SELECT * FROM companies')).rows;
  internal = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
  free = (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw;
}, 180_000);
afterAll(() => server?.close());

const get = (path: string, key = internal) => http(server.url, 'GET', path, { key });
/** A key of its own for a test that follows many cursors (the depth guard counts per key). */
const freshKey = async () => (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;

/** Follows nextCursor to the end; returns the org numbers in order. */
async function walk(query: string, key?: string): Promise<string[]> {
  const rows = await walkPages<{ orgNumber: string }>(
    server.url,
    '/api/companies',
    `${query}&limit=100`,
    key ?? (await freshKey()),
    200,
  );
  return rows.map((d) => d.orgNumber);
}

const live = () => all.filter((r) => !r.is_deleted);
const numbers = (rows: Row[]) => rows.map((r) => r.org_number).sort();

describe('filters', () => {
  const pick = () => live().find((r) => r.nace_code1 && r.business_address_muni_no)!;
  it.each<[string, () => string, (r: Row) => boolean]>([
    ['q (substring, any case)', () => 'q=BAKERI', (r) => r.name_norm.includes('bakeri')],
    [
      'q with Nordic letters in another case',
      () => 'q=' + encodeURIComponent('SØLVI'),
      (r) => r.name_norm.includes('sølvi'),
    ],
    ['q of two characters (name prefix)', () => 'q=fj', (r) => r.name_norm.startsWith('fj')],
    [
      'nace division prefix',
      () => `nace=${pick().nace_code1!.slice(0, 2)}`,
      (r) => (r.nace_code1 ?? '').startsWith(pick().nace_code1!.slice(0, 2)),
    ],
    ['nace full code', () => `nace=${pick().nace_code1}`, (r) => r.nace_code1 === pick().nace_code1],
    ['orgForm', () => 'orgForm=ENK', (r) => r.org_form_code === 'ENK'],
    [
      'municipality',
      () => `municipality=${pick().business_address_muni_no}`,
      (r) => r.business_address_muni_no === pick().business_address_muni_no,
    ],
    ['county', () => 'county=03', (r) => (r.business_address_muni_no ?? '').startsWith('03')],
    [
      'employee bounds',
      () => 'minEmployees=10&maxEmployees=49',
      (r) => r.employee_count !== null && r.employee_count >= 10 && r.employee_count <= 49,
    ],
    [
      'revenue bounds',
      () => 'minRevenue=10000000&maxRevenue=50000000',
      (r) => r.latest_revenue !== null && r.latest_revenue >= 1e7 && r.latest_revenue <= 5e7,
    ],
    ['isBankrupt=true', () => 'isBankrupt=true', (r) => r.is_bankrupt],
    ['isBankrupt=false', () => 'isBankrupt=false', (r) => !r.is_bankrupt],
    ['isInGroup=true', () => 'isInGroup=true', (r) => r.is_in_group],
    ['hasParent=true', () => 'hasParent=true', (r) => r.parent_org_number !== null],
    ['hasParent=false', () => 'hasParent=false', (r) => r.parent_org_number === null],
    ['hasTechnology', () => 'hasTechnology=Shopify', (r) => r.technology_names.includes('Shopify')],
    ['hasAnyAdPixel=true', () => 'hasAnyAdPixel=true', (r) => r.has_ad_pixel],
    ['country', () => 'country=NO&orgForm=AS', (r) => r.country === 'NO' && r.org_form_code === 'AS'],
    [
      'combined',
      () => 'orgForm=AS&minEmployees=5&county=46',
      (r) =>
        r.org_form_code === 'AS' &&
        (r.employee_count ?? -1) >= 5 &&
        (r.business_address_muni_no ?? '').startsWith('46'),
    ],
  ])('%s returns exactly the matching companies', async (_name, query, predicate) => {
    const expected = numbers(live().filter(predicate));
    expect(expected.length).toBeGreaterThan(0);
    expect((await walk(query())).sort()).toEqual(expected);
  });

  it('leaves deleted companies out unless includeDeleted=true', async () => {
    const deleted = all.filter((r) => r.is_deleted).map((r) => r.org_number);
    await server.ctx.store.pool.query(`UPDATE companies SET is_deleted = true WHERE id IN (2, 3)`);
    try {
      const got = await walk('orgForm=AS&includeDeleted=true');
      const gone = (
        await server.ctx.store.pool.query(`SELECT org_number FROM companies WHERE id IN (2,3) AND org_form_code = 'AS'`)
      ).rows.map((r) => r.org_number);
      for (const n of gone) expect(got).toContain(n);
      const without = await walk('orgForm=AS');
      for (const n of [...gone, ...deleted]) expect(without).not.toContain(n);
    } finally {
      await server.ctx.store.pool.query(`UPDATE companies SET is_deleted = false WHERE id IN (2, 3)`);
    }
  });

  it.each([
    'nace=5',
    'nace=56.1234',
    'municipality=301',
    'county=3',
    'minEmployees=-1',
    'isBankrupt=maybe',
    'sort=revenue',
    'order=up',
    'limit=0',
    'limit=101',
    'country=US',
    'minEmployees=10&maxEmployees=5',
    'minRevenue=9&maxRevenue=1',
    'q=%20%20',
    'include=everything',
  ])('answers 400 with details for %s', async (query) => {
    const r = await get(`/api/companies?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.details.length).toBeGreaterThan(0);
  });
});

describe('sort and order', () => {
  const sortValue = (
    sort: string,
    r: { employeeCount: number | null; foundingDate: string | null; updatedAt: string; name: string },
  ) =>
    sort === 'employeeCount'
      ? (r.employeeCount ?? -1)
      : sort === 'foundingDate'
        ? (r.foundingDate ?? '0001-01-01')
        : sort === 'updatedAt'
          ? r.updatedAt
          : r.name;

  it.each(
    ['name', 'employeeCount', 'foundingDate', 'updatedAt'].flatMap((s) => [
      [s, 'asc'],
      [s, 'desc'],
    ]),
  )('sort=%s order=%s is ordered and pages add up to the whole', async (sort, order) => {
    const apiKey = await freshKey();
    const whole = await get(`/api/companies?orgForm=AS&sort=${sort}&order=${order}&limit=100`);
    expect(whole.status).toBe(200);
    const rows = whole.body.data;
    for (let i = 1; i < rows.length; i++) {
      const a = sortValue(sort, rows[i - 1]);
      const b = sortValue(sort, rows[i]);
      if (sort === 'name') continue; // collation-dependent: checked against the database below
      if (order === 'asc') expect(a <= b).toBe(true);
      else expect(a >= b).toBe(true);
    }
    if (sort === 'name') {
      const db = await server.ctx.store.pool.query(
        `SELECT org_number FROM companies WHERE org_form_code = 'AS' AND NOT is_deleted ORDER BY name_norm ${order}, id ${order} LIMIT 100`,
      );
      expect(rows.map((r: { orgNumber: string }) => r.orgNumber)).toEqual(db.rows.map((r) => r.org_number));
    }
    // the same order in pages of 7
    const paged: string[] = [];
    let cursor: string | null = null;
    while (paged.length < 100) {
      const r = await get(
        `/api/companies?orgForm=AS&sort=${sort}&order=${order}&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        apiKey,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      paged.push(...r.body.data.map((d: { orgNumber: string }) => d.orgNumber));
      if (!r.body.hasMore) break;
      cursor = r.body.nextCursor;
    }
    expect(paged.slice(0, rows.length)).toEqual(
      rows.map((r: { orgNumber: string }) => r.orgNumber).slice(0, paged.length),
    );
  });
});

describe('rows', () => {
  it('carry firmographics, at most two financials, active roles, labels and their own _sources', async () => {
    const r = await get('/api/companies?orgForm=AS&minEmployees=5&limit=10');
    expect(r.status).toBe(200);
    for (const row of r.body.data) {
      expect(row.financials.length).toBeLessThanOrEqual(2);
      expect(row.roles.length).toBeGreaterThan(0);
      expect(row.orgFormName).toBe('Aksjeselskap');
      expect(row.countryName).toBe('Norge');
      expect(row.naceName).toBeTruthy();
      expect(row._sources.fields.companyCore).toBe('Brønnøysundregistrene');
      expect(row._sources.attribution).toContain('SSB Klass');
      expect(row.subUnits).toBeUndefined(); // search rows are slim
    }
    const withAccounts = r.body.data.find((row: { financials: unknown[] }) => row.financials.length === 2);
    if (withAccounts) expect(withAccounts.financials[0].periodTo > withAccounts.financials[1].periodTo).toBe(true);
  });

  it('append aggregate context with include=context', async () => {
    const r = await get('/api/companies?county=03&limit=3&include=context');
    for (const row of r.body.data) {
      expect(row.context.municipality.companies).toBeGreaterThan(0);
      expect(row.context.industry.naceDivision).toBe(row.naceCode1.slice(0, 2));
    }
  });
});

describe('tiers', () => {
  it('free keys must give a filter; country, sort, limit do not count', async () => {
    for (const q of ['', 'country=NO', 'sort=name&order=desc&limit=5']) {
      const r = await get(`/api/companies?${q}`, free);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('search_filter_required');
    }
    expect((await get('/api/companies?orgForm=AS', free)).status).toBe(200);
    expect((await get('/api/companies')).status).toBe(200); // internal tier: no filter needed
  });

  it('caps limit at the tier page size silently', async () => {
    const r = await get('/api/companies?orgForm=AS&limit=100', free);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(20);
    expect(r.body.hasMore).toBe(true);
  });
});

describe('cursors', () => {
  it('refuse a tampered cursor and one used with other filters, with stable codes', async () => {
    const key = await freshKey();
    const get = (path: string) => http(server.url, 'GET', path, { key });
    const first = await get('/api/companies?orgForm=AS&limit=5');
    const cursor: string = first.body.nextCursor;
    const [body, sig] = cursor.split('.');
    const flipped = body.slice(0, -2) + (body.at(-2) === 'A' ? 'B' : 'A') + body.at(-1);
    for (const bad of [`${flipped}.${sig}`, `${body}.${sig.slice(1)}`, 'garbage', `${body}`, `${body}.${sig}.x`]) {
      const r = await get(`/api/companies?orgForm=AS&limit=5&cursor=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_cursor');
    }
    for (const other of [
      'orgForm=ENK',
      'orgForm=AS&sort=employeeCount',
      'orgForm=AS&order=desc',
      'orgForm=AS&county=03',
    ]) {
      const r = await get(`/api/companies?${other}&limit=5&cursor=${encodeURIComponent(cursor)}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('cursor_query_mismatch');
    }
    // another page size is the same query
    expect((await get(`/api/companies?orgForm=AS&limit=9&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  it('stay stable while companies are inserted: no duplicates, no skipped rows that existed throughout', async () => {
    const before = numbers(live().filter((r) => r.org_form_code === 'AS'));
    const key = await freshKey();
    const get = (path: string) => http(server.url, 'GET', path, { key });
    const seen: string[] = [];
    let cursor: string | null = null;
    let inserted = 0;
    for (let page = 0; page < 100; page++) {
      const r = await get(`/api/companies?orgForm=AS&limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...r.body.data.map((d: { orgNumber: string }) => d.orgNumber));
      if (page < 3) {
        // new AS companies whose names sort both before and after the current position
        for (const name of [`AAA NY ${page} AS`, `ÅÅÅ NY ${page} AS`, `MMM NY ${page} AS`]) {
          const n = 700000000 + page * 10 + inserted;
          await server.ctx.store.pool.query(
            `INSERT INTO companies (country, org_number, name, name_norm, org_form_code, content_hash) VALUES ('NO', $1, $2, lower($2), 'AS', 'x')`,
            [String(n), name],
          );
          inserted++;
        }
      }
      if (!r.body.hasMore) break;
      cursor = r.body.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const n of before) expect(seen).toContain(n);
  });

  it('allow 50 consecutive cursor follows per key in 5 minutes; the 51st gets 429 with Retry-After', async () => {
    const key = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
    let cursor: string = (await get('/api/companies?limit=1', key)).body.nextCursor;
    for (let i = 1; i <= 50; i++) {
      const r = await get(`/api/companies?limit=1&cursor=${encodeURIComponent(cursor)}`, key);
      expect(r.status, `follow ${i}`).toBe(200);
      cursor = r.body.nextCursor;
    }
    const r = await get(`/api/companies?limit=1&cursor=${encodeURIComponent(cursor)}`, key);
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('cursor_depth_exceeded');
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(300);
    // a first page is still served
    expect((await get('/api/companies?limit=1', key)).status).toBe(200);
  });
});

describe('GET /api/updates', () => {
  it.each(['', 'since=', 'since=yesterday', 'since=2026-13-01', 'since=2026-02-30', 'since=20260101'])(
    'answers 400 for %j',
    async (q) => {
      const r = await get(`/api/updates?${q}`);
      expect(r.status).toBe(400);
      expect(r.body.details[0].path).toMatch(/since/);
    },
  );

  it('walks every company changed since a time, oldest first, never repeating or skipping within ties', async () => {
    const key = await freshKey();
    const get = (path: string) => http(server.url, 'GET', path, { key });
    const db = server.ctx.store.pool;
    // 150 companies share one updated_at exactly
    await db.query(`UPDATE companies SET updated_at = '2030-01-01T00:00:00.123456Z' WHERE id % 3 = 0`);
    await db.query(`UPDATE companies SET updated_at = '2030-01-01T00:00:01Z' WHERE id % 3 = 1`);
    const expected = (
      await db.query(`SELECT org_number FROM companies WHERE updated_at >= '2030-01-01' ORDER BY updated_at, id`)
    ).rows.map((r) => r.org_number);
    expect(expected.length).toBeGreaterThan(300);
    const seen: string[] = [];
    let cursor: string | null = null;
    let last = '';
    for (let i = 0; i < 100; i++) {
      const r = await get(
        `/api/updates?since=2030-01-01&limit=17${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(r.status).toBe(200);
      for (const row of r.body.data) {
        expect(row.updatedAt >= last).toBe(true);
        last = row.updatedAt;
      }
      seen.push(...r.body.data.map((d: { orgNumber: string }) => d.orgNumber));
      if (!r.body.hasMore) break;
      cursor = r.body.nextCursor;
    }
    expect(seen).toEqual(expected);
  });

  it('accepts dates and timestamps; since is inclusive and carries deleted companies', async () => {
    const db = server.ctx.store.pool;
    await db.query(
      `UPDATE companies SET updated_at = '2031-05-05T10:00:00.000Z', is_deleted = (id = 4) WHERE id IN (4, 5)`,
    );
    for (const since of [
      '2031-05-05T10:00:00Z',
      '2031-05-05T10:00:00.000Z',
      '2031-05-05T12:00:00+02:00',
      '2031-05-05T10:00:00',
      '2031-05-05',
    ]) {
      const r = await get(`/api/updates?since=${encodeURIComponent(since)}`);
      expect(r.status).toBe(200);
      expect(r.body.data.map((d: { id: string }) => d.id)).toEqual(['4', '5']);
    }
    const r = await get('/api/updates?since=2031-05-05');
    expect(r.body.data[0]).toMatchObject({ isDeleted: true, updatedAt: '2031-05-05T10:00:00.000Z', country: 'NO' });
    expect((await get('/api/updates?since=2031-05-05T10:00:00.001Z')).body.data).toEqual([]);
  });
});
