// A statistics table that fails keeps its previous figures, and health shows its bureau as
// `degraded` with the table and the exact problem: a 500, a malformed JSON-stat document, a
// 429 storm, a Retry-After longer than the sync waits for. A 429 followed by an answer (after the
// Retry-After) is no problem at all, and a clean run clears the list. Real server, real HTTP,
// the bureaus faked (test/fakes/statistics.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { BUREAUS } from '../../src/sources/statistics/index.ts';
import { readFixture, readMetaFixture, startFakeStatistics, type FakeStatistics } from '../fakes/statistics.ts';
import { SAMPLE_INDUSTRIES, SAMPLE_PLACES } from '../fixtures/statistics/expected.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const SECRET = 'statistics-degraded-secret';
const quiet = () => undefined;

let stats: FakeStatistics;
let server: TestServer;
let key: string;

const health = async () =>
  (await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } })).body.dataSources;
const oslo = async () =>
  (await http(server.url, 'GET', '/api/market-context?country=NO&municipality=0301&nace=62', { key })).body;
const syncNorway = () => runJob(server.ctx, 'statistics', { country: 'NO' }, quiet);
const requestsOf = (table: string) => stats.requests.filter((r) => r.path === `/ssb/no/table/${table}/`).length;

beforeAll(async () => {
  stats = await startFakeStatistics();
  server = await startServer({ env: { ...stats.env, SYNC_SECRET: SECRET } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  const outcome = await runJob(server.ctx, 'statistics', {}, quiet);
  expect(outcome.details).toMatchObject({ failed: {}, failedTables: {} });
});
afterAll(async () => {
  await server?.close();
  await stats?.close();
});

describe('a failing statistics table', () => {
  it('starts healthy: every bureau ok, no tables listed', async () => {
    const sources = await health();
    for (const c of ['NO', 'SE', 'FI', 'DK']) {
      expect(sources[`statistics:${c}`].status).toBe('ok');
      expect(sources[`statistics:${c}`].tables).toBeUndefined();
    }
    const body = await oslo();
    expect(body.municipality.population.value).toBe(SAMPLE_PLACES.NO['0301'].population[0]);
    expect(body.industry.averageMonthlyWage.value).toBe(SAMPLE_INDUSTRIES.NO['62'].averageMonthlyWage[0]);
  });

  it.each([
    ['a 500', () => stats.failTables.add('07459'), '07459', '07459 answered 500'],
    [
      'a malformed JSON-stat document',
      () =>
        stats.overrideTables.set(
          '06944',
          JSON.stringify({
            version: '2.0',
            class: 'dataset',
            id: ['Region', 'Tid'],
            size: [2, 1],
            dimension: {},
            value: [1, 2],
          }),
        ),
      '06944',
      '06944: dimension Region has no category',
    ],
    [
      'a JSON-stat document whose sizes do not match its values',
      () =>
        stats.overrideTables.set(
          '06944',
          JSON.stringify({
            version: '2.0',
            class: 'dataset',
            id: ['Region', 'Tid'],
            size: [3, 1],
            dimension: {},
            value: [1],
          }),
        ),
      '06944',
      '06944: JSON-stat has 1 values for 3 cells',
    ],
    [
      'a JSON-stat document claiming huge dimensions',
      () =>
        stats.overrideTables.set(
          '07459',
          JSON.stringify({
            version: '2.0',
            class: 'dataset',
            id: ['Region', 'ContentsCode', 'Tid'],
            size: [100_000, 1, 100_000],
            dimension: {},
            value: { '0': 1 },
          }),
        ),
      '07459',
      '07459: JSON-stat claims 10000000000 cells (sizes 100000 x 1 x 100000), more than 1000000',
    ],
    [
      'a body that is not JSON',
      () => stats.overrideTables.set('07091', '{"version": "2.0", '),
      '07091',
      '07091: answer is not JSON',
    ],
    [
      'a 429 storm',
      () => stats.rateLimited.set('11419', { times: Infinity, retryAfter: '0' }),
      '11419',
      '11419 still answered 429 (rate limited) after 3 retries',
    ],
    [
      'a Retry-After longer than the sync waits',
      () => stats.rateLimited.set('12817', { times: 1, retryAfter: '3600' }),
      '12817',
      '12817 answered 429 (rate limited) with Retry-After 3600 s, longer than the 60 s waited for',
    ],
  ])('%s keeps the previous figures and shows the table and problem in health', async (_n, breakIt, table, problem) => {
    const before = await oslo();
    breakIt();
    const outcome = await syncNorway();
    stats.failTables.clear();
    stats.overrideTables.clear();
    stats.rateLimited.clear();
    expect(outcome.details).toMatchObject({ failed: {}, failedTables: { NO: [table] } });
    const after = await oslo();
    // The same figures; the failed table's record is the previous run's (the others are new).
    expect({ m: after.municipality, i: after.industry }).toEqual({ m: before.municipality, i: before.industry });
    const fetchedAt = (b: typeof before) => b.tables.find((t: { table: string }) => t.table === table).fetchedAt;
    expect(fetchedAt(after)).toBe(fetchedAt(before));
    const no = (await health())['statistics:NO'];
    expect(no).toMatchObject({ status: 'degraded', tables: [{ table, problem }] });
    expect(no.message).toContain(problem);
    expect((await health())['statistics:SE'].status).toBe('ok');
  });

  it('a 429 storm asks four times and no more', async () => {
    const asked = requestsOf('07091');
    stats.rateLimited.set('07091', { times: Infinity, retryAfter: '0' });
    await syncNorway();
    stats.rateLimited.clear();
    expect(requestsOf('07091') - asked).toBe(4);
  });

  it('a 429 answered after its Retry-After is no problem, and a clean run clears the list', async () => {
    const asked = requestsOf('11419');
    stats.rateLimited.set('11419', { times: 2, retryAfter: '0' });
    const outcome = await syncNorway();
    expect(outcome.details).toMatchObject({ failed: {}, failedTables: {} });
    // Two 429s on the metadata GET, then the GET and the data POST.
    expect(requestsOf('11419') - asked).toBe(4);
    const no = (await health())['statistics:NO'];
    expect(no).toMatchObject({ status: 'ok', message: null });
    expect(no.tables).toBeUndefined();
  });
});

describe('Statistics Finland tables read by their metadata', () => {
  const helsinki = async () =>
    (await http(server.url, 'GET', '/api/market-context?country=FI&municipality=091', { key })).body.municipality;
  const syncFinland = () => runJob(server.ctx, 'statistics', { country: 'FI' }, quiet);
  const meta11ra = () => JSON.parse(JSON.stringify(readMetaFixture('FI', BUREAUS.FI.tables[0])));

  it('asks for the post-June codes the metadata names, after a GET of it', async () => {
    const asked = stats.requests.filter((r) => r.path === '/statfi/fi/StatFin/vaerak/11ra.px');
    expect(asked.map((r) => r.method).slice(0, 2)).toEqual(['GET', 'POST']);
    expect(JSON.parse(asked[1].body).query.map((q: { code: string }) => q.code)).toEqual([
      'alue_23_20260101',
      'contentscode',
      'timeperiod_y',
    ]);
    const income = stats.requests.find((r) => r.method === 'POST' && r.path === '/statfi/fi/StatFin/tjt/14ww.px')!;
    expect(JSON.parse(income.body).query[0].code).toBe('alue_23_20250101');
    expect((await helsinki()).population.value).toBe(SAMPLE_PLACES.FI['091'].population[0]);
    expect((await helsinki()).householdIncome).toMatchObject({ value: 33525, year: 2024, table: '14ww' });
  });

  it('follows an area variable renamed between two runs (a new regional division)', async () => {
    const meta = meta11ra();
    meta.variables[0].code = 'alue_23_20270101';
    stats.overrideMeta.set('11ra', JSON.stringify(meta));
    const renamedData = JSON.stringify(readFixture('FI', BUREAUS.FI.tables[0])).replaceAll(
      'alue_23_20260101',
      'alue_23_20270101',
    );
    stats.overrideTables.set('11ra', renamedData);
    const outcome = await syncFinland();
    stats.overrideMeta.clear();
    stats.overrideTables.clear();
    expect(outcome.details).toMatchObject({ failed: {}, failedTables: {} });
    const last = stats.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/11ra.px')).at(-1)!;
    expect(JSON.parse(last.body).query[0].code).toBe('alue_23_20270101');
    expect((await health())['statistics:FI'].status).toBe('ok');
  });

  it.each([
    [
      'a renamed contents variable',
      (m: { variables: { code: string }[] }) => (m.variables[1].code = 'Tiedot'),
      '11ra: metadata no longer fits: the contents variable is missing (variables: alue_23_20260101, Tiedot, timeperiod_y); ' +
        'Tiedot cannot be eliminated and the definition chooses none of its 4 values ' +
        '(vaerak-vaesto, vaesto_alle15_p, vaesto_yli64_p, vaesto_keski_ika)',
    ],
    [
      'a missing value code',
      (m: { variables: { values: string[] }[] }) => (m.variables[1].values = ['vaesto', 'vaesto_keski_ika']),
      '11ra: metadata no longer fits: contentscode has no value vaerak-vaesto',
    ],
  ])('%s keeps the previous figures, asks no data, and shows the problem in health', async (_n, change, problem) => {
    const before = await helsinki();
    const meta = meta11ra();
    change(meta);
    stats.overrideMeta.set('11ra', JSON.stringify(meta));
    const posts = stats.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/11ra.px')).length;
    await syncFinland();
    stats.overrideMeta.clear();
    expect(stats.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/11ra.px')).length).toBe(posts);
    expect(await helsinki()).toEqual(before);
    expect((await health())['statistics:FI']).toMatchObject({
      status: 'degraded',
      tables: [{ table: '11ra', problem }],
    });
  });
});

describe('Statistics Denmark tables read by their tableinfo', () => {
  const syncDenmark = () => runJob(server.ctx, 'statistics', { country: 'DK' }, quiet);
  const gf11 = BUREAUS.DK.tables.find((t) => t.table === 'GF11')!;
  const it62 = async () =>
    (await http(server.url, 'GET', '/api/market-context?country=DK&nace=62', { key })).body.industry;
  const renamed = (from: string, to: string) => {
    stats.overrideMeta.set('GF11', JSON.stringify(readMetaFixture('DK', gf11)).replaceAll(from, to));
    stats.overrideTables.set('GF11', JSON.stringify(readFixture('DK', gf11)).replaceAll(from, to));
  };
  const clear = () => {
    stats.overrideMeta.clear();
    stats.overrideTables.clear();
  };

  it('follows an industry variable renamed between two runs, and asks the new code', async () => {
    renamed('BRANCHEDB071019127', 'BRANCHEDB071019127N');
    const outcome = await syncDenmark();
    clear();
    expect(outcome.details).toMatchObject({ failed: {}, failedTables: {} });
    const data = stats.requests.filter((r) => r.path === '/dst/data/GF11/JSONSTAT').at(-1)!;
    expect(decodeURIComponent(data.search)).toBe('?lang=en&BRANCHEDB071019127N=*&MÆNGDE4=AFI');
    expect((await it62()).enterprises).toMatchObject({
      value: SAMPLE_INDUSTRIES.DK['62'].enterprises[0],
      level: 'division',
    });
    expect((await health())['statistics:DK'].status).toBe('ok');
  });

  it.each([
    [
      'a renamed unit variable',
      () => renamed('MÆNGDE4', 'MAENGDE4'),
      'GF11: metadata no longer fits: variable MÆNGDE4 is missing (variables: BRANCHEDB071019127, MAENGDE4, Tid); MAENGDE4 cannot be eliminated and the definition chooses none of its 3 values (AFI, AFU, OMS)',
    ],
    [
      'a missing value code',
      () => stats.overrideMeta.set('GF11', JSON.stringify(readMetaFixture('DK', gf11)).replace('"AFI"', '"AFI2"')),
      'GF11: metadata no longer fits: MÆNGDE4 has no value AFI',
    ],
  ])('%s keeps the previous figures, asks no data, and shows the problem in health', async (_n, change, problem) => {
    const before = await it62();
    const asked = stats.requests.filter((r) => r.path === '/dst/data/GF11/JSONSTAT').length;
    change();
    const outcome = await syncDenmark();
    clear();
    expect(outcome.details).toMatchObject({ failed: {}, failedTables: { DK: ['GF11'] } });
    expect(stats.requests.filter((r) => r.path === '/dst/data/GF11/JSONSTAT').length).toBe(asked);
    expect(await it62()).toEqual(before);
    expect((await health())['statistics:DK']).toMatchObject({
      status: 'degraded',
      tables: [{ table: 'GF11', problem }],
    });
    await syncDenmark();
    expect((await health())['statistics:DK'].status).toBe('ok');
  });
});

describe('an unconfirmed table checked against its live metadata', () => {
  const t12817 = BUREAUS.NO.tables.find((t) => t.table === '12817')!;
  const enterprises = async () =>
    (await http(server.url, 'GET', '/api/market-context?country=NO&nace=47', { key })).body.industry.enterprises;

  it('makes the measure unavailable with the reason when it does not fit, and serves it again when it does', async () => {
    expect(await enterprises()).toMatchObject({
      table: '12817',
      level: 'section',
      value: SAMPLE_INDUSTRIES.NO['47'].enterprises[0],
    });
    stats.overrideMeta.set(
      '12817',
      JSON.stringify(readMetaFixture('NO', t12817)).replace('"Foretak"', '"Foretak2025"'),
    );
    const outcome = await syncNorway();
    stats.overrideMeta.clear();
    // No failure: the row is unconfirmed, so its misfit is a reason, not a degraded bureau.
    expect(outcome.details).toMatchObject({
      failed: {},
      failedTables: {},
      unavailable: {
        NO: [
          '12817: not confirmed (statistics-tables.md N5) and its metadata does not fit: ContentsCode has no value Foretak',
        ],
      },
    });
    expect(await enterprises()).toEqual({
      unavailable: true,
      source: 'SSB',
      table: '12817',
      reason:
        '12817: not confirmed (statistics-tables.md N5) and its metadata does not fit: ContentsCode has no value Foretak',
    });
    expect((await health())['statistics:NO'].status).toBe('ok');
    await syncNorway();
    expect(await enterprises()).toMatchObject({ table: '12817', level: 'section' });
  });
});
