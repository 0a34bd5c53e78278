// The daily live-fetch budget is reserved atomically in the shared store: concurrent admissions,
// in one process or in two (two clients of one Redis, as two API processes hold), never spend more
// than the budget together, and what a reservation could not use is given back.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createLiveFetchBudget, REQUESTS_PER_MISS } from '../../../src/services/support/live-fetch-budget.ts';
import { createRateWindows, type RateWindows } from '../../../src/store/access/rate-windows.ts';

const budgets = { free: 400, pro: 20_000, enterprise: 200_000, internal: null };
const caller = { projectId: 7, tier: 'free' };
const cost = (n: number) => (n === 0 ? 0 : n * REQUESTS_PER_MISS + (n > 1 ? 1 : 0));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** 60 calls of 10 misses at once, spread over the given windows (one per process). */
async function storm(windows: RateWindows[]) {
  const now = () => new Date('2026-12-02T10:00:00Z');
  const processes = windows.map((w) => createLiveFetchBudget({ windows: w, budgets, now }));
  const admitted = await Promise.all(
    Array.from({ length: 60 }, (_, i) => processes[i % processes.length].admit(caller, 10)),
  );
  return { admitted, spent: admitted.reduce((n, a) => n + cost(a), 0), left: await processes[0].remaining(caller) };
}

async function privateRedis(): Promise<string> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  cleanups.push(async () => proc.kill('SIGKILL'));
  for (let t = 0; t < 100; t++) {
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => (c.destroy(), resolve(true)));
      c.on('error', () => resolve(false));
    });
    if (up) return `redis://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('private redis-server did not start');
}

describe('live-fetch budget under concurrency', () => {
  it('in one process: concurrent admissions spend at most the budget, and all of it', async () => {
    const w = createRateWindows({ namespace: `t${randomBytes(3).toString('hex')}` });
    cleanups.push(() => w.close());
    const { admitted, spent, left } = await storm([w]);
    expect(spent).toBeLessThanOrEqual(400);
    expect(spent).toBeGreaterThan(400 - cost(10)); // what did not fit was given back, not lost
    expect(left).toBe(400 - spent);
    expect(admitted.filter((a) => a > 0).length).toBeGreaterThan(0);
  });

  it('across two processes sharing one Redis: together at most the budget', async () => {
    const url = await privateRedis();
    const namespace = `t${randomBytes(3).toString('hex')}`;
    const a = createRateWindows({ redisUrl: url, namespace });
    const b = createRateWindows({ redisUrl: url, namespace });
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    await Promise.all([a.ready(5000), b.ready(5000)]);
    const { spent, left } = await storm([a, b]);
    expect(spent).toBeLessThanOrEqual(400);
    expect(spent).toBeGreaterThan(400 - cost(10));
    expect(left).toBe(400 - spent);
  });
});
