// Market context end to end: `ncd sync statistics` against a local fake of the four bureaus
// (JSON-stat fixtures), then GET /api/market-context, include=context for stored NO, FI, SE and
// DK companies (the store aggregates beside the figures), the MCP tool, health's
// statistics:<country> entries, and a failing bureau.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { BUREAUS, STAT_COUNTRIES, type StatCountry } from '../../src/sources/statistics/index.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { startFakeCvr, type FakeCvr } from '../fakes/cvr/server.ts';
import { startFakePrh, zipOf, type FakePrh } from '../fakes/prh/server.ts';
import { PREFIX, startFakeStatistics, type FakeStatistics } from '../fakes/statistics.ts';
import { SAMPLE_INDUSTRIES, SAMPLE_PLACES } from '../fixtures/statistics/expected.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const SECRET = 'market-context-sync-secret';
const BULK_PATH = '/bolagsverket/bulkfil.zip';
const fixture = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const WOLT = '2646674-9'; // Helsinki (091), NACE 96999
const NORDLYS = '5566778899'; // post town GÖTEBORG: kommun 1480
const NORDLYS_DK = '35540008'; // CVR: kommune 101 (København), branchekode 282900

let stats: FakeStatistics;
let brreg: FakeBrreg;
let prh: FakePrh;
let cvr: FakeCvr;
let server: TestServer;
let key: string;
let oslo: string;

const quiet = () => undefined;
const health = async () =>
  (await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } })).body.dataSources;
const context = (q: string) => http(server.url, 'GET', `/api/market-context?${q}`, { key });

beforeAll(async () => {
  stats = await startFakeStatistics();
  brreg = await startFakeBrreg();
  const company = generateCompany(7, 5);
  company.enhet.forretningsadresse = { ...company.enhet.forretningsadresse!, kommunenummer: '0301', kommune: 'OSLO' };
  company.enhet.naeringskode1 = {
    kode: '47.110',
    beskrivelse: 'Butikkhandel med hovedvekt på nærings- og nytelsesmidler',
  };
  brreg.add(company);
  oslo = company.enhet.organisasjonsnummer;
  prh = await startFakePrh();
  prh.companies = [JSON.parse(fixture('prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json')).companies[0]];
  prh.files.set(BULK_PATH, {
    body: await zipOf('bolagsverket_bulkfil.txt', fixture('bolagsverket/bulkfil-quirks.txt')),
    contentType: 'application/zip',
  });
  cvr = await startFakeCvr();
  cvr.hits = fixture('cvr/virksomheder.ndjson')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  server = await startServer({
    env: {
      ...stats.env,
      ...cvr.env,
      SYNC_SECRET: SECRET,
      PRH_BASE_URL: prh.baseUrl,
      BOLAGSVERKET_BULK_URL: `${prh.url}${BULK_PATH}`,
    },
    overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 2000 }) } },
  });
  key = (await createKey(server, { tier: 'internal' })).raw;
  await runJob(server.ctx, 'prh', {}, quiet);
  await runJob(server.ctx, 'bolagsverket', {}, quiet);
  await runJob(server.ctx, 'cvr', {}, quiet);
  const outcome = await runJob(server.ctx, 'statistics', {}, quiet);
  expect(outcome.details).toMatchObject({ failed: {} });
});
afterAll(async () => {
  await server?.close();
  await Promise.all([stats?.close(), brreg?.close(), prh?.close(), cvr?.close()]);
});

