// HubSpot destinations end to end: the real server pushing live-fetched records (fake brreg) to a
// local HubSpot (test/fakes/hubspot.ts, built to HubSpot's documented formats) — upserts keyed by
// the organisation number, fillIfEmpty, 429 waits, the OAuth install and its token refresh, a
// HubSpot that stays down, and no token in any response, log line or database row.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany, orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { startFakeHubspot, type FakeHubspot } from '../fakes/hubspot.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let brreg: FakeBrreg;
let hubspot: FakeHubspot;
let server: TestServer;
let key: string;
let HUNDRED: string[];
const logLines: string[] = [];
let privateToken: string;

beforeAll(async () => {
  brreg = await startFakeBrreg();
  for (let i = 0; i < 130; i++) brreg.add(generateCompany(i, 11));
  hubspot = await startFakeHubspot();
  privateToken = hubspot.issueToken();
  server = await startServer({
    env: {
      HUBSPOT_BASE_URL: hubspot.url,
      HUBSPOT_CLIENT_ID: hubspot.client.id,
      HUBSPOT_CLIENT_SECRET: hubspot.client.secret,
    },
    overrides: {
      upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 15_000 }) },
      logger: createLogger('info', new Writable({ write: (c, _e, done) => (logLines.push(String(c)), done()) })),
    },
  });
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  // 100 numbers the register knows (a few generated companies are removed ones).
  const all = Array.from({ length: 130 }, (_, i) => orgNumberFor(i));
  const known = await server.services.companies.enrich(all.map((orgNumber) => ({ orgNumber, country: 'NO' as const })));
  HUNDRED = known.data.map((c) => c.orgNumber).slice(0, 100);
  expect(HUNDRED).toHaveLength(100);
  const r = await http(server.url, 'POST', '/api/destinations', {
    key,
    body: { name: 'hs', type: 'hubspot', config: { accessToken: privateToken } },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await hubspot?.close();
  await brreg?.close();
});
beforeEach(() => {
  hubspot.requests = [];
  hubspot.scripted = [];
  hubspot.down = false;
});

const push = (name: string, body: unknown) => http(server.url, 'POST', `/api/push/${name}`, { key, body });

