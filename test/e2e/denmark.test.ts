// Denmark through the API: the `cvr` job walks a fake CVR Elasticsearch (scroll, basic auth) and
// the records are served by lookup, search, enrich and the change feed; `cvr-updates` picks up a
// changed document. Failures (no credentials, 401, an expired scroll) are recorded and lose
// nothing already stored.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { startFakeCvr, type FakeCvr } from '../fakes/cvr/server.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = readFileSync(new URL('../fixtures/cvr/virksomheder.ndjson', import.meta.url), 'utf8');
const xbrl = readFileSync(new URL('../fixtures/cvr/aarsrapport.xml', import.meta.url), 'utf8');
const hits = () =>
  fixture
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const AS = '35540008';
const APS = '41770007';
const ENK = '12340001';
const MISS = '44100002'; // valid check digits, not in the register

let cvr: FakeCvr;
let server: TestServer;
let key: string;
let loadedAt: string;

beforeAll(async () => {
  cvr = await startFakeCvr();
  cvr.hits = hits();
  cvr.maxPageSize = 2; // five documents in three scroll pages
  // The fake CVR serves the XBRL documents on loopback: the one address the SSRF-safe fetch may reach.
  server = await startServer({ env: cvr.env, overrides: { crawlerNet: { allowedAddresses: ['127.0.0.1'] } } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  loadedAt = new Date(Date.now() - 1000).toISOString();
  const r = await runJob(server.ctx, 'cvr', {}, () => undefined);
  expect(r).toMatchObject({ status: 'ok', recordsProcessed: 5 });
  expect(cvr.requests.every((q) => q.authorized)).toBe(true);
  expect(cvr.openScrolls).toBe(0); // the scroll was cleared
});
afterAll(async () => {
  await server?.close();
  await cvr?.close();
});

const get = (p: string) => http(server.url, 'GET', p, { key });
const dkCount = async () => (await get('/api/companies?country=DK&limit=50')).body.data.length as number;

describe('Danish companies (CVR)', () => {
  it('lookup with country=DK serves the stored record with roles, P-units and kommune', async () => {
    const r = await get(`/api/companies/${AS}?country=DK`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      country: 'DK',
      orgNumber: AS,
      name: 'Nordlys Maskiner A/S',
      orgFormCode: 'A/S',
      employeeCount: 57,
      businessAddressMuniNo: '101',
      businessAddressMunicipality: 'KØBENHAVN',
      parentOrgNumber: APS,
      isInGroup: true,
    });
    expect(r.body._sources.fields.companyCore).toBe('CVR');
    expect(r.body.roles.map((x: { roleTypeCode: string }) => x.roleTypeCode).sort()).toEqual([
      'DAGL',
      'LEDE',
      'MEDL',
      'REVI',
    ]);
    expect(JSON.stringify(r.body)).not.toMatch(/enhedsNummer|4002000\d{3}/);
    const aps = await get(`/api/companies/${APS}?country=DK`);
    expect(aps.body).toMatchObject({ employeeCount: 5, employeeCountRange: '5-9' });
    expect(aps.body.subUnits.map((u: { orgNumber: string }) => u.orgNumber).sort()).toEqual([
      '1020304050',
      '1020304069',
    ]);
  });

  it('validates the 8-digit CVR format beside the 9-digit NO one; a DK miss without live fetch is 404', async () => {
    expect((await get(`/api/companies/35540009?country=DK`)).status).toBe(400);
    expect((await get(`/api/companies/923609016?country=DK`)).status).toBe(400);
    expect((await get(`/api/companies/${AS}`)).status).toBe(400); // NO by default: 8 digits is not a NO number
    const miss = await get(`/api/companies/${MISS}?country=DK`);
    expect(miss.status).toBe(404);
    expect(miss.body.code).toBe('company_not_found');
  });

  it('search scoped to DK, enrich pairs with DK, and the change feed', async () => {
    const s = await get('/api/companies?country=DK&q=nordlys');
    expect(s.status).toBe(200);
    expect(s.body.data.map((c: { orgNumber: string }) => c.orgNumber)).toEqual([AS]);
    const e = await http(server.url, 'POST', '/api/companies/enrich', {
      key,
      body: {
        pairs: [
          { orgNumber: ENK, country: 'DK' },
          { orgNumber: MISS, country: 'DK' },
        ],
      },
    });
    expect(e.status).toBe(200);
    expect(e.body.data.map((c: { orgNumber: string }) => c.orgNumber)).toEqual([ENK]);
    expect(e.body.notFound).toEqual([{ orgNumber: MISS, country: 'DK' }]);
    const u = await get(`/api/updates?since=${encodeURIComponent(loadedAt)}&limit=100`);
    expect(u.status).toBe(200);
    const dk = u.body.data
      .filter((c: { country: string }) => c.country === 'DK')
      .map((c: { orgNumber: string }) => c.orgNumber);
    expect(dk.sort()).toEqual([AS, APS, ENK, '29980004', '38710001'].sort());
  });

  it('a DK miss is fetched live from CVR (guarded, with basic auth) and stored; an unknown one is remembered', async () => {
    const LIVE = '50000001';
    const doc = hits().find((h) => h._source.Vrvirksomhed.cvrNummer === Number(ENK));
    doc._source.Vrvirksomhed.cvrNummer = Number(LIVE);
    doc._source.Vrvirksomhed.virksomhedMetadata.nyesteNavn.navn = 'Live Fetched VVS';
    doc._source.Vrvirksomhed.penheder = []; // the clone must not take over the original's P-unit
    cvr.hits.push(doc);
    cvr.requests = [];
    const r = await get(`/api/companies/${LIVE}?country=DK`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ country: 'DK', orgNumber: LIVE, name: 'Live Fetched VVS', orgFormCode: 'ENK' });
    expect(r.body.roles.map((x: { roleTypeCode: string }) => x.roleTypeCode)).toEqual(['INNH']);
    expect(cvr.requests).toEqual([{ method: 'GET', path: '/cvr-permanent/virksomhed/_search', authorized: true }]);
    // Stored: the next lookup is a store hit.
    expect((await get(`/api/companies/${LIVE}?country=DK`)).status).toBe(200);
    expect(cvr.requests).toHaveLength(1);
    // An unknown number (asked by the tests above) is answered from the negative cache.
    expect((await get(`/api/companies/${MISS}?country=DK`)).status).toBe(404);
    expect(cvr.requests).toHaveLength(1);
    cvr.hits.pop();
  });

  it('a re-run changes no updatedAt', async () => {
    const before = (await get(`/api/companies/${AS}?country=DK`)).body.updatedAt;
    const r = await runJob(server.ctx, 'cvr', {}, () => undefined);
    expect(r.details).toMatchObject({ inserted: 0, changed: 0, unchanged: 5 });
    expect((await get(`/api/companies/${AS}?country=DK`)).body.updatedAt).toBe(before);
  });

  it('cvr-updates picks up a changed document and emits it in /api/updates', async () => {
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const doc = cvr.hits.find((h) => h._source.Vrvirksomhed.cvrNummer === Number(ENK))!._source.Vrvirksomhed;
    doc.sidstOpdateret = '2099-01-01T10:00:00.000+01:00';
    (doc.virksomhedMetadata as { nyesteNavn: { navn: string } }).nyesteNavn.navn = 'Hansens VVS og Blik v/Jens Hansen';
    cvr.requests = [];
    const r = await runJob(server.ctx, 'cvr-updates', {}, () => undefined);
    expect(r).toMatchObject({ recordsProcessed: 1, details: { changed: 1, complete: true } });
    const u = await get(`/api/updates?since=${encodeURIComponent(since)}`);
    expect(u.body.data.map((c: { orgNumber: string; name: string }) => [c.orgNumber, c.name])).toEqual([
      [ENK, 'Hansens VVS og Blik v/Jens Hansen'],
    ]);
    // The position moved to the newest document: the next walk asks from there.
    expect(await server.ctx.repos.syncRuns.getState('cvr-updates')).toEqual({ since: '2099-01-01T10:00:00.000+01:00' });
  });

  it('cvr-financials stores the XBRL key figures; a malformed XBRL is recorded and loses nothing', async () => {
    const publication = (cvrNummer: number, path: string, mime = 'application/xml') => ({
      cvrNummer,
      offentliggoerelsestype: 'regnskab',
      offentliggoerelsesTidspunkt: '2024-05-30T10:00:00.000Z',
      regnskab: { regnskabsperiode: { startDato: '2023-01-01', slutDato: '2023-12-31' } },
      dokumenter: [
        { dokumentUrl: `${cvr.url}${path}.pdf`, dokumentMimeType: 'application/pdf', dokumentType: 'AARSRAPPORT' },
        { dokumentUrl: `${cvr.url}${path}`, dokumentMimeType: mime, dokumentType: 'AARSRAPPORT' },
      ],
    });
    cvr.files.set('/xbrl/nordlys-2023.xml', { body: xbrl, contentType: 'application/xml' });
    cvr.files.set('/xbrl/kyst-2023.xml', { body: xbrl.slice(0, 2500), contentType: 'application/xml' });
    cvr.publications = [
      publication(Number(AS), '/xbrl/nordlys-2023.xml'),
      publication(Number(APS), '/xbrl/kyst-2023.xml'),
    ];
    const r = await runJob(server.ctx, 'cvr-financials', {}, () => undefined);
    expect(r.details).toMatchObject({ reports: 2, stored: 1, rejected: 1, complete: true });
    expect((r.details!.rejectSamples as string[])[0]).toMatch(/CVR 41770007: the XBRL document is not well-formed XML/);
    const a = await get(`/api/companies/${AS}?country=DK`);
    expect(a.body.financials[0]).toMatchObject({
      periodFrom: '2023-01-01',
      periodTo: '2023-12-31',
      currency: 'DKK',
      revenue: 84512000,
      operatingProfit: 5118000,
      netResult: 3764000,
      equity: 21450000,
      totalAssets: 52300000,
      totalLiabilities: 29870000,
    });
    expect(a.body._sources.fields.financials).toBe('CVR (Erhvervsstyrelsen, XBRL)');
    expect(a.body._sources.fields.roles).toBe('CVR');
    const b = await get(`/api/companies/${APS}?country=DK`);
    expect(b.status).toBe(200);
    expect(b.body.financials ?? []).toEqual([]);
    expect(await server.ctx.repos.syncRuns.getState('cvr-financials')).toEqual({ since: '2024-05-30T10:00:00.000Z' });
  });

  it('cvr-financials fetches document URLs from CVR data only through the SSRF-safe client', async () => {
    const port = new URL(cvr.url).port;
    const urls = [
      `http://127.0.0.2:${port}/xbrl/nordlys-2023.xml`, // another loopback address
      `http://[::1]:${port}/xbrl/nordlys-2023.xml`,
      'http://169.254.169.254/latest/meta-data/iam.xml', // the cloud metadata service
      'http://10.20.30.40/xbrl/internal.xml',
      'http://192.168.1.1/xbrl/router.xml',
    ];
    cvr.publications = urls.map((dokumentUrl, i) => ({
      cvrNummer: Number(AS),
      offentliggoerelsestype: 'regnskab',
      offentliggoerelsesTidspunkt: `2024-06-0${i + 1}T10:00:00.000Z`,
      dokumenter: [{ dokumentUrl, dokumentMimeType: 'application/xml', dokumentType: 'AARSRAPPORT' }],
    }));
    const asked = cvr.requests.length;
    const started = Date.now();
    const r = await runJob(server.ctx, 'cvr-financials', {}, () => undefined);
    expect(Date.now() - started).toBeLessThan(20_000); // refused before connecting, not timed out
    expect(r.details).toMatchObject({ reports: urls.length, stored: 0, rejected: urls.length });
    for (const sample of r.details!.rejectSamples as string[]) expect(sample).toMatch(/address refused/);
    // Only the publication index was asked; no document fetch reached the fake.
    expect(cvr.requests.slice(asked).every((q) => !q.path.startsWith('/xbrl/'))).toBe(true);
  });

  it('missing credentials, a 401 and an expired scroll give a clear recorded error and lose nothing', async () => {
    const stored = await dkCount();
    const config = server.ctx.config.cvr;
    const saved = { ...config };
    try {
      config.password = undefined;
      await expect(runJob(server.ctx, 'cvr', {}, () => undefined)).rejects.toThrow(/CVR_USERNAME and CVR_PASSWORD/);
      config.password = 'wrong';
      await expect(runJob(server.ctx, 'cvr-updates', {}, () => undefined)).rejects.toThrow(
        /answered 401: the credentials were refused/,
      );
    } finally {
      Object.assign(config, saved);
    }
    cvr.expireScrollAfter = 1;
    try {
      await expect(runJob(server.ctx, 'cvr', {}, () => undefined)).rejects.toThrow(/scroll expired/);
    } finally {
      cvr.expireScrollAfter = null;
    }
    expect(await dkCount()).toBe(stored);
    // Nothing was marked deregistered by the broken walk.
    expect((await get(`/api/companies/${AS}?country=DK`)).body.isDeleted).toBe(false);
    const runs = await server.ctx.repos.syncRuns.latestBySource();
    expect(runs.cvr).toMatchObject({ status: 'error' });
    expect(JSON.stringify(runs.cvr)).toMatch(/scroll expired/);
  });
});
