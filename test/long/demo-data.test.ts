// The demo dataset as a new user meets it: loaded into an empty store through the sync jobs (what
// DEMO_DATA=auto does at the first `npm start`), timed, then asked what the README shows for each
// capability. Every answer must hold data: companies of all four countries, shareholders, group
// trees, ultimate owners, ownership changes, screening hits, procurement, market context, events
// of the second round, the feed and a deleted company. And 50 demo companies, asked for by a
// perturbed name (form dropped, lower case, two letters swapped, Norwegian letters folded, the
// municipality added, the form spelt out), are
// matched to the right organisation number. A few dozen demo companies have homepages on the demo
// web, and the web-profile pipeline's results for them (domains, technologies, social handles, a
// scoring ledger per candidate) are served like any crawl's.
//
// The load time is printed per step. The bound asserted here is generous, since this suite runs on
// shared machines under other load; the requirement (under 60 s on an idle 2-core machine) is
// measured with `npm start` on an empty DATA_DIR and recorded in BENCHMARKS.md ("Demo dataset load").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData, type DemoLoad } from '../../src/jobs/demo-data.ts';
import { demoWebsites } from '../../src/sources/demo/websites.ts';
import { prhJson } from '../../src/sources/demo/finland.ts';
import { buildDemoWorld, DEMO_SEED, type DemoCompany } from '../../src/sources/demo/world.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
let load: DemoLoad;
let loadSeconds: number;
const world = buildDemoWorld();
let loadCpuSeconds: number;
/**
 * Wall time on a shared CI machine says little (the same load took 24 s and 129 s here in one hour),
 * so the wall bound is only a guard against a hang or a large regression. The CPU this process spent
 * on the load (the main thread and PGlite's worker thread) is the figure that holds under other
 * load: on two idle cores the wall time is about the CPU time or less (the two threads overlap), so
 * it must be under the requirement's 60 s.
 */
const LOAD_BOUND_SECONDS = 300;
const LOAD_CPU_BOUND_SECONDS = 60;
const get = (path: string) => http(server.url, 'GET', path, { key });

beforeAll(async () => {
  server = await startServer();
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  load = await loadDemoData(server.ctx, () => undefined);
  loadSeconds = (Date.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  loadCpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(
    `demo dataset loaded in ${loadSeconds.toFixed(1)} s (${loadCpuSeconds.toFixed(1)} s of CPU):\n` +
      load.steps.map((s) => `  ${s.step.padEnd(16)} ${s.seconds.toFixed(1).padStart(6)} s`).join('\n'),
  );
  key = (await createKey(server, { tier: 'internal' })).raw;
}, 600_000);
afterAll(async () => {
  await server?.close();
});

describe('the demo dataset', () => {
  it(`loads on under ${LOAD_CPU_BOUND_SECONDS} s of CPU (and within ${LOAD_BOUND_SECONDS} s), each step timed`, () => {
    expect(load.steps.map((s) => s.step)).toEqual(
      expect.arrayContaining(['brreg 1', 'shareholders 2024', 'web profiles']),
    );
    expect(load.seconds).toBeLessThanOrEqual(loadSeconds);
    expect(loadSeconds).toBeLessThan(LOAD_BOUND_SECONDS);
    expect(loadCpuSeconds).toBeLessThan(LOAD_CPU_BOUND_SECONDS);
  });

  it('gives a few dozen demo companies web-profile results through the pipeline', async () => {
    const sites = demoWebsites(world);
    const list = await get('/api/enrichment?limit=100');
    expect(list.status).toBe(200);
    const rows: { orgNumber: string; status: string; primaryDomain: string | null; candidates: unknown[] }[] =
      list.body.data;
    // Every homepage's company has a scored row, and only they: the rest wait unprobed (pending).
    expect(rows.map((r) => r.orgNumber).sort()).toEqual(sites.map((s) => s.orgNumber).sort());
    expect(list.body.summary.confirmed).toBeGreaterThanOrEqual(30);
    expect(list.body.summary.ambiguous).toBeGreaterThan(0);
    expect(list.body.summary.rejected).toBeGreaterThan(0);
    for (const r of rows) expect(r.candidates.length, r.orgNumber).toBeGreaterThan(0);
    const parked = sites.filter((s) => s.kind === 'parked').map((s) => s.orgNumber);
    for (const r of rows.filter((x) => parked.includes(x.orgNumber))) expect(r.status).toBe('rejected');

    const solberg = (await get('/api/companies/810000023')).body;
    expect(solberg).toMatchObject({
      primaryDomain: 'solbergfysioterapi.no',
      linkedinHandle: 'solbergfysioterapi',
      facebookHandle: 'solbergfysioterapi',
    });
    // The .com name guess redirects to the site: an alias, confirmed with it.
    expect(solberg.enrichedDomains).toEqual(['solbergfysioterapi.no', 'solbergfysioterapi.com']);
    expect(solberg.technologies.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['WordPress', 'Google Analytics']),
    );
    expect(solberg._sources.fields).toMatchObject({
      domain: 'Enrichment pipeline',
      socialHandles: 'Enrichment pipeline',
      technologies: 'Enrichment pipeline',
    });
    // HAVBRIS RESTAURANT AS: a WooCommerce shop with LinkedIn's Insight Tag, an ad pixel.
    const havbris = (await get('/api/companies/810000198')).body;
    expect(havbris).toMatchObject({ name: 'HAVBRIS RESTAURANT AS', hasAnyAdPixel: true });
    expect(havbris.technologies.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['WooCommerce', 'WordPress', 'LinkedIn Insight Tag']),
    );
  });

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
