// The web-profile pipeline end to end: `domains` job over generated companies whose
// websites are local fake sites reached through the real safeFetch, then GET /api/enrichment
// and the web-profile fields on the company record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyCore } from '../../src/domain/company.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { startScenarioSites } from '../fakes/websites/scenario.ts';
import type { FakeWebsites } from '../fakes/websites/server.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { scenarioCompanies } from '../fakes/websites/scenario.ts';

let sites: FakeWebsites;
let server: TestServer;
let key: string;
let companies: Record<string, CompanyCore>;
let rows: Map<string, any>;

const run = (limit: number) => runJob(server.ctx, 'domains', { limit }, () => {});
const get = (p: string) => http(server.url, 'GET', p, { key });
const org = (k: string) => companies[k].orgNumber;
const row = (k: string) => rows.get(org(k));
const candidate = (k: string, domain: string) => row(k).candidates.find((c: any) => c.domain === domain);

beforeAll(async () => {
  companies = scenarioCompanies();
  sites = await startScenarioSites(companies);
  server = await startServer({
    env: { ENRICHMENT_HOST_DELAY_MS: '0', ENRICHMENT_TIMEOUT_MS: '3000', ENRICHMENT_CONCURRENCY: '4' },
    overrides: { resolver: sites.resolver, crawlerNet: { allowedAddresses: sites.allowedAddresses, dial: sites.dial } },
  });
  // fetched: complete records, so the lookup endpoint serves them without asking brreg.
  await server.ctx.repos.companyWrites.write(Object.values(companies).map((core) => ({ core, fetched: true })));
  key = (await createKey(server, { tier: 'internal' })).raw;
  const outcome = await run(50);
  expect(outcome.recordsProcessed).toBe(Object.keys(companies).length);
  const list = await get('/api/enrichment?limit=200');
  expect(list.status).toBe(200);
  rows = new Map(list.body.data.map((r: any) => [r.orgNumber, r]));
});
afterAll(async () => {
  await server?.close();
  await sites?.close();
});

