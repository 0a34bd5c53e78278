// Finnish and Swedish companies through the API: loaded by the bulk syncs (from local fakes of
// the PRH download and the Bolagsverket bulk file), then served by lookup, enrich, search and the
// change feed — and never fetched live: the fakes count every request.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { generatedOrgNumber } from '../../src/sources/bolagsverket/index.ts';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { startFakePrh, zipOf, type FakePrh } from '../fakes/prh/server.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const BULK_PATH = '/bolagsverket/bolagsverket_bulkfil.zip';
const fixture = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const quirks = fixture('bolagsverket/bulkfil-quirks.txt');

const WOLT = '2646674-9';
const FI_MISS = '1234567-1'; // valid check digit, not in the file
const SE_HIT = '5566778899';
const SE_MISS = generatedOrgNumber(12345); // valid Luhn, not in the file
const NO_UNKNOWN = '974760673';

let brreg: FakeBrreg;
let upstream: FakePrh;
let server: TestServer;
let key: string;
let noLive: string;
let loadedAt: string;

beforeAll(async () => {
  brreg = await startFakeBrreg();
  for (let i = 0; i < 20; i++) brreg.add(generateCompany(i, 5));
  noLive = generateCompany(3, 5).enhet.organisasjonsnummer;
  upstream = await startFakePrh();
  upstream.companies = [JSON.parse(fixture('prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json')).companies[0]];
  upstream.files.set(BULK_PATH, {
    body: await zipOf('bolagsverket_bulkfil.txt', quirks),
    contentType: 'application/zip',
  });
  server = await startServer({
    env: { PRH_BASE_URL: upstream.baseUrl, BOLAGSVERKET_BULK_URL: `${upstream.url}${BULK_PATH}` },
    overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 2000 }) } },
  });
  key = (await createKey(server, { tier: 'internal' })).raw;
  loadedAt = new Date(Date.now() - 1000).toISOString();
  await runJob(server.ctx, 'prh', {}, () => undefined);
  await runJob(server.ctx, 'bolagsverket', {}, () => undefined);
  expect(upstream.requests.map((r) => r.path)).toEqual(['/opendata-ytj-api/v3/all_companies', BULK_PATH]);
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
  await brreg?.close();
});
beforeEach(() => {
  upstream.resetCounters();
  brreg.resetCounters();
});

const get = (p: string) => http(server.url, 'GET', p, { key });

