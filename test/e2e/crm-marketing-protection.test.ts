// Marketing protection end to end: CVR's reklamebeskyttet (fixture test/fixtures/cvr, one
// document flipped to true here) is read by the cvr job onto the record as marketingProtected,
// filtered by search, and a CRM push skips the protected company with its reason unless the
// destination allows it — then the flag travels into the CRM.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { startFakeCvr, type FakeCvr } from '../fakes/cvr/server.ts';
import { startFakeHubspot, type FakeHubspot } from '../fakes/hubspot.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = readFileSync(new URL('../fixtures/cvr/virksomheder.ndjson', import.meta.url), 'utf8');
const AS = '35540008'; // protected in this test
const APS = '41770007';

let cvr: FakeCvr;
let hubspot: FakeHubspot;
let server: TestServer;
let key: string;

beforeAll(async () => {
  cvr = await startFakeCvr();
  cvr.hits = fixture
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  for (const h of cvr.hits)
    if (String(h._source.Vrvirksomhed.cvrNummer) === AS) h._source.Vrvirksomhed.reklamebeskyttet = true;
  hubspot = await startFakeHubspot();
  server = await startServer({ env: { ...cvr.env, HUBSPOT_BASE_URL: hubspot.url } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  expect(await runJob(server.ctx, 'cvr', {}, () => undefined)).toMatchObject({ status: 'ok', recordsProcessed: 5 });
  const token = hubspot.issueToken();
  for (const [name, allow] of [
    ['hs', false],
    ['hs-all', true],
  ] as const) {
    const r = await http(server.url, 'POST', '/api/destinations', {
      key,
      body: { name, type: 'hubspot', config: { accessToken: token, allowMarketingProtected: allow } },
    });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await server?.close();
  await hubspot?.close();
  await cvr?.close();
});

const get = (p: string) => http(server.url, 'GET', p, { key });

describe('marketingProtected on the record', () => {
  it('is true for a DK company that declined advertising, false for one that did not', async () => {
    expect((await get(`/api/companies/${AS}?country=DK`)).body.marketingProtected).toBe(true);
    expect((await get(`/api/companies/${APS}?country=DK`)).body.marketingProtected).toBe(false);
  });

  it('search marketingProtected=false leaves the protected company out; true finds only it', async () => {
    const open = (await get('/api/companies?country=DK&marketingProtected=false&limit=50')).body.data.map(
      (c: { orgNumber: string }) => c.orgNumber,
    );
    expect(open).toContain(APS);
    expect(open).not.toContain(AS);
    const rows = (await get('/api/companies?country=DK&marketingProtected=true&limit=50')).body.data;
    expect(rows.map((c: { orgNumber: string }) => c.orgNumber)).toEqual([AS]);
    expect(rows[0].marketingProtected).toBe(true);
  });
});

describe('a CRM push and marketing protection', () => {
  const pairs = [
    { orgNumber: AS, country: 'DK' },
    { orgNumber: APS, country: 'DK' },
  ];

  it('skips the protected company with its reason by default', async () => {
    const r = await http(server.url, 'POST', '/api/push/hs', { key, body: { pairs } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 1, skipped: 1, failed: 0 });
    expect(r.body.skippedCompanies).toEqual([
      { orgNumber: AS, country: 'DK', reason: expect.stringMatching(/reklamebeskyttet/) },
    ]);
    expect(hubspot.byProperty('ncd_org_number', AS)).toBeUndefined();
    expect(hubspot.byProperty('ncd_org_number', APS)!.properties.ncd_marketing_protected).toBe('false');
  });

  it('pushes it when the destination allows them, with the flag in the CRM', async () => {
    const r = await http(server.url, 'POST', '/api/push/hs-all', { key, body: { pairs } });
    expect(r.body).toMatchObject({ created: 1, updated: 1, skipped: 0, failed: 0 });
    expect(hubspot.byProperty('ncd_org_number', AS)!.properties.ncd_marketing_protected).toBe('true');
  });
});
