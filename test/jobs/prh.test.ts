// The Finnish syncs end to end on a real store: `prh` (all_companies ZIP from a local fake of
// PRH, or a file) and `prh-updates` (the paged /companies walk from the stored position).
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRH_UPDATES_STATE, type PrhUpdatesState } from '../../src/jobs/prh.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { generatePrhJsonArray } from '../../src/sources/prh/index.ts';
import { startFakePrh, type FakePrh } from '../fakes/prh/server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { writeZip } from '../sources/prh/zip-writer.ts';

type Company = Record<string, unknown>;

let prh: FakePrh;
let server: TestServer;
let dir: string;
let all: Company[];
const messages: string[] = [];

const WOLT_ID = '2646674-9';
const wolt: Company = JSON.parse(
  readFileSync(new URL('../fixtures/prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json', import.meta.url), 'utf8'),
).companies[0];
const idOf = (c: Company) => (c.businessId as { value: string }).value;

async function generated(count: number, seed: number): Promise<Company[]> {
  let text = '';
  for await (const chunk of generatePrhJsonArray(count, seed)) text += chunk;
  return JSON.parse(text);
}

const run = (name: string, opts: Parameters<typeof runJob>[2] = {}) =>
  runJob(server.ctx, name, opts, (m) => messages.push(m));

async function zipFile(name: string, companies: Company[]): Promise<string> {
  const file = path.join(dir, name);
  await writeZip(file, [{ name: 'all_companies.json', data: JSON.stringify(companies) }]);
  return file;
}

async function finnishRows() {
  const r = await sql<{ org_number: string; updated_at: Date; is_deleted: boolean; status: string }>`
    SELECT org_number, updated_at, is_deleted, status FROM companies WHERE country = 'FI' ORDER BY org_number`.execute(
    server.ctx.store.db,
  );
  return new Map(r.rows.map((x) => [x.org_number, { ...x, updated_at: new Date(x.updated_at).toISOString() }]));
}

