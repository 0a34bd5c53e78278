// Lookup and batch enrich against a local fake of brreg.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { ROOT } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = (dir: string, f: string) => JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures', dir, f), 'utf8'));

let brreg: FakeBrreg;
let server: TestServer;
let key: string;

const SESAM = '976030788';

beforeAll(async () => {
  brreg = await startFakeBrreg();
  // Recorded payloads: SESAM AS (search page), a person's role, Equinor's 2024 accounts shape.
  const sesam = fixture('brreg', 'enheter-search-page1-response.json')._embedded.enheter[0];
  brreg.enheter.set(SESAM, sesam);
  brreg.roller.set(SESAM, fixture('brreg', 'enheter-roller-person-response.json'));
  const accounts = fixture('regnskap', 'regnskap-923609016-2024-thirdparty-fixture.json');
  accounts[0].virksomhet.organisasjonsnummer = SESAM;
  brreg.regnskap.set(SESAM, accounts);
  const sub = {
    ...fixture('brreg', 'underenheter-details-response.json'),
    overordnetEnhet: SESAM,
    nedleggelsesdato: undefined,
  };
  brreg.underenheter.set(sub.organisasjonsnummer, sub);
  brreg.enheter.set('123456785', {
    ...fixture('brreg', 'enheter-details-deleted-response.json'),
    organisasjonsnummer: '123456785',
  });
  for (let i = 0; i < 400; i++) brreg.add(generateCompany(i, 7));

  server = await startServer({
    overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 800 }) } },
  });
  key = (await createKey(server, { tier: 'internal' })).raw;
});
afterAll(async () => {
  await server?.close();
  await brreg?.close();
});
beforeEach(() => {
  brreg.resetCounters();
  brreg.latencyMs = 0;
});

const get = (p: string) => http(server.url, 'GET', p, { key });

const enrich = (body: unknown) => http(server.url, 'POST', '/api/companies/enrich', { key, body });

describe('GET /api/companies/{orgNumber}', () => {
  it('fetches a Norwegian miss live, stores it, and serves it with labels and provenance', async () => {
    const r = await get(`/api/companies/${SESAM}`);
    expect(r.status).toBe(200);
    const c = r.body;
    expect(c).toMatchObject({
      orgNumber: SESAM,
      country: 'NO',
      name: 'SESAM AS',
      orgFormCode: 'AS',
      naceCode1: '56.101',
      naceDescription1: 'Drift av restauranter og kafeer',
      employeeCount: 10,
      businessAddressStreet: 'Elgeseter gate 1',
      businessAddressMuniNo: '5001',
      foundingDate: '1995-12-12',
      isDeleted: false,
      naceName: 'Drift av restauranter og kafeer',
      orgFormName: 'Aksjeselskap',
      countryName: 'Norge',
      municipalityName: 'Trondheim',
      countyCode: '50',
      countyName: 'Trøndelag',
    });
    expect(c.roles).toEqual([
      expect.objectContaining({
        roleTypeCode: 'LEDE',
        personFirstName: 'Ove',
        personLastName: 'Olsen',
        personBirthYear: 1981,
      }),
    ]);
    expect(JSON.stringify(c)).not.toContain('1981-01-01');
    expect(c.financials).toEqual([
      expect.objectContaining({
        regnskapstype: 'SELSKAP',
        periodTo: '2024-12-31',
        revenue: 72543000000,
        netResult: 8141000000,
        equity: 41090000000,
        totalAssets: 109150000000,
        profitMargin: 11.22,
        equityRatio: 37.65,
        returnOnEquity: 19.81,
      }),
    ]);
    expect(c.subUnits).toEqual([expect.objectContaining({ orgNumber: '776655441', name: 'SESAM STASJON' })]);
    expect(c._sources.attribution).toEqual(
      expect.arrayContaining(['Brønnøysundregistrene', 'Regnskapsregisteret', 'SSB Klass']),
    );
    expect(c._sources.fields).toMatchObject({
      companyCore: 'Brønnøysundregistrene',
      roles: 'Brønnøysundregistrene',
      financials: 'Regnskapsregisteret',
      financialRatios: { source: 'Regnskapsregisteret', computed: true },
      industryLabel: 'SSB Klass',
      orgFormLabel: 'SSB Klass',
      countryLabel: 'SSB Klass',
    });
    expect(c._sources.fields.domain).toBeUndefined();
    expect(brreg.requests.length).toBeGreaterThan(0);

    brreg.resetCounters();
    const again = await get(`/api/companies/${SESAM}`);
    expect(again.status).toBe(200);
    expect(again.body.updatedAt).toBe(c.updatedAt);
    expect(brreg.requests).toHaveLength(0);
  });

  it('adds aggregate context with include=context', async () => {
    const r = await get(`/api/companies/${SESAM}?include=context`);
    expect(r.status).toBe(200);
    expect(r.body.context.municipality).toMatchObject({ code: '5001' });
    expect(r.body.context.municipality.companies).toBeGreaterThanOrEqual(1);
    expect(r.body.context.industry).toMatchObject({ naceDivision: '56' });
  });

  it('serves a deleted company with isDeleted and its deletion date', async () => {
    const r = await get('/api/companies/123456785');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      isDeleted: true,
      deletedDate: '2017-10-20',
      status: 'deleted',
      roles: [],
      financials: [],
    });
  });

  it.each([
    ['12345678', 'not 9 digits'],
    ['9760307880', 'ten digits'],
    ['976030789', 'bad check digit'],
    ['abcdefghi', 'letters'],
  ])('answers 400 for %s (%s) without asking brreg', async (n) => {
    const r = await get(`/api/companies/${n}`);
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('params.orgNumber');
    expect(brreg.requests).toHaveLength(0);
  });

  it('answers 404 for a number brreg does not know, and for a unit removed for legal reasons', async () => {
    expect((await get('/api/companies/974760673')).status).toBe(404);
    brreg.gone.add('986105174');
    const gone = await get('/api/companies/986105174');
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('company_not_found');
  });

  it('never fetches Finnish or Swedish misses: 404', async () => {
    expect((await get('/api/companies/2646674-9?country=FI')).status).toBe(404);
    expect((await get('/api/companies/5560000001?country=SE')).status).toBe(404);
    expect((await get('/api/companies/5560000002?country=SE')).status).toBe(400);
    expect((await get('/api/companies/2646674-9?country=DE')).status).toBe(400);
    expect(brreg.requests).toHaveLength(0);
  });

  it('answers 502 when brreg fails or times out for a miss', async () => {
    const a = generateCompany(300, 7).enhet.organisasjonsnummer;
    const b = generateCompany(301, 7).enhet.organisasjonsnummer;
    brreg.failFor.add(a);
    brreg.hangFor.add(b);
    try {
      expect((await get(`/api/companies/${a}`)).body.code).toBe('upstream_unavailable');
      const t0 = Date.now();
      expect((await get(`/api/companies/${b}`)).status).toBe(502);
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      brreg.failFor.clear();
      brreg.hangFor.clear();
    }
  });
});

