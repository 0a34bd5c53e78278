// GET /api/screening/{orgNumber} on lists loaded through the real `sanctions` job: matches on
// roles and shareholders, transliteration, birth-year conflicts, persons vs organisations, the
// threshold, deltas, and atomic list replacement (a reader never sees half a list; a failed
// re-ingest changes nothing).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RoleInput } from '../../src/domain/company.ts';
import { ALGORITHM } from '../../src/domain/screening/rank.ts';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/sanctions.ts';
import '../../src/jobs/shareholders.ts';
import {
  byCompany,
  byForeign,
  byPerson,
  company,
  org,
  removeRegisters,
  writeRegister,
} from '../fixtures/aksjonaer/build.ts';
import {
  add,
  del,
  fillers,
  ftm,
  ndjson,
  removeListFiles,
  writeListFile,
  type FtmInput,
} from '../fixtures/screening/ftm.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const SYNC_SECRET = 'screening-sync-secret-0123';
let server: TestServer;
let key: string;
const quiet = () => undefined;

const [A, B, C, D, E, F, UNKNOWN, INTER] = [
  org(500),
  org(501),
  org(502),
  org(503),
  org(504),
  org(505),
  org(599),
  org(600),
];

function person(code: string, first: string, last: string, birthYear: number | null, position = 0): RoleInput {
  return {
    groupCode: null,
    groupDescription: null,
    roleTypeCode: code,
    roleTypeDescription: null,
    personFirstName: first,
    personMiddleName: null,
    personLastName: last,
    personBirthYear: birthYear,
    entityOrgNumber: null,
    entityName: null,
    electedBy: null,
    responsibilityShare: null,
    position,
  };
}
function entity(code: string, orgNumber: string, name: string): RoleInput {
  return {
    ...person(code, '', '', null),
    personFirstName: null,
    personLastName: null,
    entityOrgNumber: orgNumber,
    entityName: name,
  };
}
const withRoles = (orgNumber: string, name: string, roles: RoleInput[]) => ({ ...company(orgNumber, name), roles });

const ZHURAVLEV: FtmInput = {
  id: 'NK-zh',
  schema: 'Person',
  caption: 'Дмитрий Сергеевич Журавлёв',
  birthDate: '1970-05-12',
  country: 'ru',
  datasets: ['eu_fsf'],
};
const OLA: FtmInput = {
  id: 'NK-ola',
  schema: 'Person',
  caption: 'Ola TESTMANN',
  birthDate: '1950',
  country: 'no',
  topics: ['role.pep'],
  datasets: ['no_peps'],
};
const MAIN_LIST: FtmInput[] = [
  ZHURAVLEV,
  OLA,
  // Persons never match organisations, whatever the names say.
  { id: 'NK-ola-org', schema: 'Organization', caption: 'Ola Testmann' },
  { id: 'NK-ship-person', schema: 'Person', caption: 'Nordlys Shipping' },
  {
    id: 'NK-inter',
    schema: 'Organization',
    caption: 'RAB „Inter Tobacco“',
    aliases: ['LLC “Inter Tobacco”'],
    country: 'by',
  },
  { id: 'NK-vessel', schema: 'Vessel', caption: 'Kari Nordmann' },
  { id: 'NK-support', schema: 'Address', caption: 'Kari Nordmann', target: false },
];

const GJENSTAND: FtmInput = { id: 'NK-gjenstand', schema: 'Person', caption: 'Gunnar GJENSTAND', birthDate: '1960' };
const NYKOMMER: FtmInput = { id: 'NK-nykommer', schema: 'Person', caption: 'Petter NYKOMMER', birthDate: '1965' };

const screen = (n: string, query = '') => http(server.url, 'GET', `/api/screening/${n}${query}`, { key });
type Match = {
  subject: string;
  entityId: string;
  score: number;
  matchType: string;
  schema: string;
  list: string;
  explanation: any;
};
const matchesOf = (body: { matches: Match[] }, entityId: string) => body.matches.filter((m) => m.entityId === entityId);

