// The `domains` job's bookkeeping on a real store: which companies a run takes, stages
// recorded per company, resuming a half-finished pass without the network, re-seeding when a
// company's inputs change, and pruning companies that are gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyCore } from '../../src/domain/company.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { fixturePage, html, startFakeWebsites, type FakeWebsites } from '../fakes/websites/server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let sites: FakeWebsites;
let server: TestServer;
const cores: CompanyCore[] = [];

interface Row {
  org_number: string;
  stage: string;
  status: string;
  confidence: number;
  completed_at: Date | null;
  candidates: { domain: string; status: string; probedAt: string | null }[];
}

const run = (limit: number) => runJob(server.ctx, 'domains', { limit }, () => {});
async function rows(): Promise<Map<string, Row>> {
  const r = await server.ctx.store.pool.query<Row>(
    'SELECT org_number, stage, status, confidence, completed_at, candidates FROM enrichment ORDER BY org_number',
  );
  return new Map(r.rows.map((x) => [x.org_number, x]));
}
const requests = () => sites.site('site').requests.filter((q) => q.path === '/').length;

function company(i: number, over: Partial<CompanyCore>): CompanyCore {
  let k = i;
  let g = generateCompany(k, 3);
  while (g.enhet.slettedato) g = generateCompany(++k + 1000, 3);
  return { ...mapEnhet(g.enhet), website: null, email: null, ...over };
}

beforeAll(async () => {
  // Names chosen so that no name guess resolves: only the listed websites are reachable.
  cores.push(
    company(1, { name: 'AKSEL TESTFIRMA AS', orgFormCode: 'AS', website: 'www.aksel-web.no' }),
    company(2, { name: 'BIRK TESTFIRMA AS', orgFormCode: 'AS' }),
    company(3, { name: 'CEDER TESTFIRMA AS', orgFormCode: 'AS' }),
  );
  sites = await startFakeWebsites([
    {
      name: 'site',
      address: '127.0.0.31',
      hosts: ['www.aksel-web.no', 'aksel-web.no', 'www.birk-web.no', 'birk-web.no'],
      routes: (host, path) =>
        path !== '/'
          ? undefined
          : html(
              fixturePage('company-footer.html', [
                ['Fjordlys Regnskap', host.includes('aksel') ? 'Aksel Testfirma' : 'Birk Testfirma'],
              ]),
            ),
    },
  ]);
  server = await startServer({
    env: { ENRICHMENT_HOST_DELAY_MS: '0', ENRICHMENT_TIMEOUT_MS: '3000' },
    overrides: { resolver: sites.resolver, crawlerNet: { allowedAddresses: sites.allowedAddresses, dial: sites.dial } },
  });
  await server.ctx.repos.companyWrites.write(cores.map((core) => ({ core, fetched: true })));
});
afterAll(async () => {
  await server?.close();
  await sites?.close();
});

describe('domains job', () => {
  it('seeds candidates for every company but probes only --limit of them', async () => {
    const out = await run(1);
    expect(out.recordsProcessed).toBe(1);
    const r = await rows();
    expect(r.size).toBe(3);
    const [a, b, c] = cores.map((x) => r.get(x.orgNumber)!);
    // Ordered by org number among the never-completed.
    expect(a).toMatchObject({ stage: 'done', status: 'ambiguous' });
    expect(a.completed_at).toBeInstanceOf(Date);
    for (const x of [b, c]) {
      expect(x).toMatchObject({ stage: 'candidates', status: 'pending', completed_at: null });
      expect(x.candidates.length).toBeGreaterThan(0);
      expect(x.candidates.every((k) => k.status === 'pending' && k.probedAt === null)).toBe(true);
    }
  });

  it('takes never-completed companies before re-visiting completed ones, oldest first', async () => {
    await run(1);
    await run(1);
    const r = await rows();
    const done = cores.map((x) => r.get(x.orgNumber)!.completed_at!.getTime());
    expect(done[0]).toBeLessThan(done[1]);
    expect(done[1]).toBeLessThan(done[2]);
    await run(1); // the oldest completed: the first company again
    const again = (await rows()).get(cores[0].orgNumber)!.completed_at!.getTime();
    expect(again).toBeGreaterThan(done[2]);
  });

  it('resumes a pass interrupted after the probes without fetching again', async () => {
    const pool = server.ctx.store.pool;
    const first = cores[0].orgNumber;
    // As if the process died right after recording the probes: the stored facts must suffice.
    await pool.query(
      `UPDATE enrichment SET stage = 'probed', status = 'pending', confidence = 0 WHERE org_number = $1`,
      [first],
    );
    // Make it the one due first: an unfinished pass goes before every completed one.
    sites.resetCounters();
    await run(1);
    expect(requests()).toBe(0);
    expect((await rows()).get(first)).toMatchObject({ stage: 'done', status: 'ambiguous' });
    expect((await rows()).get(first)!.confidence).toBeGreaterThanOrEqual(35);
  });

  it('re-seeds a company whose website changed and keeps its last outcome until re-scored', async () => {
    const b = cores[1];
    await server.ctx.repos.companyWrites.write([{ core: { ...b, website: 'birk-web.no' }, fetched: true }]);
    await run(0);
    const seeded = (await rows()).get(b.orgNumber)!;
    expect(seeded.stage).toBe('candidates');
    expect(seeded.status).toBe('rejected');
    expect(seeded.candidates[0]).toMatchObject({ domain: 'birk-web.no', status: 'pending' });
    sites.resetCounters();
    await run(1);
    expect(requests()).toBe(1);
    expect((await rows()).get(b.orgNumber)).toMatchObject({ stage: 'done', status: 'ambiguous' });
  });

  it('drops the pipeline state of a company that is deleted', async () => {
    const c = cores[2];
    await server.ctx.repos.companyWrites.write([
      { core: { ...c, isDeleted: true, deletedDate: '2025-01-01' }, fetched: true },
    ]);
    await run(0);
    expect((await rows()).has(c.orgNumber)).toBe(false);
    const enriched = await server.ctx.store.pool.query(
      'SELECT count(*)::int AS n FROM enrichment_domains d JOIN enrichment e USING (company_id) WHERE e.org_number = $1',
      [c.orgNumber],
    );
    expect(enriched.rows[0].n).toBe(0);
  });
});