describe('ncd sync statistics', () => {
  it("reads each table's metadata before its data: PxWeb GET then POST (JSON-stat 2.0), StatBank tableinfo then data", () => {
    for (const country of ['NO', 'SE', 'FI'] as const)
      for (const def of BUREAUS[country].tables) {
        const asked = stats.requests.filter((r) => r.path === `${PREFIX[country]}/${def.path}`);
        // An unconfirmed table whose metadata does not fit is not asked for data (FI 13wz, 13ww).
        const fits = def.evidence.status !== 'unconfirmed' || country !== 'FI';
        expect(asked.map((r) => r.method).slice(0, 2), def.table).toEqual(fits ? ['GET', 'POST'] : ['GET']);
        if (fits) expect(JSON.parse(asked[1].body).response).toEqual({ format: 'json-stat2' });
      }
    const dk = stats.requests.filter((r) => r.path.startsWith('/dst/')).map((r) => `${r.method} ${r.path}`);
    expect(dk.slice(0, BUREAUS.DK.tables.length * 2)).toEqual(
      BUREAUS.DK.tables.flatMap((t) => [`GET /dst/tableinfo/${t.table}`, `GET /dst/data/${t.table}/JSONSTAT`]),
    );
  });

  it('stores an unconfirmed table whose metadata does not fit as unavailable, with the reason', async () => {
    const r = await context('country=FI&municipality=091&nace=62');
    expect(r.body.municipality.enterprises).toEqual({
      unavailable: true,
      source: 'Statistics Finland',
      table: '13wz',
      reason:
        '13wz: not confirmed (statistics-tables.md F3) and its metadata does not fit: contentscode cannot be eliminated ' +
        'and the definition chooses none of its 2 values (placeholder-toimipaikat, placeholder-henkilosto)',
    });
    expect(r.body.municipality.enterprisesPer1000).toMatchObject({ unavailable: true, table: '13wz' });
    expect(r.body.industry.enterprises).toMatchObject({ unavailable: true, table: '13ww' });
    expect(r.body.tables.map((t: { table: string }) => t.table)).not.toContain('13wz');
    // An unconfirmed table whose metadata fits is used: SSB 12817 (N5), by section.
    const no = await context('country=NO&nace=62');
    expect(no.body.industry.enterprises).toMatchObject({ table: '12817', level: 'section', label: expect.any(String) });
  });

  it('records one healthy data source per bureau', async () => {
    const sources = await health();
    for (const c of STAT_COUNTRIES)
      expect(sources[`statistics:${c}`]).toMatchObject({
        status: 'ok',
        recordsProcessed: expect.any(Number),
        message: null,
      });
  });
});

