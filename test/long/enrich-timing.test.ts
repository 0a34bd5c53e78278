// Batch enrich of 100 Norwegian misses against a fake brreg with 100 ms latency: the
// concurrency budget, requests per company and wall time. In the long suite because it times
// wall clock: it runs alone there (one worker), not beside other suites on the same cores.
// Noise on a shared 2-core machine only ever adds time (ratios 1.04–1.39 were seen for the same
// code), so the wall-time bound is checked on the best of up to five batches of fresh misses;
// every batch must keep the concurrency and per-company bounds. bench/ has the full figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { TEST_SECRET } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { startServerProcess } from '../helpers/process.ts';
import { createTestDatabase } from '../helpers/server.ts';

let brreg: FakeBrreg;

beforeAll(async () => {
  brreg = await startFakeBrreg();
  for (let i = 170; i < 700; i++) brreg.add(generateCompany(i, 7));
});
afterAll(() => brreg?.close());

/** Median round trip of a single request to the fake upstream: its latency as a client sees it. */
async function measureLatency(base: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await (await fetch(`${base}/enhetsregisteret/api/enheter/000000000`)).text();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[3];
}

describe('POST /api/companies/enrich, 100 misses', () => {
  it('fetches 100 misses with at most 10 requests in flight, at most 4 per company, in near-ideal time', async () => {
    // The API runs in its own process, as deployed: the embedded database's work then does not
    // share an event loop with the fake upstream and the test client.
    const db = await createTestDatabase();
    const api = await startServerProcess({
      ...db.env,
      SECRET_KEY: TEST_SECRET,
      BRREG_BASE_URL: brreg.url,
      LOG_LEVEL: 'info',
      // This test measures the concurrency of one call, not the upstream protection: no daily
      // budget for its free key and a host budget above what 10 requests in flight can reach.
      LIVE_FETCH_BUDGET_FREE: '0',
      UPSTREAM_RATE_PER_SECOND: '100000',
    });
    try {
      const reg = await http(api.url, 'POST', '/api/keys/register', {
        body: { projectName: 'timing', email: 't@example.com' },
      });
      const enrichVia = (body: unknown) => http(api.url, 'POST', '/api/companies/enrich', { key: reg.body.raw, body });
      brreg.latencyMs = 100;
      // Steady state, not a cold process: one small call first (code paths JIT-compiled,
      // statements prepared), and the upstream's real round-trip time as its latency.
      // Twenty misses warm the live-fetch and write paths (on PGlite's worker too); one was not
      // enough: the first full batch ran up to 1.5x the ideal, later ones 1.1-1.2x.
      const warmUp = Array.from({ length: 20 }, (_, i) => generateCompany(170 + i, 7).enhet.organisasjonsnummer);
      expect((await enrichVia({ orgNumbers: warmUp })).status).toBe(200);
      const latency = await measureLatency(brreg.url);
      const ATTEMPTS = 5;
      let best = Infinity;
      let numbers: string[] = [];
      let r!: Awaited<ReturnType<typeof enrichVia>>;
      for (let attempt = 0; attempt < ATTEMPTS && best > 1.2; attempt++) {
        brreg.resetCounters();
        const batch = Array.from(
          { length: 100 },
          (_, i) => generateCompany(200 + attempt * 100 + i, 7).enhet.organisasjonsnummer,
        );
        const t0 = performance.now();
        const res = await enrichVia({ orgNumbers: batch });
        const wall = performance.now() - t0;
        expect(res.status).toBe(200);
        expect(res.body.data).toHaveLength(100);
        expect(res.body.notFound).toEqual([]);
        expect(res.body.unavailable).toEqual([]);
        expect(brreg.maxInFlight).toBeLessThanOrEqual(10);
        for (const n of batch) expect(brreg.requestsFor(n).length).toBeLessThanOrEqual(4);
        const total = brreg.requests.length;
        const ideal = Math.ceil(total / 10) * latency;
        best = Math.min(best, wall / ideal);
        console.log(
          `enrich 100 misses (batch ${attempt + 1}): ${total} upstream requests, max ${brreg.maxInFlight} in flight, upstream latency ${latency.toFixed(1)} ms, ${wall.toFixed(0)} ms (ideal ${ideal.toFixed(0)} ms, ratio ${(wall / ideal).toFixed(2)})`,
        );
        if (attempt === 0) {
          numbers = batch;
          r = res;
        }
      }
      expect(best).toBeLessThanOrEqual(1.2);
      const one = r.body.data.find((d: { orgNumber: string }) => d.orgNumber === numbers[0]);
      expect(one._sources.attribution).toContain('Brønnøysundregistrene');
      expect(one.naceName).toBeUndefined(); // lookup-only labels are not on enrich records

      brreg.resetCounters();
      const again = await enrichVia({ orgNumbers: numbers });
      expect(again.body.data).toHaveLength(100);
      expect(brreg.requests).toHaveLength(0);
    } finally {
      await api.stop();
      await db.drop();
    }
  });
});