describe('domains pipeline against fake websites', () => {
  it('gives every company its expected status', () => {
    const status = Object.fromEntries(Object.keys(companies).map((k) => [k, row(k)?.status]));
    expect(status).toEqual({
      fjordlys: 'confirmed',
      nordlys: 'confirmed',
      bergen: 'confirmed',
      havbris: 'rejected',
      shared1: 'rejected',
      shared2: 'rejected',
      shared3: 'rejected',
      shared4: 'rejected',
      maakeskjaer: 'rejected',
      polar: 'rejected',
    });
    for (const k of Object.keys(companies))
      expect(row(k)).toMatchObject({ stage: 'done', completedAt: expect.any(String) });
  });

  it('confirms the site with the org number in its footer and its redirecting alias', () => {
    expect(row('fjordlys')).toMatchObject({
      companyName: 'FJORDLYS REGNSKAP AS',
      confidence: 100,
      primaryDomain: 'fjordlys.no',
      confirmedDomains: ['fjordlys.no', 'fjordlys.com'],
      brregWebsite: 'www.fjordlys.no',
      orgForm: 'AS',
      linkedinHandle: 'fjordlys-regnskap',
      facebookHandle: 'fjordlysregnskap',
    });
    const site = candidate('fjordlys', 'fjordlys.no');
    expect(site).toMatchObject({
      origin: 'brreg-website',
      status: 'confirmed',
      score: 100,
      httpStatus: 200,
      error: null,
      finalUrl: 'http://www.fjordlys.no/',
    });
    expect(site.signals).toMatchObject({ orgNumberOnPage: true, nameInTitle: true, otherOrgNumbers: ['921845634'] });
    expect(site.ledger.map((e: any) => e.signal)).toEqual(['origin', 'live-page', 'org-number', 'name-in-title']);
    const alias = candidate('fjordlys', 'fjordlys.com');
    expect(alias).toMatchObject({
      origin: 'name-guess',
      status: 'confirmed',
      redirectsToCandidate: 'fjordlys.no',
      redirects: ['http://www.fjordlys.no/'],
    });
    expect(alias.ledger).toContainEqual(expect.objectContaining({ signal: 'redirects-to-candidate', points: 0 }));
    // A name guess that is parked is rejected on its own.
    const parked = candidate('fjordlys', 'fjordlysregnskap.com');
    expect(parked.status).toBe('rejected');
    expect(parked.signals.parkedMarkers.length).toBeGreaterThan(0);
    // Guesses that do not resolve are recorded as such, never fetched.
    expect(candidate('fjordlys', 'fjordlys-regnskap.no')).toMatchObject({
      status: 'rejected',
      error: 'dns',
      httpStatus: null,
    });
    // Internal detection data stays out of the ledger.
    expect(site).not.toHaveProperty('technologies');
  });

  it('finds Shopify, the Meta pixel and GTM, and handles, from an e-mail domain', async () => {
    expect(candidate('nordlys', 'nordlysstrikk.no')).toMatchObject({ origin: 'email-domain', status: 'confirmed' });
    const r = await get(`/api/companies/${org('nordlys')}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      primaryDomain: 'nordlysstrikk.no',
      enrichedDomains: ['nordlysstrikk.no'],
      instagramHandle: 'nordlysstrikk',
      facebookHandle: 'nordlysstrikk',
      linkedinHandle: null,
      hasAnyAdPixel: true,
    });
    expect(r.body.technologies.map((t: any) => t.name).sort()).toEqual(['Google Tag Manager', 'Meta Pixel', 'Shopify']);
    for (const t of r.body.technologies) {
      expect(t.confidence).toBeGreaterThan(0);
      expect(t.confidence).toBeLessThanOrEqual(1);
      expect(typeof t.category).toBe('string');
    }
    expect(r.body._sources.fields).toMatchObject({
      domain: 'Enrichment pipeline',
      socialHandles: 'Enrichment pipeline',
      technologies: 'Enrichment pipeline',
    });
    expect(r.body._sources.attribution).toContain('Enrichment pipeline');
  });

  it('reads all four handles and the ad tags of a WordPress site', async () => {
    const r = await get(`/api/companies/${org('bergen')}`);
    expect(r.body).toMatchObject({
      linkedinHandle: 'bergen-bygg-tomrer',
      facebookHandle: 'BergenByggTomrer',
      instagramHandle: 'bergenbygg',
      twitterHandle: 'BergenBygg',
      hasAnyAdPixel: true,
    });
    expect(r.body.technologies.map((t: any) => t.name)).toEqual(
      expect.arrayContaining(['WordPress', 'LinkedIn Insight Tag', 'Meta Pixel']),
    );
  });

  it('writes nothing onto a company whose only site is parked', async () => {
    expect(candidate('havbris', 'havbris.no').signals.parkedMarkers.length).toBeGreaterThan(0);
    const r = await get(`/api/companies/${org('havbris')}`);
    expect(r.body).toMatchObject({
      primaryDomain: null,
      enrichedDomains: [],
      technologies: [],
      hasAnyAdPixel: false,
      facebookHandle: null,
    });
    expect(r.body._sources.fields).not.toHaveProperty('domain');
    expect(r.body._sources.fields).not.toHaveProperty('technologies');
  });

  it('counts a domain shared by many companies against it, and fetches it once', () => {
    for (const k of ['shared1', 'shared2', 'shared3', 'shared4']) {
      const c = candidate(k, 'vestweb.no');
      expect(c.sharedByCompanies).toBe(4);
      expect(c.signals.nameOnPage).toBe(true);
      expect(c.ledger).toContainEqual({ signal: 'shared-domain', points: -30, note: 'candidate for 4 companies' });
      expect(c.status).toBe('rejected');
    }
    // The same facts without the penalty would have been ambiguous.
    const c = candidate('shared1', 'vestweb.no');
    expect(c.score + 30).toBeGreaterThanOrEqual(35);
    const homepage = sites.site('vestweb').requests.filter((q) => q.path === '/');
    expect(homepage.map((q) => q.host).sort()).toEqual(['vestweb.no', 'www.vestweb.no']);
  });

  it('never contacts the private address a site redirects to', () => {
    const c = candidate('maakeskjaer', 'maakeskjaer.no');
    expect(c).toMatchObject({
      status: 'rejected',
      error: 'private-address',
      httpStatus: 302,
      finalUrl: 'http://www.maakeskjaer.no/',
      redirects: ['http://127.0.0.99/'],
    });
    // Both redirects were met: to the IP literal (www.) and to a name resolving to it (bare host).
    expect(
      sites
        .site('maakeskjaer')
        .requests.filter((q) => q.path === '/')
        .map((q) => q.host)
        .sort(),
    ).toEqual(['maakeskjaer.no', 'www.maakeskjaer.no']);
    const sink = sites.site('sink');
    expect(sink.requests).toEqual([]);
    expect(sink.connections).toBe(0);
  });

  it('respects robots.txt: a disallowed homepage is never requested', () => {
    expect(candidate('polar', 'polardata.no')).toMatchObject({ status: 'rejected', error: 'robots-disallowed' });
    const paths = sites.site('polar').requests.map((q) => q.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p === '/robots.txt')).toBe(true);
  });

  it('asks each host for robots.txt once and identifies itself', () => {
    for (const name of [
      'fjordlys',
      'fjordlys-alias',
      'parked',
      'nordlys',
      'bergen',
      'vestweb',
      'maakeskjaer',
      'polar',
    ]) {
      const site = sites.site(name);
      const robots = site.requests.filter((q) => q.path === '/robots.txt').map((q) => q.host);
      expect(robots.length).toBeGreaterThan(0);
      expect(new Set(robots).size).toBe(robots.length);
      for (const q of site.requests) expect(q.userAgent).toMatch(/^ncd-enrichment\/1\.0 /);
    }
  });
});

describe('GET /api/enrichment', () => {
  it('orders by confidence, then org number, and summarises by status', async () => {
    const r = await get('/api/enrichment');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      summary: { confirmed: 3, ambiguous: 0, rejected: 7 },
      total: 10,
      limit: 50,
      offset: 0,
    });
    const keys: [number, string][] = r.body.data.map((d: any) => [d.confidence, d.orgNumber]);
    const sorted = [...keys].sort((a, b) => b[0] - a[0] || a[1].localeCompare(b[1]));
    expect(keys).toEqual(sorted);
    const first = r.body.data[0];
    expect(first.city).toEqual(expect.any(String));
    expect(first.employees === null || Number.isInteger(first.employees)).toBe(true);
  });

  it('filters by status and minimum confidence and pages by offset', async () => {
    const confirmed = await get('/api/enrichment?status=confirmed');
    expect(confirmed.body.total).toBe(3);
    expect(confirmed.body.data.map((d: any) => d.orgNumber).sort()).toEqual(
      [org('fjordlys'), org('nordlys'), org('bergen')].sort(),
    );
    const high = await get('/api/enrichment?minConfidence=65');
    expect(high.body.total).toBe(3);
    expect(high.body.summary).toEqual({ confirmed: 3, ambiguous: 0, rejected: 0 });
    const page1 = await get('/api/enrichment?limit=4');
    const page2 = await get('/api/enrichment?limit=4&offset=4');
    const all = await get('/api/enrichment?limit=200');
    expect(page1.body.data).toHaveLength(4);
    expect([...page1.body.data, ...page2.body.data].map((d: any) => d.orgNumber)).toEqual(
      all.body.data.slice(0, 8).map((d: any) => d.orgNumber),
    );
    expect(page2.body).toMatchObject({ limit: 4, offset: 4, total: 10 });
  });

  it.each([
    ['status=done', 'query.status'],
    ['minConfidence=101', 'query.minConfidence'],
    ['minConfidence=-1', 'query.minConfidence'],
    ['limit=0', 'query.limit'],
    ['limit=201', 'query.limit'],
    ['offset=-1', 'query.offset'],
    ['limit=abc', 'query.limit'],
  ])('400 with details for %s', async (qs, path) => {
    const r = await get(`/api/enrichment?${qs}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.details.map((d: any) => d.path)).toContain(path);
  });

  it('needs a key', async () => {
    expect((await http(server.url, 'GET', '/api/enrichment')).status).toBe(401);
  });
});