describe('POST /api/companies/enrich', () => {
  it('answers duplicates once, reports misses in the shape of the request', async () => {
    const n = generateCompany(150, 7).enhet.organisasjonsnummer;
    const r = await enrich({ orgNumbers: [n, n, '974760673'] });
    expect(r.body.data.map((d: { orgNumber: string }) => d.orgNumber)).toEqual([n]);
    expect(r.body.notFound).toEqual(['974760673']);

    const p = await enrich({
      pairs: [
        { orgNumber: n },
        { orgNumber: '2646674-9', country: 'FI' },
        { orgNumber: '5560000001', country: 'SE' },
        { orgNumber: '974760673', country: 'NO' },
      ],
    });
    expect(p.status).toBe(200);
    expect(p.body.data.map((d: { orgNumber: string }) => d.orgNumber)).toEqual([n]);
    expect(p.body.notFound).toEqual([
      { orgNumber: '2646674-9', country: 'FI' },
      { orgNumber: '5560000001', country: 'SE' },
      { orgNumber: '974760673', country: 'NO' },
    ]);
    expect(brreg.requests.some((q) => q.path.includes('2646674') || q.query.includes('5560000001'))).toBe(false);
  });

  it('does not fail the batch when brreg fails, times out or garbles the answer for some numbers', async () => {
    const ok = [160, 161, 162].map((i) => generateCompany(i, 7).enhet.organisasjonsnummer);
    const bad = generateCompany(170, 7).enhet.organisasjonsnummer;
    const slow = generateCompany(171, 7).enhet.organisasjonsnummer;
    const garbled = generateCompany(172, 7).enhet.organisasjonsnummer;
    brreg.failFor.add(bad);
    brreg.hangFor.add(slow);
    brreg.malformedFor.add(garbled);
    try {
      const r = await enrich({ orgNumbers: [...ok, bad, slow, garbled] });
      expect(r.status).toBe(200);
      expect(r.body.data.map((d: { orgNumber: string }) => d.orgNumber).sort()).toEqual([...ok].sort());
      expect([...r.body.unavailable].sort()).toEqual([bad, slow, garbled].sort());
      expect(r.body.notFound).toEqual([]);
    } finally {
      brreg.failFor.clear();
      brreg.hangFor.clear();
      brreg.malformedFor.clear();
    }
  });

  it.each([
    [{}, 'body'],
    [{ orgNumbers: ['976030788'], pairs: [{ orgNumber: '976030788' }] }, 'body'],
    [{ orgNumbers: [] }, 'body.orgNumbers'],
    [{ orgNumbers: Array.from({ length: 101 }, () => '976030788') }, 'body.orgNumbers'],
    [{ orgNumbers: ['976030788', '12345'] }, 'body.orgNumbers.1'],
    [{ orgNumbers: ['976030789'] }, 'body.orgNumbers.0'],
    [{ pairs: [{ orgNumber: '2646674-8', country: 'FI' }] }, 'body.pairs.0.orgNumber'],
    [{ pairs: [{ orgNumber: '976030788', country: 'US' }] }, 'body.pairs.0.country'],
    [{ orgNumbers: [976030788] }, 'body.orgNumbers.0'],
  ])('answers 400 for %j naming %s', async (body, pathName) => {
    const r = await enrich(body);
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(pathName);
  });

  it('counts as one request against the quotas', async () => {
    const k = await createKey(server, { tier: 'pro' });
    const numbers = Array.from({ length: 20 }, (_, i) => generateCompany(i, 7).enhet.organisasjonsnummer);
    await http(server.url, 'POST', '/api/companies/enrich', { key: k.raw, body: { orgNumbers: numbers } });
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: k.raw });
    expect(usage.body.usage.today).toBe(1);
  });
});
