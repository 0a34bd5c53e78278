// Crash safety (server mode: a reader needs the database while another process writes):
// - `ncd sync brreg --file` SIGKILLed at 5 random points, then re-run, leaves the store equal
//   to an uninterrupted run; a reader polling throughout never sees part of a batch (every
//   batch is one transaction, so all its rows share one updated_at = now(): each snapshot's
//   count per updated_at must equal the final count for it).
// - SIGTERM under load: requests in flight complete, no connection is reset, the process
//   exits 0 within the grace period.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { writeDumpFiles } from '../../src/sources/brreg/dump-files.ts';
import { startFakeBrreg } from '../fakes/brreg/server.ts';
import { closedPort } from '../fakes/webhook-receiver.ts';
import { ROOT, TEST_SECRET } from '../helpers/env.ts';
import { createKey } from '../helpers/keys.ts';
import { CLI, runProcess, startServerProcess } from '../helpers/process.ts';
import { createTestDatabase, startServer, type TestDatabase } from '../helpers/server.ts';
import { pause } from './load.ts';
import { Scenario } from './record.ts';
import { send } from './wire.ts';

// 3 batches of 2000 (src/jobs/brreg.ts): kill points fall before, between and inside batches.
const COMPANIES = Number(process.env.CRASH_COMPANIES ?? 6000);
const KILLS = 5;
const LEASE_SECONDS = 2;
const dbs: TestDatabase[] = [];
const dumpDir = mkdtempSync(path.join(tmpdir(), 'ncd-crash-'));
afterAll(async () => {
  for (const d of dbs) await d.drop();
  rmSync(dumpDir, { recursive: true, force: true });
});

async function database(): Promise<Record<string, string>> {
  const d = await createTestDatabase();
  dbs.push(d);
  // A killed run keeps its job lease until it expires (README "Running at scale"): a short
  // lease lets the next run start 2 s after a kill instead of 60 s.
  return {
    ...d.env,
    SECRET_KEY: TEST_SECRET,
    LOG_LEVEL: 'warn',
    SYNC_LEASE_SECONDS: String(LEASE_SECONDS),
    BRREG_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
  };
}

async function query<T>(env: Record<string, string>, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: env.DATABASE_URL });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

const DIGEST = `SELECT count(*)::int AS n, md5(string_agg(org_number || ':' || content_hash || ':' || is_deleted, '|' ORDER BY org_number)) AS d FROM companies`;
const BY_BATCH = `SELECT updated_at::text AS t, count(*)::int AS n FROM companies GROUP BY 1`;