beforeAll(async () => {
  server = await startServer({ env: { SYNC_SECRET } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  await server.ctx.repos.companyWrites.write([
    withRoles(A, 'FJORDLYS HANDEL AS', [
      person('DAGL', 'Dmitrij', 'Zjuravljov', 1970),
      person('LEDE', 'Kari', 'Nordmann', 1975),
      entity('REVI', INTER, 'INTER TOBACCO AS'),
    ]),
    withRoles(B, 'TESTMANN HOLDING AS', [
      person('DAGL', 'Ola', 'Testmann', 1950),
      person('LEDE', 'Ola', 'Testmann', 1950),
    ]),
    withRoles(C, 'ANNEN HOLDING AS', [
      person('LEDE', 'Ola', 'Testmann', 1952),
      person('MEDL', 'Ola', 'Testmann', 1990, 1),
    ]),
    withRoles(D, 'NORDLYS SHIPPING AS', [person('DAGL', 'Ola', 'Testmann', null)]),
    withRoles(E, 'TOBAKK INVEST AS', []),
    withRoles(F, 'GJENSTAND EIENDOM AS', [
      person('DAGL', 'Gunnar', 'Gjenstand', 1960),
      person('MEDL', 'Petter', 'Nykommer', 1965, 1),
    ]),
  ]);
  await runJob(
    server.ctx,
    'shareholders',
    {
      file: writeRegister('aksjeeierbok_2024.csv', [
        byCompany(E, 'TOBAKK INVEST AS', INTER, 'INTER TOBACCO AS', 600, 1000),
        byPerson(E, 'TOBAKK INVEST AS', 'DMITRIJ ZJURAVLJOV', 1970, 300, 1000),
        byForeign(E, 'TOBAKK INVEST AS', 'NORDISK KAPITAL AB', 100, 1000),
      ]),
    },
    quiet,
  );
  await runJob(
    server.ctx,
    'sanctions',
    { file: writeListFile('main.ftm.json', ndjson(MAIN_LIST.map(ftm))), list: 'e2e' },
    quiet,
  );
  await runJob(
    server.ctx,
    'sanctions',
    { file: writeListFile('b.ftm.json', ndjson([GJENSTAND, ...fillers(0, 10)].map(ftm))), list: 'e2e-b' },
    quiet,
  );
});
afterAll(async () => {
  await server?.close();
  removeRegisters();
  removeListFiles();
});

describe('GET /api/screening/{orgNumber}', () => {
  it("matches a role holder's Norwegian transliteration of a Cyrillic listed name, with an explanation", async () => {
    const r = await screen(A);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ orgNumber: A, country: 'NO', companyName: 'FJORDLYS HANDEL AS', threshold: 0.75 });
    // Audit trail (issue 27): the algorithm version beside the list versions below.
    expect(r.body.algorithm).toEqual(ALGORITHM);
    expect(r.body.subjects).toEqual([
      { id: 'company', kind: 'company', role: 'company', roles: ['company'], name: 'FJORDLYS HANDEL AS' },
      {
        id: 'p1',
        kind: 'person',
        role: 'role:DAGL',
        roles: ['role:DAGL'],
        name: 'Dmitrij Zjuravljov',
        birthYear: 1970,
      },
      { id: 'p2', kind: 'person', role: 'role:LEDE', roles: ['role:LEDE'], name: 'Kari Nordmann', birthYear: 1975 },
    ]); // the auditor (REVI) is not screened
    expect(r.body.matches).toHaveLength(1);
    const [m] = r.body.matches;
    expect(m).toMatchObject({
      subject: 'p1',
      list: 'e2e',
      entityId: 'NK-zh',
      entityName: 'Дмитрий Сергеевич Журавлёв',
      schema: 'Person',
      topics: ['sanction'],
      datasets: ['eu_fsf'],
      matchType: expect.stringMatching(/^(phonetic|fuzzy)$/),
    });
    expect(m.score).toBeGreaterThanOrEqual(0.75);
    expect(m.score).toBeLessThanOrEqual(1);
    expect(m.explanation).toMatchObject({ birthYear: 'match', adjustments: [{ feature: 'birthYear', delta: 0.08 }] });
    expect(m.explanation.nameSimilarity).toBeGreaterThan(0.8);
    expect(r.body.summary).toEqual({ subjectsScreened: 3, possibleMatches: 1, highestScore: m.score, listsChecked: 2 });
    expect(r.body.lists.map((l: { name: string }) => l.name)).toEqual(['e2e', 'e2e-b']);
    expect(r.body.lists[0]).toMatchObject({
      entityCount: 5,
      version: '2024-06-01T00:00:00',
      lastSync: expect.any(String),
    });
    // No full birth date anywhere in what is said about subjects and matches (the file had 1970-05-12).
    expect(JSON.stringify([r.body.subjects, r.body.matches])).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('screens shareholders of the latest year: entity holders, persons by name and birth year, foreign holders', async () => {
    const r = await screen(E);
    expect(r.status).toBe(200);
    expect(r.body.subjects).toEqual([
      { id: 'company', kind: 'company', role: 'company', roles: ['company'], name: 'TOBAKK INVEST AS' },
      { id: 'o1', kind: 'organisation', role: 'shareholder', roles: ['shareholder'], name: 'INTER TOBACCO AS' },
      {
        id: 'p1',
        kind: 'person',
        role: 'shareholder',
        roles: ['shareholder'],
        name: 'DMITRIJ ZJURAVLJOV',
        birthYear: 1970,
      },
      { id: 'o2', kind: 'organisation', role: 'shareholder', roles: ['shareholder'], name: 'NORDISK KAPITAL AB' },
    ]);
    expect(r.body.matches.map((m: Match) => [m.subject, m.entityId, m.matchType])).toEqual(
      expect.arrayContaining([
        ['o1', 'NK-inter', 'alias'],
        ['p1', 'NK-zh', expect.any(String)],
      ]),
    );
    expect(r.body.matches).toHaveLength(2);
  });

  it('lowers the score on a birth-year conflict, and a distant year drops a name below the threshold', async () => {
    const exact = matchesOf((await screen(B)).body, 'NK-ola');
    expect(exact).toHaveLength(1); // one subject: the same person in two roles
    expect((await screen(B)).body.subjects[1]).toMatchObject({
      name: 'Ola Testmann',
      roles: ['role:DAGL', 'role:LEDE'],
    });
    expect(exact[0]).toMatchObject({ matchType: 'exact', explanation: { birthYear: 'match' } });

    const r = await screen(C);
    const byYear = new Map(r.body.subjects.map((s: { id: string; birthYear: number }) => [s.birthYear, s.id]));
    const near = matchesOf(r.body, 'NK-ola');
    expect(near).toHaveLength(1);
    expect(near[0].subject).toBe(byYear.get(1952));
    expect(near[0].score).toBeLessThan(exact[0].score);
    expect(near[0].explanation).toMatchObject({
      birthYear: 'mismatch',
      adjustments: [{ feature: 'birthYear', delta: -0.1 }],
    });

    const low = await screen(C, '?threshold=0.5');
    expect(low.body.threshold).toBe(0.5);
    const far = matchesOf(low.body, 'NK-ola').find((m) => m.subject === byYear.get(1990))!;
    expect(far.score).toBeCloseTo(0.6, 5);
    expect(far.explanation.adjustments).toEqual([expect.objectContaining({ feature: 'birthYear', delta: -0.3 })]);
  });

  it('never matches persons with organisations', async () => {
    const r = await screen(D);
    expect(r.body.subjects.map((s: { kind: string; name: string }) => [s.kind, s.name])).toEqual([
      ['company', 'NORDLYS SHIPPING AS'],
      ['person', 'Ola Testmann'],
    ]);
    // The company is not matched with the Person "Nordlys Shipping", the person not with the Organization "Ola Testmann".
    expect(r.body.matches.map((m: Match) => [m.subject, m.entityId])).toEqual([['p1', 'NK-ola']]);
    for (const n of [A, B, C, E]) {
      for (const m of (await screen(n, '?threshold=0.5')).body.matches as Match[]) {
        expect(m.entityId).not.toMatch(/^NK-(ola-org|ship-person|vessel|support)$/);
      }
    }
  });

  it('answers 400 for a bad org number, country or threshold, 401 without a key, 404 for an unknown company', async () => {
    for (const q of [
      ['12345678', ''],
      ['923609017', ''],
      ['abcdefghi', ''],
      [A, '?country=DK'],
      [A, '?country=SE'],
      [A, '?threshold=0.2'],
      [A, '?threshold=1.5'],
      [A, '?threshold=high'],
    ]) {
      const r = await screen(q[0], q[1]);
      expect(r.status, q.join('')).toBe(400);
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.details[0].path).toMatch(/^(params\.orgNumber|query\.(country|threshold))$/);
    }
    expect((await http(server.url, 'GET', `/api/screening/${A}`)).status).toBe(401);
    expect((await http(server.url, 'GET', `/api/screening/${A}`, { key: 'ncd_nope' })).status).toBe(401);
    const missing = await screen(UNKNOWN);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('company_not_found');
  });

  it('counts as one request against the quotas', async () => {
    const usage = async () => (await http(server.url, 'GET', '/api/keys/usage', { key })).body.usage.today as number;
    const before = await usage();
    expect((await screen(A)).status).toBe(200);
    expect(await usage()).toBe(before + 1); // the usage view itself does not count
  });

  it('is documented in the OpenAPI document with an example', async () => {
    const doc = (await http(server.url, 'GET', '/openapi.json')).body;
    const op = doc.paths['/api/screening/{orgNumber}'].get;
    // One example on the schema becomes the media type's `example` (@fastify/swagger).
    const media = op.responses['200'].content['application/json'];
    expect(media.example).toMatchObject({
      matches: [expect.objectContaining({ matchType: 'fuzzy' })],
      summary: expect.any(Object),
    });
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '402', '404', '414', '429', '500', '503']);
  });

  it('applies a delta: a deleted entity no longer matches, an added one does, a modified one is re-scored', async () => {
    const before = (await screen(A)).body.matches[0].score;
    const delta = [
      del(OLA.id),
      add({ id: 'NK-kari', schema: 'Person', caption: 'Kari NORDMANN', birthDate: '1975' }),
      add({ ...ZHURAVLEV, birthDate: '1971' }, 'MOD'),
    ];
    await runJob(
      server.ctx,
      'sanctions',
      { file: writeListFile('entities.delta.json', ndjson(delta)), list: 'e2e' },
      quiet,
    );
    expect(matchesOf((await screen(B)).body, OLA.id)).toEqual([]);
    const a = (await screen(A)).body;
    expect(a.matches.map((m: Match) => [m.subject, m.entityId])).toEqual(
      expect.arrayContaining([
        ['p2', 'NK-kari'],
        ['p1', 'NK-zh'],
      ]),
    );
    const zh = matchesOf(a, 'NK-zh')[0];
    expect(zh.explanation.birthYear).toBe('close');
    expect(zh.score).toBeLessThan(before);
    expect(a.lists.find((l: { name: string }) => l.name === 'e2e').entityCount).toBe(5);
  });
});