describe('re-runs', () => {
  it('lists a company not scored yet only as pending', async () => {
    const extra = scenarioCompanies(11, 900).fjordlys;
    await server.ctx.repos.companyWrites.write([
      { core: { ...extra, name: 'TINDVED PRAKSIS AS', website: null, email: null }, fetched: true },
    ]);
    await run(0); // candidates only
    const pending = await get('/api/enrichment?status=pending');
    expect(pending.body.total).toBe(1);
    expect(pending.body.data[0]).toMatchObject({
      orgNumber: extra.orgNumber,
      status: 'pending',
      stage: 'candidates',
      completedAt: null,
      confidence: 0,
    });
    expect(pending.body.data[0].candidates.every((c: any) => c.status === 'pending' && c.score === null)).toBe(true);
    expect((await get('/api/enrichment')).body.total).toBe(10);
  });

  it('processes never-completed companies first and leaves unchanged records untouched', async () => {
    const before = (await get(`/api/companies/${org('fjordlys')}`)).body;
    const completedBefore = row('fjordlys').completedAt;
    sites.resetCounters();
    await run(1);
    // The pending company went first: no site was asked anything.
    expect((await get('/api/enrichment?status=pending')).body.total).toBe(0);
    expect(sites.site('fjordlys').requests).toEqual([]);
    await run(50);
    const after = (await get(`/api/companies/${org('fjordlys')}`)).body;
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(after.primaryDomain).toBe('fjordlys.no');
    const again = (await get('/api/enrichment?status=confirmed')).body.data.find(
      (d: any) => d.orgNumber === org('fjordlys'),
    );
    expect(new Date(again.completedAt).getTime()).toBeGreaterThan(new Date(completedBefore).getTime());
    expect(sites.site('sink').connections).toBe(0);
  });
});
