// Upstream protection (issue 20), against a fake brreg that counts every request it gets:
// - a free key's enrich of 100 unknown numbers costs at most its daily budget of upstream
//   requests, the rest is listed as unavailable with the reason; a repeat costs nothing (the
//   negative cache remembers the 404s, the budget is spent);
// - a brreg answering 5xx opens the circuit breaker: calls are answered `unavailable` in under
//   50 ms without reaching brreg, until a half-open probe succeeds.
import { afterAll, describe, expect, it } from 'vitest';
import { isValidNorwegianOrgNumber } from '../../src/domain/org-number.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { TEST_SECRET } from '../helpers/env.ts';
import { createKey } from '../helpers/keys.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, startServer, type TestDatabase } from '../helpers/server.ts';
import { pause } from './load.ts';
import { Scenario } from './record.ts';
import { send } from './wire.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** `count` valid Norwegian numbers that the fake registry does not know, from `start` on. */
function unknownNumbers(start: number, count: number): string[] {
  const out: string[] = [];
  for (let n = start; out.length < count; n++) if (isValidNorwegianOrgNumber(String(n))) out.push(String(n));
  return out;
}

async function serve(env: Record<string, string>): Promise<{ brreg: FakeBrreg; proc: ServerProcess; key: string }> {
  const brreg = await startFakeBrreg();
  cleanups.push(() => brreg.close());
  const db: TestDatabase = await createTestDatabase();
  const admin = await startServer({ database: db });
  const key = (await createKey(admin, { limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } })).raw;
  await admin.close();
  cleanups.push(() => db.drop());
  const proc = await startServerProcess(
    { ...db.env, SECRET_KEY: TEST_SECRET, BRREG_BASE_URL: brreg.url, ...env },
    240_000,
  );
  cleanups.push(() => proc.stop('SIGKILL'));
  return { brreg, proc, key };
}

const BUDGET = 150;