describe('bulk sync killed with SIGKILL at random points', () => {
  it(`re-run after ${KILLS} kills equals an uninterrupted run; readers never see half a batch`, async () => {
    const s = new Scenario(`crash: sync SIGKILLed ${KILLS}× (${COMPANIES} companies)`, 4);
    const files = await writeDumpFiles(dumpDir, COMPANIES, 13);
    const reference = await database();
    const t0 = Date.now();
    const full = await runProcess([CLI, 'sync', 'brreg', '--file', files.enheter], reference, 300_000);
    const fullMs = Date.now() - t0;
    expect(full.code, full.stderr).toBe(0);

    const env = await database();
    const reader = new pg.Client({ connectionString: env.DATABASE_URL });
    reader.on('error', () => undefined); // a failed poll rejects its query; the test reports it
    await reader.connect();
    const snapshots: Map<string, number>[] = [];
    let reading = true;
    const readLoop = (async () => {
      for (let i = 0; reading && i < 20_000; i++) {
        const rows = (await reader.query(BY_BATCH)).rows as { t: string; n: number }[];
        snapshots.push(new Map(rows.map((r) => [r.t, r.n])));
        s.count(200);
        await pause(40);
      }
    })();

    const seed = Date.now() % 100_000;
    let rand = seed;
    const random = () => (rand = (rand * 48271) % 2147483647) / 2147483647;
    const killedAt: number[] = [];
    for (let attempt = 0; killedAt.length < KILLS && attempt < KILLS * 3; attempt++) {
      // somewhere between process start-up and the end of an uninterrupted run
      const delay = Math.round(fullMs * (0.25 + 0.7 * random()));
      const proc = spawn(process.execPath, ['--import', 'tsx', CLI, 'sync', 'brreg', '--file', files.enheter], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((r) => proc.on('exit', (_code, signal) => r(signal)));
      const timer = setTimeout(() => proc.kill('SIGKILL'), delay);
      const signal = await exited;
      clearTimeout(timer);
      if (signal === 'SIGKILL') killedAt.push(delay);
      await pause(LEASE_SECONDS * 1000 + 500); // the killed run's lease expires
    }
    s.check(killedAt.length === KILLS, `only ${killedAt.length} runs were killed before finishing (seed ${seed})`);
    const rerun = await runProcess([CLI, 'sync', 'brreg', '--file', files.enheter], env, 300_000);
    s.check(rerun.code === 0, `re-run failed: ${rerun.stderr.slice(-300)}`);
    reading = false;
    await readLoop;
    await reader.end();

    const [want] = await query<{ n: number; d: string }>(reference, DIGEST);
    const [got] = await query<{ n: number; d: string }>(env, DIGEST);
    s.check(
      got.n === want.n && got.d === want.d,
      `store after kills + re-run ${JSON.stringify(got)} differs from uninterrupted ${JSON.stringify(want)}`,
    );
    const final = new Map((await query<{ t: string; n: number }>(env, BY_BATCH)).map((r) => [r.t, r.n]));
    let partial = 0;
    for (const snap of snapshots) for (const [t, n] of snap) if (final.get(t) !== n) partial++;
    s.check(partial === 0, `${partial} reader snapshots saw part of a batch`);
    s.check(
      snapshots.some((m) => m.size > 0) && snapshots.length > 20,
      `the reader saw no progress (${snapshots.length} snapshots)`,
    );
    const runs = await query<{ status: string }>(
      env,
      `SELECT status FROM sync_runs WHERE source = 'brreg' ORDER BY id`,
    );
    s.check(runs.at(-1)?.status === 'ok', `last sync run: ${JSON.stringify(runs.at(-1))}`);
    console.log(
      `killed at ${killedAt.join(', ')} ms (uninterrupted run ${fullMs} ms, seed ${seed}); ${snapshots.length} reader snapshots`,
    );
    s.save();
    expect(s.violations).toEqual([]);
  });
});

describe('SIGTERM under load', () => {
  it('completes in-flight requests, resets no connection and exits 0 within the grace period', async () => {
    const s = new Scenario('crash: SIGTERM under load', 4);
    const LATENCY = 1500;
    const brreg = await startFakeBrreg({ latencyMs: LATENCY });
    const db = await createTestDatabase();
    dbs.push(db);
    const admin = await startServer({ database: db });
    const key = (await createKey(admin, { limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } })).raw;
    await admin.close();
    const proc = await startServerProcess(
      { ...db.env, SECRET_KEY: TEST_SECRET, BRREG_BASE_URL: brreg.url, LIVE_FETCH_BUDGET_FREE: '0' },
      240_000,
    );
    try {
      const agent = new Agent({ connections: 40, keepAliveTimeout: 30_000 });
      const auth = { authorization: `Bearer ${key}` };
      // 20 fast calls on the keep-alive connections, then 20 slow live lookups (each waits
      // LATENCY ms on brreg) that are in flight in the server when SIGTERM arrives
      const outcome = (p: Promise<{ status: number }>) =>
        p.then(
          (r) => ({ status: r.status as number | undefined, error: undefined as string | undefined }),
          (e: { code?: string; message: string }) => ({ status: undefined, error: e.code ?? e.message }),
        );
      const fast = await Promise.all(
        Array.from({ length: 20 }, () =>
          outcome(send(`${proc.url}/api/municipalities?county=03`, { headers: auth, dispatcher: agent })),
        ),
      );
      const orgs: string[] = [];
      const slow = Array.from({ length: 20 }, (_, i) => {
        const c = generateCompany(90_000 + i, 3);
        brreg.add(c);
        orgs.push(c.enhet.organisasjonsnummer);
        return outcome(
          send(`${proc.url}/api/companies/${c.enhet.organisasjonsnummer}`, {
            headers: auth,
            dispatcher: agent,
            timeoutMs: 60_000,
          }),
        );
      });
      // SIGTERM once the server is working on every slow request (each has reached brreg)
      const reached = await (async () => {
        for (let i = 0; i < 400; i++) {
          if (orgs.every((o) => brreg.requestsFor(o).length > 0)) return true;
          await pause(25);
        }
        return false;
      })();
      s.check(
        reached,
        `only ${orgs.filter((o) => brreg.requestsFor(o).length > 0).length} of 20 lookups reached brreg before SIGTERM`,
      );
      const t0 = Date.now();
      const exited = proc.stop('SIGTERM');
      const results = [...fast, ...(await Promise.all(slow))];
      const code = await exited;
      const tookMs = Date.now() - t0;
      for (const r of results) {
        s.count(r.status);
        s.check(r.status === 200, `in-flight request ended with ${r.status ?? r.error}`);
      }
      s.check(code === 0, `exit code ${code}`);
      s.check(tookMs < 25_000, `exit after ${tookMs} ms (grace period 25 s)`);
      // after the exit the port is closed: refused, not reset
      const after = await send(`${proc.url}/api/health`, { timeoutMs: 5000 }).then(
        (r) => `status ${r.status}`,
        (e: { code?: string }) => e.code ?? 'error',
      );
      s.check(after === 'ECONNREFUSED', `after exit: ${after}`);
      await agent.close();
      s.save();
      expect(s.violations).toEqual([]);
    } finally {
      await proc.stop('SIGKILL');
      await brreg.close();
    }
  });
});