describe('push to HubSpot', () => {
  it('upserts 100 companies by organisation number: created 100, then updated 100, one batch request each', async () => {
    const first = await push('hs', { orgNumbers: HUNDRED });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      destination: 'hs',
      requested: 100,
      created: 100,
      updated: 0,
      skipped: 0,
      failed: 0,
      errors: [],
    });
    // First use: the property list, the missing properties made in one batch, one batch upsert.
    expect(hubspot.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /crm/v3/properties/companies',
      'POST /crm/v3/properties/companies/batch/create',
      'POST /crm/v3/objects/companies/batch/upsert',
    ]);
    const created = JSON.parse(hubspot.requests[1].body).inputs;
    expect(created).toContainEqual(
      expect.objectContaining({ name: 'ncd_org_number', type: 'string', hasUniqueValue: true }),
    );
    expect(hubspot.companies.size).toBe(100);

    hubspot.requests = [];
    const second = await push('hs', { orgNumbers: HUNDRED });
    expect(second.body).toMatchObject({ created: 0, updated: 100, failed: 0, errors: [] });
    expect(hubspot.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /crm/v3/objects/companies/batch/upsert',
    ]);
    expect(hubspot.companies.size).toBe(100);

    // The mapped values are the record's.
    const records = (
      await server.services.companies.enrich(
        HUNDRED.slice(0, 5).map((orgNumber) => ({ orgNumber, country: 'NO' as const })),
      )
    ).data;
    for (const rec of records) {
      const c = hubspot.byProperty('ncd_org_number', rec.orgNumber)!;
      expect(c.properties).toMatchObject({
        name: rec.name,
        ncd_legal_form: rec.orgFormCode,
        ncd_company_status: rec.isBankrupt ? 'bankrupt' : rec.isDeleted ? 'deregistered' : expect.any(String),
      });
      if (rec.employeeCount !== null) expect(c.properties.numberofemployees).toBe(String(rec.employeeCount));
      if (rec.naceCode1) expect(c.properties.ncd_industry_code).toBe(rec.naceCode1);
      if (rec.foundingDate) expect(c.properties.ncd_founding_date).toBe(rec.foundingDate);
      if (rec.businessAddressCity) expect(c.properties.city).toBe(rec.businessAddressCity);
      const latest = [...rec.financials].sort((a, b) => String(b.periodTo).localeCompare(String(a.periodTo)))[0];
      if (latest?.revenue != null) expect(c.properties.annualrevenue).toBe(String(latest.revenue));
    }
  });

  it('keeps a fillIfEmpty field a person set in HubSpot, and writes the others', async () => {
    const r = await http(server.url, 'POST', '/api/destinations', {
      key,
      body: {
        name: 'hs-fill',
        type: 'hubspot',
        config: {
          accessToken: privateToken,
          fieldMappings: { name: { property: 'name', rule: 'fillIfEmpty' }, phone: 'phone' },
        },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.config.fieldMappings.name).toEqual({ property: 'name', rule: 'fillIfEmpty' });
    const n = HUNDRED[7];
    hubspot.byProperty('ncd_org_number', n)!.properties.name = 'Typed by a salesperson';
    hubspot.byProperty('ncd_org_number', n)!.properties.city = 'Old city';
    const blank = HUNDRED[8];
    hubspot.byProperty('ncd_org_number', blank)!.properties.name = '';
    hubspot.requests = [];
    const res = await push('hs-fill', { orgNumbers: [n, blank] });
    expect(res.body).toMatchObject({ created: 0, updated: 2, failed: 0 });
    // A new destination checks its properties once; fillIfEmpty reads the current values first.
    expect(hubspot.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      'GET /crm/v3/properties/companies',
      'POST /crm/v3/objects/companies/batch/read',
      'POST /crm/v3/objects/companies/batch/upsert',
    ]);
    const [rec, blankRec] = (
      await server.services.companies.enrich([n, blank].map((orgNumber) => ({ orgNumber, country: 'NO' as const })))
    ).data;
    expect(hubspot.byProperty('ncd_org_number', n)!.properties.name).toBe('Typed by a salesperson');
    if (rec.businessAddressCity)
      expect(hubspot.byProperty('ncd_org_number', n)!.properties.city).toBe(rec.businessAddressCity);
    expect(hubspot.byProperty('ncd_org_number', blank)!.properties.name).toBe(blankRec.name);
  });

  it('waits out a 429 for as long as Retry-After says, then writes', async () => {
    hubspot.scripted.push({
      status: 429,
      match: /batch\/upsert/,
      headers: { 'retry-after': '1' },
      body: { status: 'error', message: 'You have reached your secondly limit.', category: 'RATE_LIMITS' },
    });
    const r = await push('hs', { orgNumbers: HUNDRED.slice(0, 3) });
    expect(r.body).toMatchObject({ updated: 3, failed: 0, errors: [] });
    const upserts = hubspot.calls(/batch\/upsert/);
    expect(upserts).toHaveLength(2);
    expect(upserts[1].at - upserts[0].at).toBeGreaterThanOrEqual(950);
  });

  it('fails the push with a clear error when HubSpot stays down, and writes nothing', async () => {
    hubspot.down = true;
    const r = await push('hs', { orgNumbers: HUNDRED.slice(0, 3) });
    expect(r.status).toBe(502);
    expect(r.body.code).toBe('crm_unavailable');
    expect(r.body.error).toMatch(/HubSpot answered 503 \(3 attempts\)/);
    expect(hubspot.calls(/batch\/upsert/)).toHaveLength(3);
  });

  it('a CRM push answers 400 for a bad number, naming it', async () => {
    const r = await push('hs', { pairs: [{ orgNumber: '12345', country: 'DK' }] });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([expect.objectContaining({ path: 'body.pairs.0.orgNumber' })]);
  });
});