beforeAll(async () => {
  prh = await startFakePrh();
  server = await startServer({ env: { PRH_BASE_URL: prh.baseUrl } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'prh-job-'));
  all = [wolt, ...(await generated(200, 11))];
});
afterAll(async () => {
  await server?.close();
  await prh?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ncd sync prh', () => {
  it('downloads all_companies from PRH_BASE_URL and stores every company with YTJ provenance and labels', async () => {
    prh.companies = all;
    const r = await run('prh');
    expect(r.recordsProcessed).toBe(201);
    expect(r.details).toMatchObject({ inserted: 201, changed: 0, deregistered: 0, absentMarked: true, rejected: 0 });
    expect(prh.requests).toEqual([
      { path: '/opendata-ytj-api/v3/all_companies', query: '', accept: 'application/zip' },
    ]);

    const c = await server.services.companies.lookup('FI', WOLT_ID);
    expect(c).toMatchObject({
      orgNumber: WOLT_ID,
      country: 'FI',
      name: 'Wolt Oy',
      orgFormCode: '16',
      orgFormDescription: 'Osakeyhtiö',
      orgFormName: 'Osakeyhtiö',
      countryName: 'Finland',
      naceCode1: '96999',
      businessAddressStreet: 'Pohjoinen Rautatiekatu 21',
      businessAddressPostalCode: '00100',
      businessAddressCity: 'HELSINKI',
      businessAddressMuniNo: '091',
      registrationDate: '2014-10-29',
      isDeleted: false,
      status: 'registered',
      roles: [],
      financials: [],
    });
    expect(c._sources.fields).toMatchObject({ companyCore: 'YTJ', orgFormLabel: 'YTJ' });
    expect(c._sources.attribution).toContain('YTJ');
    expect(c._sources.fields.roles).toBeUndefined();

    // The generator's ceased companies (every 20th) arrive deregistered from the file itself.
    const rows = await finnishRows();
    expect([...rows.values()].filter((x) => x.is_deleted)).toHaveLength(10);
    // The page walk is set to continue from shortly before this file.
    const state = await server.ctx.repos.syncRuns.getState<PrhUpdatesState>(PRH_UPDATES_STATE);
    expect(state).toMatchObject({ page: 1, seen: 0 });
    expect(state!.registrationDateStart).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('changes no updatedAt when the same file is synced again (here from --file)', async () => {
    const before = await finnishRows();
    const file = await zipFile('same.zip', all);
    await utimes(file, new Date('2026-02-01T12:00:00Z'), new Date('2026-02-01T12:00:00Z'));
    const r = await run('prh', { file });
    expect(r.details).toMatchObject({ inserted: 0, changed: 0, unchanged: 201, deregistered: 0 });
    expect(await finnishRows()).toEqual(before);
    // An older local file: the page walk starts a week before the file, not before today.
    expect(await server.ctx.repos.syncRuns.getState(PRH_UPDATES_STATE)).toEqual({
      registrationDateStart: '2026-01-25',
      page: 1,
      seen: 0,
    });
  });

  it('marks a company missing from the next full file as deregistered, visible as changed, and revives it when it returns', async () => {
    const gone = all[1];
    const before = await finnishRows();
    expect(before.get(idOf(gone))!.is_deleted).toBe(false);
    const r = await run('prh', {
      file: await zipFile(
        'less.zip',
        all.filter((c) => c !== gone),
      ),
    });
    expect(r.details).toMatchObject({ inserted: 0, changed: 0, deregistered: 1, absentMarked: true });

    const after = await finnishRows();
    const changed = [...after.values()].filter((x) => x.updated_at !== before.get(x.org_number)!.updated_at);
    expect(changed.map((x) => x.org_number)).toEqual([idOf(gone)]);
    const c = await server.services.companies.lookup('FI', idOf(gone));
    expect(c).toMatchObject({ isDeleted: true, status: 'deregistered' });
    expect(c.updatedAt > before.get(idOf(gone))!.updated_at).toBe(true);

    const back = await run('prh', { file: await zipFile('back.zip', all) });
    expect(back.details).toMatchObject({ changed: 1, deregistered: 0 });
    expect(await server.services.companies.lookup('FI', idOf(gone))).toMatchObject({
      isDeleted: false,
      status: 'registered',
    });
  });

  it('deregisters nothing when the file holds fewer than half the live companies (truncated download)', async () => {
    const before = await finnishRows();
    messages.length = 0;
    const r = await run('prh', { file: await zipFile('truncated.zip', all.slice(0, 60)) });
    expect(r.details).toMatchObject({ processed: 60, deregistered: 0, absentMarked: false });
    expect(messages.join('\n')).toContain('looks truncated');
    expect(await finnishRows()).toEqual(before);
  });

  it('does not mark absent companies when --limit stops the file early', async () => {
    const before = await finnishRows();
    const r = await run('prh', { file: await zipFile('limited.zip', all), limit: 150 });
    expect(r.details).toMatchObject({ processed: 150, deregistered: 0, absentMarked: false });
    expect(await finnishRows()).toEqual(before);
  });

  it('reads the JSON array plain or gzipped, and skips (and reports) a company it cannot read', async () => {
    const bad = { businessId: { value: '1234567-0' }, names: [{ name: 'Bad check digit Oy', type: '1' }] };
    const json = JSON.stringify([...all.slice(0, 150), bad, ...all.slice(150)]);
    const plain = path.join(dir, 'all.json');
    await writeFile(plain, json);
    const r = await run('prh', { file: plain });
    expect(r.details).toMatchObject({ processed: 201, changed: 0, deregistered: 0, rejected: 1 });
    expect((r.details as { rejectSamples: string[] }).rejectSamples[0]).toContain('element 150');
    const gz = path.join(dir, 'all.json.gz');
    await writeFile(gz, gzipSync(json));
    expect((await run('prh', { file: gz })).details).toMatchObject({ processed: 201, changed: 0, rejected: 1 });
  });

  it('fails, recording the run, when the download answers an error', async () => {
    await expect(run('prh', { url: `${prh.url}/missing.zip` })).rejects.toThrow(/answered 404/);
    const health = await server.ctx.repos.syncRuns.latestBySource();
    expect(health.prh.status).toBe('error');
  });
});

describe('ncd sync prh-updates', () => {
  it('walks /companies from the stored position, resumes after --limit, survives a 429, then moves the window on', async () => {
    const fresh = (await generated(205, 99))
      .slice(200)
      .map((c, i) => ({ ...c, registrationDate: `2026-03-0${i + 1}`, names: [{ name: `Uusi ${i} Oy`, type: '1' }] }));
    prh.companies = [...all, ...fresh];
    prh.pageSize = 2;
    prh.rateLimitNext = 1;
    prh.resetCounters();
    await server.ctx.repos.syncRuns.setState(PRH_UPDATES_STATE, {
      registrationDateStart: '2026-01-01',
      page: 1,
      seen: 0,
    });

    const first = await run('prh-updates', { limit: 2 });
    expect(first.recordsProcessed).toBe(2);
    expect(first.details).toMatchObject({ complete: false, inserted: 2 });
    expect(await server.ctx.repos.syncRuns.getState(PRH_UPDATES_STATE)).toEqual({
      registrationDateStart: '2026-01-01',
      page: 2,
      seen: 2,
    });

    const second = await run('prh-updates');
    expect(second.recordsProcessed).toBe(3);
    expect(second.details).toMatchObject({ complete: true, inserted: 3, registrationDateStart: '2026-01-01' });
    const queries = prh.requests.map((r) => r.query);
    expect(queries).toEqual([
      '?registrationDateStart=2026-01-01&page=1', // 429
      '?registrationDateStart=2026-01-01&page=1',
      '?registrationDateStart=2026-01-01&page=2',
      '?registrationDateStart=2026-01-01&page=3',
    ]);
    const next = await server.ctx.repos.syncRuns.getState<PrhUpdatesState>(PRH_UPDATES_STATE);
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    expect(next).toEqual({ registrationDateStart: weekAgo, page: 1, seen: 0 });
    const c = await server.services.companies.lookup('FI', idOf(fresh[4]));
    expect(c).toMatchObject({
      name: 'Uusi 4 Oy',
      registrationDate: '2026-03-05',
      _sources: { fields: { companyCore: 'YTJ' } },
    });

    // Walking the same window again writes nothing new.
    await server.ctx.repos.syncRuns.setState(PRH_UPDATES_STATE, {
      registrationDateStart: '2026-01-01',
      page: 1,
      seen: 0,
    });
    const again = await run('prh-updates');
    expect(again.details).toMatchObject({ complete: true, inserted: 0, changed: 0 });
  });
});