describe('GET /api/market-context', () => {
  it.each(STAT_COUNTRIES)(
    '%s: the figures of three sample municipalities equal the recorded responses',
    async (country) => {
      const bureau = BUREAUS[country];
      for (const [code, measures] of Object.entries(SAMPLE_PLACES[country])) {
        const r = await context(`country=${country}&municipality=${code}`);
        expect(r.status).toBe(200);
        expect(r.body.industry).toBeNull();
        expect(r.body.municipality.code).toBe(code);
        expect(r.body.municipality.name).toEqual(expect.any(String));
        for (const [measure, [value, year]] of Object.entries(measures)) {
          const table = bureau.tables.find((t) => t.scope === 'municipality' && t.measure === measure)!;
          expect(r.body.municipality[measure]).toEqual({
            value,
            year,
            unit: table.unit,
            table: table.table,
            source: bureau.name,
            level: 'municipality',
            label: null,
            licence: bureau.licence,
          });
        }
        const { population, enterprises } = r.body.municipality;
        // A measure the bureau has no usable table for is unavailable with the reason, and so is what is computed from it.
        if (!measures.enterprises) {
          expect(enterprises).toEqual(
            expect.objectContaining({ unavailable: true, source: bureau.name, reason: expect.any(String) }),
          );
          expect(r.body.municipality.enterprisesPer1000).toMatchObject({
            unavailable: true,
            reason: `computed from enterprises, which is unavailable: ${enterprises.reason}`,
          });
        } else
          expect(r.body.municipality.enterprisesPer1000).toEqual({
            value: Math.round((enterprises.value / population.value) * 100_000) / 100,
            unit: `${enterprises.unit} per 1,000 inhabitants`,
            year: enterprises.year,
            source: bureau.name,
            table: `${enterprises.table}+${population.table}`,
            level: 'municipality',
            label: null,
            licence: bureau.licence,
            computed: true,
          });
        expect(r.body._sources).toEqual({
          attribution: [bureau.name],
          licences: [{ source: bureau.name, licence: bureau.licence }],
        });
        expect(r.body.tables.map((t: { measure: string }) => t.measure).sort()).toEqual(Object.keys(measures).sort());
        for (const t of r.body.tables)
          expect(t).toMatchObject({
            source: bureau.name,
            licence: bureau.licence,
            fetchedAt: expect.any(String),
            url: expect.stringContaining(stats.baseUrls[country]),
          });
      }
    },
  );

  it.each(STAT_COUNTRIES)(
    '%s: each sample NACE division gets every figure the bureau publishes, at its level',
    async (country) => {
      const bureau = BUREAUS[country];
      for (const [division, measures] of Object.entries(SAMPLE_INDUSTRIES[country])) {
        const r = await context(`country=${country}&nace=${division}.1`);
        expect(r.status).toBe(200);
        expect(r.body.municipality).toBeNull();
        expect(r.body.industry.naceDivision).toBe(division);
        for (const measure of ['averageMonthlyWage', 'enterprises', 'startupSurvivalRate']) {
          const want = measures[measure];
          if (!want) {
            expect(r.body.industry[measure], `${division} ${measure}`).toEqual(
              expect.objectContaining({ unavailable: true, source: bureau.name, reason: expect.any(String) }),
            );
            continue;
          }
          const [value, year, level] = want;
          const table = bureau.tables.find((t) => t.scope === 'industry' && t.measure === measure)!;
          expect(r.body.industry[measure], `${division} ${measure}`).toEqual({
            value,
            year,
            unit: table.unit,
            table: table.table,
            source: bureau.name,
            level,
            label: expect.any(String),
            licence: bureau.licence,
            ...(measure === 'startupSurvivalRate' ? { cohort: 2019 } : {}),
          });
        }
      }
    },
  );

  it('nace=62 and nace=47 give industry figures in each country where the bureau publishes them', async () => {
    const got = async (country: string, nace: string) => {
      const { industry } = (await context(`country=${country}&nace=${nace}`)).body;
      return Object.fromEntries(
        ['averageMonthlyWage', 'enterprises', 'startupSurvivalRate'].map((m) => [
          m,
          'unavailable' in industry[m] ? 'unavailable' : `${industry[m].level} ${industry[m].table}`,
        ]),
      );
    };
    expect(await got('NO', '62')).toEqual({
      averageMonthlyWage: 'division 11419',
      enterprises: 'section 12817',
      startupSurvivalRate: 'unavailable',
    });
    expect(await got('SE', '47')).toEqual({
      averageMonthlyWage: 'section LonSNIKonN',
      enterprises: 'division FDBR07N',
      startupSurvivalRate: 'unavailable',
    });
    expect(await got('DK', '62')).toEqual({
      averageMonthlyWage: 'unavailable',
      enterprises: 'division GF11',
      startupSurvivalRate: 'grouping DEMO16',
    });
    expect(await got('FI', '47')).toEqual({
      averageMonthlyWage: 'unavailable',
      enterprises: 'unavailable',
      startupSurvivalRate: 'unavailable',
    });
    // A section's or grouping's figure says so and names itself; it is never the division's.
    const dk = (await context('country=DK&nace=47')).body.industry.startupSurvivalRate;
    expect(dk).toMatchObject({
      level: 'grouping',
      label: 'Handel og transport mv. (Statistics Denmark DB07 10-grouping)',
    });
    const se = (await context('country=SE&nace=62')).body.industry.averageMonthlyWage;
    expect(se).toMatchObject({ level: 'section', label: 'informations- och kommunikationsverksamhet', value: 52600 });
  });

  it('answers a municipality the bureau has no figures for with nulls, and names it from the lists', async () => {
    const r = await context('country=DK&municipality=825&nace=01');
    expect(r.status).toBe(200);
    expect(r.body.municipality).toMatchObject({
      code: '825',
      name: 'Læsø',
      countyCode: '1081',
      countyName: 'Region Nordjylland',
      population: null,
      enterprisesPer1000: null,
    });
    // No figure for division 01 either; the wage is unavailable (D4), with the reason.
    expect(r.body.industry).toMatchObject({
      naceDivision: '01',
      enterprises: null,
      averageMonthlyWage: { unavailable: true, reason: expect.stringContaining('LONS40') },
    });
    expect(r.body._sources.attribution).toEqual([]);
  });

  it.each([
    ['', 'query'],
    ['country=SE&municipality=091', 'query.municipality'],
    ['country=FI&municipality=0301', 'query.municipality'],
    ['country=IS&municipality=0301', 'query.country'],
    ['municipality=abcd', 'query.municipality'],
    ['nace=4', 'query.nace'],
  ])('answers 400 with details for %j', async (q, path) => {
    const r = await context(q);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.details).toEqual([expect.objectContaining({ path })]);
  });

  it('requires a key', async () => {
    expect((await http(server.url, 'GET', '/api/market-context?municipality=0301')).status).toBe(401);
  });
});

