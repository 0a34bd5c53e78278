// HubSpot enrich-on-write end to end: a signed company.propertyChange (and company.creation)
// webhook from the local HubSpot (test/fakes/hubspot.ts) makes the server look the number up
// (fake brreg) and PATCH the fields back within 10 s; the fake then sends the propertyChange
// events HubSpot would send for that write, and nothing more is written. A bad signature and an
// old timestamp answer 401 and queue nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
const APP_SECRET = 'hubspot-app-secret-5e6f7a8b';
let known: string[];

const jobs = async () => (await server.ctx.store.pool.query('SELECT * FROM crm_writebacks ORDER BY id')).rows;
const patches = () => hubspot.calls(/^\/crm\/v3\/objects\/companies\/\d+$/, 'PATCH');

beforeAll(async () => {
  brreg = await startFakeBrreg();
  for (let i = 0; i < 40; i++) brreg.add(generateCompany(i, 11));
  hubspot = await startFakeHubspot();
  server = await startServer({
    env: { HUBSPOT_BASE_URL: hubspot.url, HUBSPOT_APP_SECRET: APP_SECRET },
    overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 15_000 }) } },
  });
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  const r = await http(server.url, 'POST', '/api/destinations', {
    key,
    body: {
      name: 'hs',
      type: 'hubspot',
      config: { accessToken: hubspot.issueToken(), portalId: String(hubspot.portalId) },
    },
  });
  expect(r.status).toBe(201);
  const all = Array.from({ length: 40 }, (_, i) => orgNumberFor(i));
  known = (
    await server.services.companies.enrich(all.map((orgNumber) => ({ orgNumber, country: 'NO' as const })))
  ).data.map((c) => c.orgNumber);
  // The portal's properties exist (a first push makes them).
  expect((await http(server.url, 'POST', '/api/push/hs', { key, body: { orgNumbers: [known[0]] } })).body.created).toBe(
    1,
  );
  // HubSpot's app is subscribed to every company property, so our own write-back comes back too.
  hubspot.webhook = {
    url: `${server.url}/api/integrations/hubspot/webhook`,
    appSecret: APP_SECRET,
    properties: [...hubspot.properties.keys()],
  };
});
afterAll(async () => {
  await server?.close();
  await hubspot?.close();
  await brreg?.close();
});
beforeEach(() => {
  hubspot.requests = [];
});

const change = (objectId: string, value: string) => ({
  eventId: 1,
  subscriptionId: 11,
  portalId: hubspot.portalId,
  appId: 77,
  occurredAt: Date.now(),
  subscriptionType: 'company.propertyChange',
  attemptNumber: 0,
  objectId: Number(objectId),
  propertyName: 'ncd_org_number',
  propertyValue: value,
  changeSource: 'CRM_UI',
});

describe('HubSpot enrich-on-write', () => {
  it('a signed propertyChange of the organisation number writes the fields back within 10 s, and starts no loop', async () => {
    const n = known[5];
    const c = hubspot.createByHand({ name: 'acme', ncd_org_number: n });
    const started = Date.now();
    expect(await hubspot.send([change(c.id, n)])).toBe(200);
    const rec = (await server.services.companies.enrich([{ orgNumber: n, country: 'NO' }])).data[0];
    await expect
      .poll(() => hubspot.companies.get(c.id)!.properties.ncd_enrichment_status, { timeout: 10_000, interval: 100 })
      .toBe('enriched');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(hubspot.companies.get(c.id)!.properties).toMatchObject({
      name: rec.name,
      ncd_org_number: n,
      ncd_legal_form: rec.orgFormCode,
    });
    // The PATCH does not write the number itself back.
    expect(JSON.parse(patches()[0].body).properties.ncd_org_number).toBeUndefined();
    // HubSpot echoes our write as propertyChange events of the other properties: ignored.
    await new Promise((r) => setTimeout(r, 2000));
    expect(patches()).toHaveLength(1);
    expect((await jobs()).filter((j) => j.object_id === c.id)).toEqual([
      expect.objectContaining({ status: 'done', outcome: 'written' }),
    ]);
  });

  it('company.creation with a number is handled the same way; a repeated event changes nothing', async () => {
    const n = known[6];
    const c = hubspot.createByHand({ ncd_org_number: n });
    const creation = {
      ...change(c.id, n),
      subscriptionType: 'company.creation',
      propertyName: undefined,
      propertyValue: undefined,
    };
    expect(await hubspot.send([creation])).toBe(200);
    await expect
      .poll(() => hubspot.companies.get(c.id)!.properties.ncd_enrichment_status, { timeout: 10_000 })
      .toBe('enriched');
    expect(await hubspot.send([change(c.id, n)])).toBe(200); // a retry of the same change
    await expect
      .poll(async () => (await jobs()).filter((j) => j.object_id === c.id && j.status === 'done').length, {
        timeout: 10_000,
      })
      .toBe(2);
    expect((await jobs()).filter((j) => j.object_id === c.id).map((j) => j.outcome)).toEqual(['written', 'unchanged']);
    expect(patches()).toHaveLength(1);
  });

  it('a number the register does not know, or an invalid one, writes a status', async () => {
    const missing = orgNumberFor(900); // valid check digit, not in the fake register
    const a = hubspot.createByHand({ ncd_org_number: missing });
    const b = hubspot.createByHand({ ncd_org_number: '123 456 789' });
    await hubspot.send([change(a.id, missing), change(b.id, '123 456 789')]);
    await expect
      .poll(() => hubspot.companies.get(a.id)!.properties.ncd_enrichment_status, { timeout: 10_000 })
      .toBe('not found in the register');
    await expect
      .poll(() => hubspot.companies.get(b.id)!.properties.ncd_enrichment_status, { timeout: 10_000 })
      .toBe('invalid organisation number');
  });

  it('a bad signature or a timestamp older than five minutes answers 401 and does nothing', async () => {
    const c = hubspot.createByHand({ ncd_org_number: known[7] });
    const before = (await jobs()).length;
    expect(await hubspot.send([change(c.id, known[7])], { secret: 'wrong-secret' })).toBe(401);
    expect(await hubspot.send([change(c.id, known[7])], { timestamp: Date.now() - 6 * 60 * 1000 })).toBe(401);
    const unsigned = await fetch(`${server.url}/api/integrations/hubspot/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([change(c.id, known[7])]),
    });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { code: string }).code).toBe('invalid_signature');
    await new Promise((r) => setTimeout(r, 1200));
    expect((await jobs()).length).toBe(before);
    expect(patches()).toHaveLength(0);
  });
});