describe('Finnish and Swedish companies', () => {
  it('enrich with mixed NO/FI/SE pairs: NO misses fetched live, FI/SE misses in notFound, no FI/SE upstream asked', async () => {
    const pairs = [
      { orgNumber: noLive, country: 'NO' },
      { orgNumber: WOLT, country: 'FI' },
      { orgNumber: FI_MISS, country: 'FI' },
      { orgNumber: SE_HIT, country: 'SE' },
      { orgNumber: SE_MISS, country: 'SE' },
      { orgNumber: NO_UNKNOWN, country: 'NO' },
    ];
    const r = await http(server.url, 'POST', '/api/companies/enrich', { key, body: { pairs } });
    expect(r.status).toBe(200);
    expect(
      r.body.data.map((c: { country: string; orgNumber: string }) => `${c.country}:${c.orgNumber}`).sort(),
    ).toEqual([`FI:${WOLT}`, `NO:${noLive}`, `SE:${SE_HIT}`].sort());
    expect(r.body.notFound).toEqual([
      { orgNumber: FI_MISS, country: 'FI' },
      { orgNumber: SE_MISS, country: 'SE' },
      { orgNumber: NO_UNKNOWN, country: 'NO' },
    ]);
    expect(r.body.unavailable).toEqual([]);
    const byCountry = Object.fromEntries(r.body.data.map((c: { country: string }) => [c.country, c]));
    expect(byCountry.FI).toMatchObject({ name: 'Wolt Oy', _sources: { fields: { companyCore: 'YTJ' } } });
    expect(byCountry.SE).toMatchObject({
      name: 'Nordlys Logistik AB',
      _sources: { fields: { companyCore: 'Bolagsverket' } },
    });
    expect(byCountry.NO._sources.fields.companyCore).toBe('Brønnøysundregistrene');
    expect(byCountry.FI.orgFormName).toBeUndefined(); // enrich records carry no labels
    expect(brreg.requestsFor(noLive).length).toBeGreaterThan(0);
    expect(upstream.requests).toEqual([]);
  });

  it('lookup with country=FI|SE serves the stored record with labels; a miss is 404 without any upstream request', async () => {
    const fi = await get(`/api/companies/${WOLT}?country=FI`);
    expect(fi.status).toBe(200);
    expect(fi.body).toMatchObject({
      country: 'FI',
      orgFormCode: '16',
      orgFormName: 'Osakeyhtiö',
      countryName: 'Finland',
    });
    expect(fi.body._sources.fields).toMatchObject({
      companyCore: 'YTJ',
      orgFormLabel: 'YTJ',
      countryLabel: 'SSB Klass',
    });
    const se = await get(`/api/companies/${SE_HIT}?country=SE`);
    expect(se.status).toBe(200);
    expect(se.body).toMatchObject({
      country: 'SE',
      orgFormCode: 'AB',
      orgFormName: 'Aktiebolag',
      countryName: 'Sverige',
    });
    expect(se.body._sources.attribution).toContain('Bolagsverket');

    for (const [n, c] of [
      [FI_MISS, 'FI'],
      [SE_MISS, 'SE'],
    ]) {
      const miss = await get(`/api/companies/${n}?country=${c}`);
      expect(miss.status).toBe(404);
      expect(miss.body.code).toBe('company_not_found');
    }
    expect((await get('/api/companies/1234567-2?country=FI')).status).toBe(400); // bad check digit
    expect((await get('/api/companies/5566778898?country=SE')).status).toBe(400); // bad Luhn
    expect(upstream.requests).toEqual([]);
    expect(brreg.requests).toEqual([]);
  });

  it('search finds them scoped by country and unscoped', async () => {
    const fi = await get('/api/companies?country=FI&q=wolt');
    expect(fi.status).toBe(200);
    expect(fi.body.data.map((c: { orgNumber: string }) => c.orgNumber)).toEqual([WOLT]);
    expect(fi.body.data[0]).toMatchObject({ country: 'FI', orgFormName: 'Osakeyhtiö' });
    const se = await get('/api/companies?country=SE&limit=100');
    expect(se.body.data.length).toBe(7); // the file's eight, less the deregistered one
    expect(se.body.data.every((c: { country: string }) => c.country === 'SE')).toBe(true);
    const withDeleted = await get('/api/companies?country=SE&limit=100&includeDeleted=true');
    expect(withDeleted.body.data.length).toBe(8);
    const all = await get('/api/companies?q=nordlys');
    expect(all.body.data.map((c: { orgNumber: string }) => c.orgNumber)).toContain(SE_HIT);
    expect(upstream.requests).toEqual([]);
  });

  it('the change feed carries the loaded companies, and a company deregistered by the next file', async () => {
    const feed = await get(`/api/updates?since=${encodeURIComponent(loadedAt)}&limit=100`);
    expect(feed.status).toBe(200);
    const countries = new Set(feed.body.data.map((c: { country: string }) => c.country));
    expect(countries).toEqual(new Set(['FI', 'SE', 'NO']));

    const before = new Date().toISOString();
    const lines = quirks.split('\n').filter((l) => !l.includes(`${SE_HIT}$ORGNR`));
    upstream.files.set(BULK_PATH, {
      body: await zipOf('bolagsverket_bulkfil.txt', lines.join('\n')),
      contentType: 'application/zip',
    });
    const r = await runJob(server.ctx, 'bolagsverket', {}, () => undefined);
    expect(r.details).toMatchObject({ deregistered: 1 });
    const changed = await get(`/api/updates?since=${encodeURIComponent(before)}`);
    expect(changed.body.data).toEqual([
      expect.objectContaining({ orgNumber: SE_HIT, country: 'SE', isDeleted: true, status: 'deregistered' }),
    ]);
  });
});
