// The demo dataset as a new user meets it: loaded into an empty store through the sync jobs (what
// DEMO_DATA=auto does at the first `npm start`), timed, then asked what the README shows for each
// capability. Every answer must hold data: companies of all four countries, shareholders, group
// trees, ultimate owners, ownership changes, screening hits, procurement, market context, events
// of the second round, the feed and a deleted company. And 50 demo companies, asked for by a
// perturbed name (form dropped, lower case, two letters swapped, Norwegian letters folded, the
// municipality added, the form spelt out), are
// matched to the right organisation number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/jobs/demo-data.ts';
import { prhJson } from '../../src/sources/demo/finland.ts';
import { buildDemoWorld, DEMO_SEED, type DemoCompany } from '../../src/sources/demo/world.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
let loadSeconds: number;
const world = buildDemoWorld();
const get = (path: string) => http(server.url, 'GET', path, { key });

beforeAll(async () => {
  server = await startServer();
  const t0 = Date.now();
  await loadDemoData(server.ctx, () => undefined);
  loadSeconds = (Date.now() - t0) / 1000;
  console.log(`demo dataset loaded in ${loadSeconds.toFixed(1)} s`);
  key = (await createKey(server, { tier: 'internal' })).raw;
}, 600_000);
afterAll(async () => {
  await server?.close();
});

describe('the demo dataset', () => {
  it('answers every capability with data', async () => {
    const solberg = await get('/api/companies/810000023');
    expect(solberg.body).toMatchObject({ name: 'SOLBERG FYSIOTERAPI AS', naceCode1: '86.902' });
    const fi = JSON.parse(prhJson(DEMO_SEED))[1].businessId.value;
    for (const [path, country] of [
      [`/api/companies/${fi}?country=FI`, 'FI'],
      ['/api/companies/5591000079?country=SE', 'SE'],
      ['/api/companies/43100033?country=DK', 'DK'],
    ])
      expect((await get(path)).body.country, path).toBe(country);
    const shareholders = await get('/api/companies/810000066/shareholders');
    expect(shareholders.body.data.length).toBeGreaterThan(0);
    const group = await get('/api/companies/810000147/group');
    expect(group.body.totalMembers).toBeGreaterThan(2);
    const owners = await get('/api/companies/810000066/owners');
    expect(owners.body.flags.layers).toBeGreaterThanOrEqual(3);
    expect(owners.body.candidates.length).toBeGreaterThan(0);
    const changes = await get('/api/companies/810000023/ownership-changes');
    expect(changes.body.years).toEqual([2023, 2024]);
    const screening = await get('/api/screening/810000147');
    expect(screening.body.matches.length).toBeGreaterThan(0);
    const procurement = await get('/api/procurement?limit=5');
    expect(procurement.body.data.length).toBeGreaterThan(0);
    const context = await get('/api/market-context?country=NO&municipality=0301');
    expect(context.body.municipality.population.value).toBeGreaterThan(0);
    const events = await get('/api/events?after=0&category=status,roles,address&limit=500');
    expect(events.status).toBe(200);
    const types = new Set(events.body.data.map((e: { type: string }) => e.type));
    expect(types.size).toBeGreaterThan(1);
    const deleted = [...world.changes.deleted][0];
    expect((await get(`/api/companies/${deleted}`)).body.isDeleted).toBe(true);
    const feed = await get('/api/updates?since=2020-01-01&limit=5');
    expect(feed.body.data.length).toBeGreaterThan(0);
  });

  it('matches 50 demo companies asked for by a perturbed name', async () => {
    const live = world.companies.filter((c) => !world.changes.deleted.has(c.orgNumber));
    const picked = Array.from({ length: 50 }, (_, k) => live[(k * 59 + 13) % live.length]);
    const perturb = (c: DemoCompany, k: number): string => {
      const bare = c.name.replace(/ (AS|ASA|ANS|DA|NUF|SA)$/, '');
      switch (k % 5) {
        case 0:
          return bare.toLowerCase();
        case 1: {
          // A typo: two neighbouring letters in the middle of the longest word swapped.
          const words = bare.split(' ');
          const w = words.reduce((a, b) => (b.length > a.length ? b : a));
          const m = Math.floor(w.length / 2);
          return bare.replace(w, w.slice(0, m - 1) + w[m] + w[m - 1] + w.slice(m + 1));
        }
        case 2:
          return c.name.replace(/Ø/g, 'O').replace(/Å/g, 'A').replace(/Æ/g, 'AE');
        case 3:
          return `${bare} ${c.address.municipality}`;
        default:
          return c.name.replace(/ AS$/, ' aksjeselskap');
      }
    };
    const queries = picked.map((c, k) => ({ name: perturb(c, k), country: 'NO' }));
    const r = await http(server.url, 'POST', '/api/companies/match', { key, body: { queries } });
    expect(r.status).toBe(200);
    const wrong = r.body.results
      .map((res: { match: { orgNumber: string } | null }, i: number) => ({
        query: queries[i].name,
        want: `${picked[i].orgNumber} ${picked[i].name}`,
        got: res.match?.orgNumber ?? null,
      }))
      .filter((x: { want: string; got: string | null }) => !x.want.startsWith(`${x.got} `));
    expect(wrong).toEqual([]);
  });
});
