// The OpenRefine reconciliation service, driven as OpenRefine drives it: the key's service URL,
// the manifest, a `queries=` batch (form-encoded POST), preview, suggest, property proposals and
// an `extend=` query. Every answer validates against the W3C Reconciliation API v0.2 JSON schemas
// (test/fixtures/reconciliation/, see its README). The path token stands for the key, is refused
// when forged, and never reaches the log.
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { createLogger } from '../../src/logger.ts';
import { startFakePrh, type FakePrh } from '../fakes/prh/server.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const schemaFile = (f: string) => JSON.parse(fixture(`reconciliation/${f}`));
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
addFormats(ajv);
// Stand-in for Swagger 2.0's security scheme, which manifest.json refers to (see the README).
ajv.addSchema({
  $id: 'http://swagger.io/v2/schema.json',
  definitions: { securityDefinitions: { additionalProperties: {} } },
});
ajv.addSchema(schemaFile('type.json'));
const schemas: Record<string, ValidateFunction> = Object.fromEntries(
  [
    'manifest',
    'reconciliation-query-batch',
    'reconciliation-result-batch',
    'suggest-entities-response',
    'suggest-properties-response',
    'data-extension-query',
    'data-extension-response',
  ].map((n) => [n, ajv.compile(schemaFile(`${n}.json`))]),
);
function expectValid(schema: string, data: unknown) {
  const ok = schemas[schema](data);
  expect(ok ? [] : schemas[schema].errors, schema).toEqual([]);
}

const WOLT = '2646674-9';
const logLines: string[] = [];
let server: TestServer;
let prh: FakePrh;
let key: string;
let serviceUrl: string;
let companies: { name: string; org_number: string; city: string; employee_count: number | null }[];

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
async function post(url: string, fields: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form(fields),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const get = async (url: string) => {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) };
};

beforeAll(async () => {
  prh = await startFakePrh();
  prh.companies = [JSON.parse(fixture('prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json')).companies[0]];
  server = await startServer({
    env: { PRH_BASE_URL: prh.baseUrl },
    overrides: {
      logger: createLogger('info', new Writable({ write: (c, _e, d) => (logLines.push(String(c)), d()) })),
    },
  });
  key = (await createKey(server, { tier: 'internal' })).raw;
  await runJob(server.ctx, 'prh', {}, () => undefined);
  await loadGeneratedCompanies(server, 200, 29);
  companies = (
    await server.ctx.store.pool.query(
      `SELECT min(name) AS name, min(org_number) AS org_number, min(business_address_city) AS city,
              min(employee_count) AS employee_count
       FROM companies WHERE country = 'NO' AND NOT is_deleted AND business_address_city IS NOT NULL
       GROUP BY name_norm HAVING count(*) = 1 ORDER BY 2 LIMIT 5`,
    )
  ).rows;
  const r = await http(server.url, 'GET', '/api/keys/reconcile-url', { key });
  expect(r.status).toBe(200);
  serviceUrl = r.body.serviceUrl;
}, 300_000);
afterAll(async () => {
  await server?.close();
  await prh?.close();
});