describe('include=context', () => {
  type Row = {
    orgNumber: string;
    isDeleted: boolean;
    naceCode1: string | null;
    businessAddressMuniNo: string | null;
    businessAddressCity: string | null;
    postalAddressCity: string | null;
  };
  /** The stored companies of a country, as the API lists them (the oracle of the store aggregates). */
  const listed = async (country: string): Promise<Row[]> => {
    const r = await http(server.url, 'GET', `/api/companies?country=${country}&limit=50`, { key });
    expect(r.status).toBe(200);
    return (r.body.data as Row[]).filter((c) => !c.isDeleted);
  };

  it('adds the bureau figures beside the store aggregates for a NO, a FI, a SE and a DK company', async () => {
    // [orgNumber, country, municipality, division, is the listed company in the municipality]
    const cases: [string, StatCountry, string, string | null, (c: Row) => boolean][] = [
      [oslo, 'NO', '0301', '47', (c) => c.businessAddressMuniNo === '0301'],
      [WOLT, 'FI', '091', '96', (c) => c.businessAddressMuniNo === '091'],
      // Bolagsverket gives the post town only: the kommun is the town's (the aggregate was 0 before).
      [
        NORDLYS,
        'SE',
        '1480',
        null,
        (c) => (c.businessAddressCity ?? c.postalAddressCity)?.toLocaleUpperCase('sv') === 'GÖTEBORG',
      ],
      [NORDLYS_DK, 'DK', '101', '28', (c) => ['101', '0101'].includes(c.businessAddressMuniNo ?? '')],
    ];
    for (const [orgNumber, country, municipality, division, inPlace] of cases) {
      const r = await http(server.url, 'GET', `/api/companies/${orgNumber}?country=${country}&include=context`, {
        key,
      });
      expect(r.status).toBe(200);
      const stored = await listed(country);
      const here = stored.filter(inPlace).length;
      expect(here).toBeGreaterThan(0);
      const sample = SAMPLE_PLACES[country][municipality];
      const [population, year] = sample.population;
      expect(r.body.context.municipality).toMatchObject({
        code: municipality,
        companies: here,
        population: { value: population, year, source: BUREAUS[country].name },
        householdIncome: expect.objectContaining({ value: sample.householdIncome[0] }),
        enterprises: sample.enterprises
          ? expect.objectContaining({
              value: sample.enterprises[0],
              level: 'municipality',
              licence: BUREAUS[country].licence,
            })
          : expect.objectContaining({ unavailable: true }),
      });
      expect(r.body.context.industry.naceDivision).toBe(division);
      expect(r.body.context.industry.companies).toBe(
        division ? stored.filter((c) => c.naceCode1?.startsWith(division)).length : 0,
      );
      if (division) {
        expect(r.body.context.industry.companies).toBeGreaterThan(0);
        const wage = SAMPLE_INDUSTRIES[country][division].averageMonthlyWage;
        expect(r.body.context.industry.averageMonthlyWage).toEqual(
          wage
            ? expect.objectContaining({ value: wage[0], level: wage[2], source: BUREAUS[country].name })
            : expect.objectContaining({ unavailable: true, reason: expect.any(String) }),
        );
        // DK survival by its 10-grouping (CVR 282900: group 2), the same figure as GET /api/market-context.
        if (country === 'DK')
          expect(r.body.context.industry.startupSurvivalRate).toEqual(
            (await context(`country=DK&nace=${division}`)).body.industry.startupSurvivalRate,
          );
      }
      expect(r.body._sources.attribution).toContain(BUREAUS[country].name);
    }
  });

  it('adds the figures to search rows too', async () => {
    const r = await http(server.url, 'GET', '/api/companies?country=FI&q=wolt&include=context', { key });
    expect(r.status).toBe(200);
    expect(r.body.data[0].context.municipality.population.value).toBe(SAMPLE_PLACES.FI['091'].population[0]);
    expect(r.body.data[0]._sources.attribution).toContain('Statistics Finland');
  });
});

describe('MCP get_market_context', () => {
  it('is listed and answers the REST figures for a company', async () => {
    const client = new Client({ name: 'market-context-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'get_market_context')!;
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['country', 'orgNumber']);
      const r = await client.callTool({ name: 'get_market_context', arguments: { orgNumber: WOLT, country: 'FI' } });
      expect(r.isError).toBeFalsy();
      const rest = await context('country=FI&municipality=091&nace=96');
      expect(r.structuredContent).toEqual({ orgNumber: WOLT, name: expect.any(String), ...rest.body });
      const missing = await client.callTool({
        name: 'get_market_context',
        arguments: { orgNumber: '1234567-1', country: 'FI' },
      });
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('GET /api/municipalities?country=', () => {
  it.each([
    ['SE', 21, 290, { code: '1480', name: 'Göteborg' }, '14'],
    ['FI', 19, 309, { code: '091', name: 'Helsinki' }, '01'],
    ['DK', 5, 98, { code: '101', name: 'København' }, '1084'],
  ])('%s: %i counties, %i municipalities', async (country, counties, count, sample, county) => {
    const r = await http(server.url, 'GET', `/api/municipalities?country=${country}`, { key });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(counties);
    expect(r.body.data.flatMap((g: { municipalities: unknown[] }) => g.municipalities)).toHaveLength(count);
    const one = await http(server.url, 'GET', `/api/municipalities?country=${country}&county=${county}`, { key });
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0].municipalities).toContainEqual(sample);
  });

  it('keeps Norway the default and refuses a four-digit county outside Denmark', async () => {
    const r = await http(server.url, 'GET', '/api/municipalities?county=03', { key });
    expect(r.body).toEqual({
      data: [{ countyCode: '03', countyName: 'Oslo', municipalities: [{ code: '0301', name: 'Oslo' }] }],
    });
    const bad = await http(server.url, 'GET', '/api/municipalities?county=1084', { key });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'query.county' })]);
  });
});

