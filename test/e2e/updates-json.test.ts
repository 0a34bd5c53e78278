// GET /api/updates and GET /api/companies answer with JSON text the database writes for the most
// part (store/record-json.ts): each page must be byte for byte what the typed record serialises
// to under the CompanyRow schema. The typed reference is the search service's typed page
// (buildCompanyRecord with labels, latest two accounts, roles: what MCP and include=context use),
// serialised by Fastify's compiled serializer for the routes' page schema, in an app of its own.
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMPANY_SCHEMAS } from '../../src/contract/company.ts';
import { Page } from '../../src/contract/pagination.ts';
import type { AuthContext } from '../../src/services/access/key-auth.ts';
import type { SearchQuery } from '../../src/services/companies/search.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { byCompany, byPerson, removeRegisters, writeRegister } from '../fixtures/aksjonaer/build.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
let typed: FastifyInstance;
let nextTyped: unknown;
let caller: AuthContext;
/** A typed search page, serialised as the routes' page schema has it. */
let typedSearch: (q: SearchQuery) => Promise<string>;

beforeAll(async () => {
  server = await startServer();
  await loadGeneratedCompanies(server, 240, 31);
  const db = server.ctx.store.pool;
  const orgs = (await db.query<{ org_number: string }>('SELECT org_number FROM companies ORDER BY id LIMIT 3')).rows;
  const [a, b, c] = orgs.map((o) => o.org_number);
  // Owners of two companies: one with a majority owner, one without.
  await runJob(
    server.ctx,
    'shareholders',
    {
      file: writeRegister('aksjeeierbok_2024.csv', [
        byCompany(a, 'A AS', b, 'B AS', 700, 1000),
        byPerson(a, 'A AS', 'OLA NORDMANN', 1980, 300, 1000),
        byPerson(b, 'B AS', 'KARI NORDMANN', 1975, 40, 100),
        byCompany(b, 'B AS', c, 'C AS', 35, 100),
      ]),
    },
    () => undefined,
  );
  // What the generator leaves out: odd text, web profiles (technologies stored with an extra key,
  // another key order and 0.90), registry intervals, other countries, groups, shares as fractions.
  await db.query(`UPDATE companies SET name = E'A "quoted" \\\\ name\\u0001\\t æøå 😀 \\u2028 </script>',
      description = E'line\\nbreak' WHERE id % 11 = 0`);
  await db.query(`UPDATE companies SET primary_domain = 'example.no', enriched_domains = '{example.com,"x\\"y.no"}',
      linkedin_handle = 'acme', technology_names = '{Shopify}', has_ad_pixel = true,
      technologies = '[{"confidence":0.90,"category":"ecommerce","name":"Shopify","version":"2"},{"name":"GTM","category":"tags","confidence":1}]'
      WHERE id % 13 = 0`);
  await db.query(
    `UPDATE companies SET employee_count_range = CASE WHEN id % 2 = 0 THEN '5-9' ELSE '' END WHERE id % 7 = 0`,
  );
  await db.query(`UPDATE companies SET country = 'DK' WHERE id % 17 = 0`);
  await db.query(`UPDATE companies SET country = 'FI', business_address_muni_no = '398' WHERE id % 19 = 0`);
  await db.query(`UPDATE companies SET is_deleted = true, deleted_date = '2025-03-01' WHERE id % 23 = 0`);
  await db.query(`UPDATE companies c SET parent_org_number = p.org_number, parent_source = 'shareholders', is_in_group = true
      FROM companies p WHERE p.id = 1 AND c.id % 29 = 0 AND c.id <> 1`);
  await db.query(`UPDATE roles SET responsibility_share = CASE WHEN id % 3 = 0 THEN '1/3' WHEN id % 3 = 1 THEN ' 12,5 %' ELSE 'x' END
      WHERE id % 5 = 0`);
  key = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
  caller = (await server.services.keyAuth.authenticate(key))!;
  typed = Fastify();
  for (const schema of COMPANY_SCHEMAS) typed.addSchema(schema);
  typed.get('/page', { schema: { response: { 200: Page(Type.Ref('CompanyRow')) } } }, async () => nextTyped);
  await typed.ready();
  typedSearch = async (q) => {
    nextTyped = await server.services.search.search(caller, q);
    return (await typed.inject({ url: '/page' })).body;
  };
}, 180_000);
afterAll(async () => {
  await typed?.close();
  await server?.close();
  removeRegisters();
});

const companies = async () =>
  (await server.ctx.store.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM companies')).rows[0].n;

/** Raw body text of a GET with the suite's key. */
async function text(path: string): Promise<{ status: number; body: string; type: string | null }> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
}

/** The `data` array's text of a page body (what precedes `,"nextCursor":`), and the cursor. */
function split(body: string): { data: string; next: string | null; hasMore: boolean } {
  const at = body.lastIndexOf(',"nextCursor":');
  const tail = JSON.parse(`{${body.slice(at + 1)}`) as { nextCursor: string | null; hasMore: boolean };
  return { data: body.slice('{"data":'.length, at), next: tail.nextCursor, hasMore: tail.hasMore };
}