describe('reconciliation service (W3C Reconciliation API v0.2)', () => {
  it('gives each key a service URL whose manifest validates', async () => {
    expect(serviceUrl).toMatch(new RegExp(`^${server.url}/api/reconcile/rcn_[0-9A-Za-z]{8}[0-9a-f]{32}$`));
    expect(serviceUrl).not.toContain(key);
    const r = await get(serviceUrl);
    expect(r.status).toBe(200);
    const manifest = r.json();
    expectValid('manifest', manifest);
    expect(manifest.versions).toContain('0.2');
    expect(manifest.defaultTypes.map((t: { id: string }) => t.id)).toEqual(['NO', 'SE', 'FI', 'DK']);
    expect(manifest.preview.url).toBe(`${serviceUrl}/preview?id={{id}}`);
    expect(manifest.extend.propose_properties).toEqual({ service_url: serviceUrl, service_path: '/extend/propose' });
  });

  it('answers a batch of queries with types and properties, as OpenRefine sends it', async () => {
    const [a, b] = companies;
    const queries = {
      q0: { query: a.name, type: 'NO', type_strict: 'should', limit: 3 },
      q1: { query: b.name.replace(/ AS$/, ''), type: 'NO', properties: [{ pid: 'city', v: b.city }] },
      q2: { query: 'Wolt Enterprises', type: 'FI', properties: [{ pid: 'municipality', v: 'Helsinki' }] },
      q3: { query: 'Zyxwv Nonexistent Holding', type: 'NO' },
    };
    expectValid('reconciliation-query-batch', queries);
    const r = await post(serviceUrl, { queries: JSON.stringify(queries) });
    expect(r.status).toBe(200);
    expectValid('reconciliation-result-batch', r.body);
    expect(r.body.q0.result.length).toBeLessThanOrEqual(3);
    expect(r.body.q0.result[0]).toMatchObject({ id: `NO:${a.org_number}`, name: a.name, match: true });
    expect(r.body.q0.result[0].type).toEqual([{ id: 'NO', name: 'Norwegian company' }]);
    expect(r.body.q1.result[0]).toMatchObject({ id: `NO:${b.org_number}`, match: true });
    expect(r.body.q1.result[0].features).toContainEqual({ id: 'place', value: true });
    expect(r.body.q2.result[0]).toMatchObject({ id: `FI:${WOLT}`, name: 'Wolt Oy', match: true });
    expect(r.body.q2.result[0].features).toContainEqual({ id: 'formerName', value: true });
    expect(r.body.q3.result.every((c: { match: boolean }) => !c.match)).toBe(true);
  });

  it('serves an HTML preview, entity and property suggestions, and property proposals', async () => {
    const a = companies[0];
    const preview = await get(`${serviceUrl}/preview?id=${encodeURIComponent(`NO:${a.org_number}`)}`);
    expect(preview.status).toBe(200);
    expect(preview.type).toMatch(/^text\/html/);
    expect(preview.text).toContain(`NO ${a.org_number}`);
    expect((await get(`${serviceUrl}/preview?id=NO:999999999`)).status).toBe(404);

    const suggest = await get(`${serviceUrl}/suggest/entity?prefix=${encodeURIComponent(a.name)}`);
    expect(suggest.status).toBe(200);
    expectValid('suggest-entities-response', suggest.json());
    expect(suggest.json().result[0]).toMatchObject({ id: `NO:${a.org_number}`, name: a.name });

    const props = await get(`${serviceUrl}/suggest/property?prefix=emp`);
    expectValid('suggest-properties-response', props.json());
    expect(props.json().result).toEqual([{ id: 'employees', name: 'Employees' }]);
    const types = await get(`${serviceUrl}/suggest/type?prefix=fi`);
    expectValid('suggest-entities-response', types.json());
    expect(types.json().result.map((t: { id: string }) => t.id)).toEqual(['FI']);

    const jsonp = await get(`${serviceUrl}/suggest/type?prefix=no&callback=cb_1`);
    expect(jsonp.type).toMatch(/javascript/);
    expect(jsonp.text).toMatch(/^\/\*\*\/cb_1\(\{"result":\[/);

    const propose = await get(`${serviceUrl}/extend/propose?type=NO`);
    expect(propose.json().type).toBe('NO');
    expect(propose.json().properties.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining(['employees', 'nace', 'revenue', 'address', 'status']),
    );
  });

  it('extends reconciled companies with firmographic columns', async () => {
    const ids = [...companies.slice(0, 3).map((c) => `NO:${c.org_number}`), `FI:${WOLT}`, 'NO:999999999'];
    const extend = {
      ids,
      properties: [{ id: 'employees' }, { id: 'nace' }, { id: 'address' }, { id: 'status' }, { id: 'revenue' }],
    };
    expectValid('data-extension-query', extend);
    const r = await post(serviceUrl, { extend: JSON.stringify(extend) });
    expect(r.status).toBe(200);
    expectValid('data-extension-response', r.body);
    expect(r.body.meta.map((m: { id: string }) => m.id)).toEqual(['employees', 'nace', 'address', 'status', 'revenue']);
    const a = companies[0];
    expect(r.body.rows[`NO:${a.org_number}`].employees).toEqual(
      a.employee_count === null ? [] : [{ int: a.employee_count }],
    );
    expect(r.body.rows[`NO:${a.org_number}`].status).toEqual([{ str: 'active' }]);
    expect(r.body.rows[`FI:${WOLT}`].address[0].str).toContain('HELSINKI');
    expect(r.body.rows['NO:999999999']).toEqual({ employees: [], nace: [], address: [], status: [], revenue: [] });
  });

  it('counts a batch as one request', async () => {
    const k = await createKey(server, { tier: 'internal' });
    const url = (await http(server.url, 'GET', '/api/keys/reconcile-url', { key: k.raw })).body.serviceUrl;
    const queries = Object.fromEntries(companies.map((c, i) => [`q${i}`, { query: c.name }]));
    expect((await post(url, { queries: JSON.stringify(queries) })).status).toBe(200);
    const u = await http(server.url, 'GET', '/api/keys/usage', { key: k.raw });
    expect(u.body.usage.today).toBe(1);
  });

  it('refuses a forged or malformed token, and bad queries with 400 and details[]', async () => {
    const forged =
      serviceUrl.replace(/.{4}$/, '0000') === serviceUrl
        ? serviceUrl.replace(/.{4}$/, '1111')
        : serviceUrl.replace(/.{4}$/, '0000');
    for (const url of [forged, `${server.url}/api/reconcile/rcn_nope`, `${server.url}/api/reconcile/${key}`]) {
      const r = await get(url);
      expect(r.status, url.slice(-10)).toBe(401);
      expect(r.json()).toMatchObject({ code: 'invalid_api_key' });
    }
    for (const fields of [
      { queries: '{not json' },
      { queries: '[]' },
      { queries: JSON.stringify({ q0: { query: '' } }) },
      { queries: JSON.stringify({ q0: { query: 'Fjord', type: 'DE' } }) },
      { queries: JSON.stringify({ q0: { query: 'Fjord', properties: [{ pid: 'ceo', v: 'x' }] } }) },
      { extend: JSON.stringify({ ids: ['923609016'], properties: [{ id: 'employees' }] }) },
      { extend: JSON.stringify({ ids: ['NO:923609016'], properties: [{ id: 'password' }] }) },
      {},
    ]) {
      const r = await post(serviceUrl, fields as Record<string, string>);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.body.details.length).toBeGreaterThan(0);
    }
  });

  it('keeps the service token out of the log', async () => {
    const token = serviceUrl.split('/').at(-1)!;
    await get(`${serviceUrl}/suggest/type?prefix=no`);
    await get(`${serviceUrl}/does-not-exist`);
    const log = logLines.join('');
    expect(log).toContain('/api/reconcile/[redacted]');
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(4, 30));
  });
});