describe('the HubSpot OAuth install', () => {
  let installed: string;

  it('redirects to HubSpot and stores hubspot-<portalId> from the callback', async () => {
    const r = await fetch(`${server.url}/api/integrations/hubspot/install`, {
      headers: { authorization: `Bearer ${key}` },
      redirect: 'manual',
    });
    expect(r.status).toBe(302);
    const to = new URL(r.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe('https://app.hubspot.com/oauth/authorize');
    expect(to.searchParams.get('client_id')).toBe(hubspot.client.id);
    expect(to.searchParams.get('redirect_uri')).toBe(`${server.url}/api/integrations/hubspot/callback`);
    expect(to.searchParams.get('scope')).toContain('crm.objects.companies.write');
    hubspot.codes.set('code-abc', String(hubspot.portalId));
    const cb = await http(
      server.url,
      'GET',
      `/api/integrations/hubspot/callback?code=code-abc&state=${encodeURIComponent(to.searchParams.get('state')!)}`,
    );
    expect(cb.status).toBe(200);
    expect(cb.body).toEqual({ destination: 'hubspot-4711', type: 'hubspot', portalId: '4711' });
    installed = hubspot.issued.at(-1)!;
    const d = await http(server.url, 'GET', '/api/destinations/hubspot-4711', { key });
    expect(d.body.config).toMatchObject({ auth: 'oauth', portalId: '4711', orgNumberProperty: 'ncd_org_number' });
  });

  it('refuses a forged state and answers 404 when the server has no HubSpot app', async () => {
    const cb = await http(server.url, 'GET', '/api/integrations/hubspot/callback?code=x&state=forged.abc');
    expect(cb.status).toBe(400);
    expect(cb.body.details[0].path).toBe('query.state');
    const bare = await startServer();
    try {
      const k = (await createKey(bare, { tier: 'pro' })).raw;
      const r = await http(bare.url, 'GET', '/api/integrations/hubspot/install', { key: k });
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({
        code: 'integration_not_configured',
        error: expect.stringMatching(/HUBSPOT_CLIENT_ID/),
      });
    } finally {
      await bare.close();
    }
  });

  it('a 401 refreshes the OAuth token once and the push goes through', async () => {
    hubspot.tokens.delete(installed); // HubSpot no longer takes the access token
    const r = await push('hubspot-4711', { orgNumbers: HUNDRED.slice(0, 2) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 0, updated: 2, failed: 0 });
    const refreshes = hubspot.calls(/^\/oauth\/v1\/token$/).filter((q) => q.body.includes('grant_type=refresh_token'));
    expect(refreshes).toHaveLength(1);
    // The first call carried the old token and got 401; every call after the refresh the new one.
    const api = hubspot.requests.filter((q) => q.path.startsWith('/crm/'));
    expect(api[0].headers.authorization).toBe(`Bearer ${installed}`);
    expect(api.at(-1)!.path).toBe('/crm/v3/objects/companies/batch/upsert');
    expect(api.at(-1)!.headers.authorization).toBe(`Bearer ${hubspot.issued.at(-1)}`);
    // The next push uses the refreshed token straight away.
    hubspot.requests = [];
    await push('hubspot-4711', { orgNumbers: HUNDRED.slice(0, 1) });
    expect(hubspot.calls(/^\/oauth\/v1\/token$/)).toHaveLength(0);
  });

  it('a refresh that HubSpot refuses fails the push once, clearly', async () => {
    hubspot.refreshTokens.clear();
    hubspot.tokens.delete(hubspot.issued.at(-1)!);
    const r = await push('hubspot-4711', { orgNumbers: HUNDRED.slice(0, 1) });
    expect(r.status).toBe(502);
    expect(r.body.error).toMatch(/HubSpot refused the access token \(401\)/);
    expect(hubspot.calls(/batch\/upsert/)).toHaveLength(1);
  });
});

describe('tokens stay secret', () => {
  it('appear in no response, log line or database row', async () => {
    const tokens = [privateToken, ...hubspot.issued, ...hubspot.refreshTokens.keys(), hubspot.client.secret];
    const list = await http(server.url, 'GET', '/api/destinations', { key });
    const bodies =
      JSON.stringify(list.body) + JSON.stringify((await http(server.url, 'GET', '/api/destinations/hs', { key })).body);
    const rows = await server.ctx.store.pool.query('SELECT * FROM destinations');
    const jobs = await server.ctx.store.pool.query('SELECT * FROM crm_writebacks');
    const haystack = [bodies, JSON.stringify(rows.rows), JSON.stringify(jobs.rows), logLines.join('\n')].join('\n');
    expect(rows.rows.length).toBeGreaterThanOrEqual(3);
    expect(logLines.some((l) => l.includes('push to crm'))).toBe(true);
    for (const t of tokens) expect(haystack).not.toContain(t);
  });
});