/** Every page of a list, following nextCursor. */
async function pages(path: string, limit: number): Promise<{ data: string; hasMore: boolean }[]> {
  const out: { data: string; hasMore: boolean }[] = [];
  let cursor: string | null = null;
  do {
    const r = await text(`${path}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/json; charset=utf-8');
    const page = split(r.body);
    out.push(page);
    cursor = page.next;
  } while (cursor && out.length < 300);
  return out;
}

/** Every page of the typed search, following nextCursor. */
async function typedPages(q: SearchQuery, limit: number): Promise<{ data: string; hasMore: boolean }[]> {
  const out: { data: string; hasMore: boolean }[] = [];
  let cursor: string | null = null;
  do {
    const page = split(await typedSearch({ ...q, limit, ...(cursor ? { cursor } : {}) }));
    out.push(page);
    cursor = page.next;
  } while (cursor && out.length < 300);
  return out;
}

it('serves each page byte for byte as the typed rows serialise, across every kind of row', async () => {
  const feed = await pages('/api/updates?since=2000-01-01', 50);
  const list = await pages('/api/companies?includeDeleted=true&sort=updatedAt&order=asc', 50);
  const typed = await typedPages({ includeDeleted: true, sort: 'updatedAt', order: 'asc' }, 50);
  expect(feed.length).toBeGreaterThan(4);
  expect(feed.map((p) => p.hasMore)).toEqual(typed.map((p) => p.hasMore));
  expect(list.map((p) => p.hasMore)).toEqual(typed.map((p) => p.hasMore));
  for (let i = 0; i < feed.length; i++) {
    expect(feed[i].data).toBe(typed[i].data);
    expect(list[i].data).toBe(typed[i].data);
  }

  // The comparison covered what the fast path writes in its own way.
  const all = feed.map((p) => p.data).join('');
  const rows = feed.flatMap((p) => JSON.parse(p.data) as Record<string, unknown>[]);
  expect(rows).toHaveLength(await companies());
  for (const needle of [
    '"employeeCountRange":"5-9"',
    '"majorityOwner":{"name":"B AS"',
    '"majorityOwner":null,"largestShareholder":{"name":"KARI NORDMANN"',
    '{"name":"Shopify","category":"ecommerce","confidence":0.9}',
    '"enrichedDomains":["example.com","x\\"y.no"]',
    '\\u0001\\t æøå 😀',
    '"ownershipPercent":33.33',
    '"ownershipPercent":12.5',
    '"isDeleted":true',
    '"groupHierarchy":"Aksjonærregisteret"',
  ]) {
    expect(all).toContain(needle);
  }
  expect(rows.some((r) => r.country === 'FI' && r.majorityOwner === null && r.countyCode === null)).toBe(true);
  expect(rows.some((r) => r.employeeCount !== undefined && !('employeeCountRange' in r))).toBe(true);
  const growth = rows.flatMap((r) => r.financials as { revenueGrowthYoY: number | null }[]);
  expect(growth.some((f) => f.revenueGrowthYoY !== null)).toBe(true);
});

it('serves filtered and sorted search pages byte for byte as the typed rows serialise', async () => {
  const queries: [string, SearchQuery][] = [
    ['q=as&sort=name', { q: 'as', sort: 'name' }],
    ['hasParent=false&sort=name&order=desc', { hasParent: false, sort: 'name', order: 'desc' }],
    ['sort=employeeCount&order=desc', { sort: 'employeeCount', order: 'desc' }],
    ['country=NO&sort=foundingDate', { country: 'NO', sort: 'foundingDate' }],
  ];
  // A key of its own: the list's cursor-depth guard (50 follows per key) counts both reads.
  key = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
  caller = (await server.services.keyAuth.authenticate(key))!;
  let pagesSeen = 0;
  for (const [query, q] of queries) {
    const list = await pages(`/api/companies?${query}`, 50);
    const typed = await typedPages(q, 50);
    pagesSeen += list.length;
    expect(
      list.map((p) => p.data),
      query,
    ).toEqual(typed.map((p) => p.data));
    expect(
      list.map((p) => p.hasMore),
      query,
    ).toEqual(typed.map((p) => p.hasMore));
  }
  // Several pages were compared, not only first ones.
  expect(pagesSeen).toBeGreaterThan(6);
});

it('pages of one row and of the tier cap agree with each other and start again from a cursor', async () => {
  const one = await pages('/api/updates?since=2000-01-01', 1);
  const hundred = await pages('/api/updates?since=2000-01-01', 100);
  expect(one).toHaveLength(await companies());
  expect(`[${one.map((p) => p.data.slice(1, -1)).join(',')}]`).toBe(
    `[${hundred.map((p) => p.data.slice(1, -1)).join(',')}]`,
  );
  expect(one.at(-1)!.hasMore).toBe(false);
});

it('answers an empty page when nothing changed since', async () => {
  const r = await text('/api/updates?since=2999-01-01');
  expect(r.status).toBe(200);
  expect(r.body).toBe('{"data":[],"nextCursor":null,"hasMore":false}');
});