describe('list replacement is atomic', () => {
  let gate: { server: Server; url: string; release: () => void };

  beforeAll(async () => {
    // Serves the new list in two parts and holds the second until released: the job has
    // staged the first part's rows by then, and a reader must not see them.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = ndjson([NYKOMMER, ...fillers(100, 2000)].map(ftm));
    const rest = ndjson(fillers(3000, 500).map(ftm));
    const s = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(first);
      void released.then(() => res.end(rest));
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    gate = { server: s, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/lists/e2e-b.ftm.json`, release };
  });
  afterAll(() => {
    gate.server.closeAllConnections();
    gate.server.close();
  });

  const staged = async () =>
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM sanction_entities WHERE run_id <> ALL(ARRAY(SELECT run_id FROM sanction_lists))`.execute(
        server.ctx.store.db,
      )
    ).rows[0].n;
  const listed = async () => (await screen(F)).body.matches.map((m: Match) => m.entityId).sort();

  it('shows the old list while the new one streams in, then the whole new list', async () => {
    expect(await listed()).toEqual(['NK-gjenstand']);
    const job = runJob(server.ctx, 'sanctions', { url: gate.url, list: 'e2e-b' }, quiet);
    job.catch(() => undefined);
    await vi.waitFor(async () => expect(await staged()).toBeGreaterThanOrEqual(1000), {
      timeout: 30_000,
      interval: 20,
    });
    const during = await screen(F);
    expect(during.body.matches.map((m: Match) => m.entityId)).toEqual(['NK-gjenstand']);
    expect(during.body.lists.find((l: { name: string }) => l.name === 'e2e-b').entityCount).toBe(11);
    gate.release();
    await job;
    expect(await listed()).toEqual(['NK-nykommer']);
    expect(await staged()).toBe(0);
  });

  it('keeps the previous list intact when a re-ingest fails half-way, and records the failure per list', async () => {
    const broken = ndjson([GJENSTAND, ...fillers(5000, 1500)].map(ftm)) + '{"id": "NK-bad", "schema": \n';
    await expect(
      runJob(server.ctx, 'sanctions', { file: writeListFile('broken.ftm.json', broken), list: 'e2e-b' }, quiet),
    ).rejects.toThrow(/line 1502/);
    expect(await listed()).toEqual(['NK-nykommer']);
    expect((await screen(F)).body.lists.find((l: { name: string }) => l.name === 'e2e-b').entityCount).toBe(2501);
    expect(await staged()).toBe(0);
    const health = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SYNC_SECRET } });
    expect(health.body.dataSources['sanctions:e2e-b']).toMatchObject({
      status: 'error',
      lastSuccess: expect.any(String),
    });
    expect(health.body.dataSources['sanctions:e2e']).toMatchObject({ status: 'ok', recordsProcessed: 3 });
    expect(health.body.dataSources.sanctions).toMatchObject({ status: 'error' });
  });
});