describe('upstream protection', () => {
  it('a free key enriching 100 unknown numbers costs at most its budget; a repeat costs nothing', async () => {
    const s = new Scenario('upstream: free-key budget and negative cache', 7);
    const { brreg, proc, key } = await serve({ LIVE_FETCH_BUDGET_FREE: String(BUDGET) });
    const numbers = unknownNumbers(980_000_000, 100);
    const enrich = async () => {
      const r = await send(`${proc.url}/api/companies/enrich`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orgNumbers: numbers }),
      });
      s.count(r.status);
      return r;
    };
    const first = await enrich();
    const firstCost = brreg.requests.length;
    s.figure('first call', `${firstCost} upstream requests (budget ${BUDGET})`);
    s.check(first.status === 200, `first enrich: ${first.status}`);
    s.check(firstCost <= BUDGET, `100 unknown numbers cost ${firstCost} upstream requests (budget ${BUDGET})`);
    const notFound: string[] = first.json.notFound;
    const unavailable: string[] = first.json.unavailable;
    s.check(
      notFound.length + unavailable.length === 100,
      `every number answered once: ${notFound.length} + ${unavailable.length}`,
    );
    s.check(notFound.length > 0, 'nothing was fetched at all');
    s.check(
      unavailable.every((n) => first.json.unavailableReasons?.[n] === 'live_fetch_budget'),
      `reasons of the unavailable: ${JSON.stringify(first.json.unavailableReasons).slice(0, 120)}`,
    );

    const second = await enrich();
    const repeatCost = brreg.requests.length - firstCost;
    s.figure('repeat', `${repeatCost} upstream requests`);
    s.check(second.status === 200, `repeat enrich: ${second.status}`);
    s.check(repeatCost === 0, `the repeat within the negative-cache time cost ${repeatCost} upstream requests`);
    s.check(
      JSON.stringify([...second.json.notFound].sort()) === JSON.stringify([...notFound].sort()),
      'the repeat does not answer the remembered numbers as not found',
    );

    // a single lookup beyond the budget: 429 with the reason, still no upstream request
    const over = unavailable[0];
    const lookup = await send(`${proc.url}/api/companies/${over}`, { headers: { authorization: `Bearer ${key}` } });
    s.count(lookup.status);
    s.check(
      lookup.status === 429 && lookup.json?.code === 'live_fetch_budget_exceeded' && !!lookup.headers['retry-after'],
      `lookup over budget: ${lookup.status} ${lookup.text.slice(0, 100)}`,
    );
    s.check(brreg.requests.length === firstCost, 'the refused lookup reached brreg');
    s.save();
    expect(s.violations).toEqual([]);
  });

  it('a brreg answering 5xx opens the breaker: unavailable in under 50 ms until a half-open probe succeeds', async () => {
    const s = new Scenario('upstream: circuit breaker', 7);
    const RESET_MS = 3000;
    const { brreg, proc, key } = await serve({
      UPSTREAM_BREAKER_FAILURES: '5',
      UPSTREAM_BREAKER_RESET_MS: String(RESET_MS),
      LIVE_FETCH_BUDGET_FREE: '0',
    });
    const auth = { authorization: `Bearer ${key}` };
    // Warm both routes while brreg is well (a route's first call in a process also compiles its
    // serializer, ~70 ms here): the answers timed below are the breaker's, not the compiler's.
    const [warmLookup, warmEnrich] = unknownNumbers(960_000_000, 2);
    s.count((await send(`${proc.url}/api/companies/${warmLookup}`, { headers: auth })).status);
    s.count(
      (
        await send(`${proc.url}/api/companies/enrich`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ orgNumbers: [warmEnrich] }),
        })
      ).status,
    );
    brreg.forceStatus = 500;
    const lookup = async (org: string) => {
      const t0 = performance.now();
      const r = await send(`${proc.url}/api/companies/${org}`, { headers: auth });
      s.count(r.status);
      return { r, ms: performance.now() - t0 };
    };
    const numbers = unknownNumbers(970_000_000, 30);
    // until the breaker opens: every lookup reaches brreg and fails
    let opened = -1;
    for (const [i, org] of numbers.entries()) {
      const before = brreg.requests.length;
      const { r } = await lookup(org);
      s.check(r.status === 502, `lookup during the outage: ${r.status}`);
      if (brreg.requests.length === before) {
        opened = i;
        break;
      }
    }
    s.check(opened > 0, 'the breaker never opened');
    s.figure('opened after', `${opened} failing lookups`);
    const reached = brreg.requests.length;
    const fast: number[] = [];
    for (const org of numbers.slice(opened + 1, opened + 11)) {
      const { r, ms } = await lookup(org);
      fast.push(ms);
      s.check(r.status === 502 && r.json?.code === 'upstream_unavailable', `open breaker: ${r.status}`);
    }
    for (const batch of [numbers.slice(20, 25), numbers.slice(25, 30)]) {
      const e0 = performance.now();
      const enrich = await send(`${proc.url}/api/companies/enrich`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ orgNumbers: batch }),
      });
      fast.push(performance.now() - e0);
      s.count(enrich.status);
      s.check(
        enrich.status === 200 &&
          enrich.json.unavailable.length === batch.length &&
          Object.values(enrich.json.unavailableReasons ?? {}).every((r) => r === 'upstream_circuit_open'),
        `enrich with an open breaker: ${enrich.status} ${enrich.text.slice(0, 160)}`,
      );
    }
    const sorted = [...fast].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)];
    const slowest = sorted[sorted.length - 1];
    s.figure(
      'open-breaker answers',
      `median ${median.toFixed(1)} ms, max ${slowest.toFixed(1)} ms over ${fast.length} calls (${fast.map((x) => x.toFixed(0)).join(' ')})`,
    );
    s.check(slowest < 50, `an open-breaker answer took ${slowest.toFixed(1)} ms (want < 50 ms)`);
    s.check(brreg.requests.length === reached, 'requests reached brreg while the breaker was open');

    // brreg recovers; after the reset time one probe goes through, succeeds and closes the breaker
    brreg.forceStatus = undefined;
    const good = generateCompany(79_001, 5);
    brreg.add(good);
    await pause(RESET_MS + 200);
    const probe = await lookup(good.enhet.organisasjonsnummer);
    s.check(probe.r.status === 200, `the half-open probe: ${probe.r.status}`);
    const after = await lookup(generateCompanyNumber(brreg));
    s.check(after.r.status === 200, `after the probe: ${after.r.status}`);
    s.save();
    expect(s.violations).toEqual([]);
  });
});

function generateCompanyNumber(brreg: FakeBrreg): string {
  const c = generateCompany(79_002, 5);
  brreg.add(c);
  return c.enhet.organisasjonsnummer;
}