// Last: these change the stored state of SE and FI on purpose.
describe('a failing bureau', () => {
  it('answering 500 keeps the previous figures and shows the error in health', async () => {
    const before = (await context('country=SE&municipality=0180')).body;
    const okBefore = (await health())['statistics:SE'].lastSuccess;
    stats.failStatus.SE = 500;
    await expect(runJob(server.ctx, 'statistics', { country: 'SE' }, quiet)).rejects.toThrow(/answered 500/);
    expect((await context('country=SE&municipality=0180')).body).toEqual(before);
    const sources = await health();
    expect(sources['statistics:SE']).toMatchObject({ status: 'error', lastSuccess: okBefore });
    expect(sources['statistics:SE'].message).toMatch(/answered 500/);
    expect(sources['statistics:NO'].status).toBe('ok');
    delete stats.failStatus.SE;
  });

  it('a malformed JSON-stat document keeps the previous figures; the other bureaus still sync', async () => {
    const before = (await context('country=FI&municipality=091&nace=62')).body;
    stats.overrideBody.FI = JSON.stringify({
      version: '2.0',
      class: 'dataset',
      id: ['Alue', 'Vuosi'],
      size: [2, 1],
      dimension: {},
      value: [1],
    });
    const outcome = await runJob(server.ctx, 'statistics', {}, quiet);
    expect(Object.keys(outcome.details!.failed as object)).toEqual(['FI']);
    expect((await context('country=FI&municipality=091&nace=62')).body).toEqual(before);
    const sources = await health();
    expect(sources['statistics:FI']).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/JSON-stat has 1 values for 2 cells/),
    });
    expect(sources['statistics:SE'].status).toBe('ok');
    delete stats.overrideBody.FI;
  });

  it("a failing table keeps its previous figures while the bureau's other tables are replaced", async () => {
    type Table = { scope: string; measure: string; table: string; fetchedAt: string };
    const read = async () => {
      const { tables, ...rest } = (await context('country=DK&municipality=101')).body;
      const fetched = Object.fromEntries((tables as Table[]).map((t) => [t.table, Date.parse(t.fetchedAt)]));
      return { rest, fetched };
    };
    const before = await read();
    const [failing, ...others] = BUREAUS.DK.tables.filter((t) => t.scope === 'municipality');
    stats.failTables.add(failing.table);
    const outcome = await runJob(server.ctx, 'statistics', { country: 'DK' }, quiet);
    stats.failTables.delete(failing.table);
    expect(outcome.details).toMatchObject({ failed: {}, failedTables: { DK: [failing.table] } });
    const after = await read();
    // Same figures; the failed table's record is the previous run's, every other one is new.
    expect(after.rest).toEqual(before.rest);
    expect(Object.keys(after.fetched).sort()).toEqual(Object.keys(before.fetched).sort());
    expect(after.fetched[failing.table]).toBe(before.fetched[failing.table]);
    for (const t of others) expect(after.fetched[t.table]).toBeGreaterThan(before.fetched[t.table]);
    expect((await health())['statistics:DK']).toMatchObject({
      status: 'degraded',
      tables: [{ table: failing.table, problem: `${failing.table} answered 500` }],
      message: expect.stringMatching(
        new RegExp(`^1 of ${BUREAUS.DK.tables.length} tables failed.*${failing.table} answered 500`),
      ),
    });
  });

  it('refuses an unknown --country', async () => {
    await expect(runJob(server.ctx, 'statistics', { country: 'IS' }, quiet)).rejects.toThrow(
      /--country must be one of/,
    );
  });
});
