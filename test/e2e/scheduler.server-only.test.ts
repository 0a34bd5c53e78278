// Server mode only: three API processes run the scheduler against one PostgreSQL, with job
// cadences of seconds. Each slot of each job runs exactly once across them; a job whose run is
// still going is not started again; a failing source is recorded and retried while the other job
// keeps running; when the process holding a run is killed, its lease expires and the others
// take the job over; and a process told to stop (SIGTERM) lets its run in progress end first.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_SECRET } from '../helpers/env.ts';
import { CLI, runProcess, startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

const FIXTURE = new URL('../fixtures/mattilsynet/smilefjes-tilsyn-header-and-illustrative-row.csv', import.meta.url)
  .pathname;
const COVERAGE_EVERY_S = 2;
const LEASE_S = 3;

/** How long the upstream takes to answer in its `slow` mode. */
const SLOW_MS = 2000;

/** The Mattilsynet download, switchable between answering (at once or slowly), failing and hanging. */
function startUpstream(body: Buffer) {
  let mode: 'ok' | 'slow' | 'fail' | 'stall' = 'ok';
  const stalled: ServerResponse[] = [];
  let requests = 0;
  const answer = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end(body);
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    requests++;
    if (mode === 'ok') answer(res);
    else if (mode === 'slow') setTimeout(() => answer(res), SLOW_MS);
    else if (mode === 'fail') res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream broke');
    else stalled.push(res); // never answered: the run hangs until its process dies
  });
  return new Promise<{
    url: string;
    set(m: typeof mode): void;
    stalled: () => number;
    requests: () => number;
    close(): Promise<void>;
  }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/smilefjes-tilsyn.csv`,
        set: (m) => (mode = m),
        stalled: () => stalled.length,
        requests: () => requests,
        close: async () => {
          server.closeAllConnections();
          await new Promise<void>((r) => server.close(() => r()));
        },
      }),
    ),
  );
}

interface Run {
  id: number;
  source: string;
  status: string;
  message: string | null;
  slot: Date | null;
  holder: string | null;
  started_at: Date;
}

let db: TestDatabase;
let client: pg.Client;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let servers: ServerProcess[] = [];

const runs = async (source: string): Promise<Run[]> =>
  (
    await client.query(
      `SELECT id, source, status, message, slot, holder, started_at FROM sync_runs WHERE source = $1 ORDER BY id`,
      [source],
    )
  ).rows;
const slotRuns = async (source: string) => (await runs(source)).filter((r) => r.slot !== null);
const pidOf = (holder: string) => Number(holder.split(':')[1]);
const seconds = (d: Date) => Math.round(d.getTime() / 1000);

beforeAll(async () => {
  db = await createTestDatabase();
  upstream = await startUpstream(await readFile(FIXTURE));
  client = new pg.Client({ connectionString: db.env.DATABASE_URL });
  await client.connect();
});
afterAll(async () => {
  for (const s of servers) await s.stop('SIGTERM');
  await client?.end();
  await upstream?.close();
  await db?.drop();
});

describe('scheduler on three processes, one PostgreSQL', () => {
  it(
    'runs each slot exactly once across them, including after the holder is killed mid-run',
    { timeout: 420_000 },
    async () => {
      const env = { ...db.env, SECRET_KEY: TEST_SECRET, INSPECTIONS_URL: upstream.url, LOG_LEVEL: 'info' };
      // An operator synced inspections from the network once: from now on it is kept fresh.
      const seeded = await runProcess([CLI, 'sync', 'inspections'], env);
      expect(seeded.code, seeded.stderr).toBe(0);
      upstream.set('fail');

      const scheduled = {
        ...env,
        SYNC_SCHEDULE: 'on',
        SYNC_CRON_COVERAGE: `*/${COVERAGE_EVERY_S} * * * * *`, // even seconds
        SYNC_CRON_INSPECTIONS: '1-59/2 * * * * *', // odd seconds
        SYNC_LEASE_SECONDS: String(LEASE_S),
      };
      // A generous start-up bound: three processes compile and boot at once on a shared machine.
      servers = await Promise.all([0, 1, 2].map(() => startServerProcess(scheduled, 180_000)));
      // Slots from here on: the start-up snapshot (no slot) may still be running just before.
      const from = new Date(Date.now() + 4000);

      // Phase 1: inspections fails every slot and is retried at the next; coverage runs regardless.
      await vi.waitFor(
        async () => {
          expect((await slotRuns('inspections')).filter((r) => r.slot! >= from).length).toBeGreaterThanOrEqual(4);
          expect((await slotRuns('coverage')).filter((r) => r.slot! >= from).length).toBeGreaterThanOrEqual(4);
        },
        { timeout: 60_000, interval: 250 },
      );

      // Phase 2: the upstream hangs, so one process is mid-run; kill that process.
      upstream.set('stall');
      const stuck = await vi.waitFor(
        async () => {
          const running = (await slotRuns('inspections')).filter((r) => r.status === 'running');
          expect(running).toHaveLength(1);
          expect(upstream.stalled()).toBeGreaterThanOrEqual(1);
          return running[0];
        },
        { timeout: 30_000, interval: 200 },
      );
      // While it hangs, later slots of inspections are not started by anyone (its run is still
      // going) but coverage goes on: wait for two coverage slots after the stuck one.
      await vi.waitFor(
        async () =>
          expect((await slotRuns('coverage')).filter((r) => r.slot! > stuck.slot!).length).toBeGreaterThanOrEqual(2),
        { timeout: 30_000, interval: 200 },
      );
      const victim = servers.find((s) => s.proc.pid === pidOf(stuck.holder!))!;
      expect(victim).toBeDefined();
      await victim.stop('SIGKILL');
      const killedAt = new Date();
      servers = servers.filter((s) => s !== victim);
      upstream.set('ok');

      // Phase 3: the lease expires and a surviving process takes inspections over.
      const after = await vi.waitFor(
        async () => {
          const next = (await slotRuns('inspections')).filter((r) => r.slot! > stuck.slot! && r.status === 'ok');
          expect(next.length).toBeGreaterThanOrEqual(2);
          expect((await slotRuns('coverage')).filter((r) => r.slot! > killedAt).length).toBeGreaterThanOrEqual(3);
          return next;
        },
        { timeout: 60_000, interval: 250 },
      );
      for (const s of servers) await s.stop('SIGTERM');
      servers = [];

      const coverage = await slotRuns('coverage');
      const inspections = await slotRuns('inspections');
      // Never two runs of one slot (the claim, backed by a unique index).
      for (const list of [coverage, inspections]) {
        const slots = list.map((r) => r.slot!.toISOString());
        expect(new Set(slots).size).toBe(slots.length);
      }
      // Every slot while all three processes lived ran exactly once: no gaps either.
      const beforeKill = (list: Run[]) =>
        list.filter((r) => r.slot! >= from && r.slot! < stuck.slot!).map((r) => seconds(r.slot!));
      for (const [list, step] of [
        [coverage, COVERAGE_EVERY_S],
        [inspections, 2],
      ] as const) {
        const s = beforeKill(list);
        expect(s.length).toBeGreaterThanOrEqual(3);
        expect(s.slice(1).map((x, i) => x - s[i])).toEqual(s.slice(1).map(() => step));
      }
      // Failures were recorded with a short reason and retried at the next slot.
      const failed = inspections.filter((r) => r.slot! >= from && r.slot! < stuck.slot!);
      for (const r of failed)
        expect(r).toMatchObject({ status: 'error', message: expect.stringMatching(/answered 500/) });
      // The killed process's run: recorded as interrupted by the process that took over.
      const killedRun = (await runs('inspections')).find((r) => r.id === stuck.id)!;
      expect(killedRun).toMatchObject({ status: 'error', message: expect.stringMatching(/interrupted/) });
      // Nobody started inspections while the stuck run held the lease and renewed it.
      const firstAfter = inspections.find((r) => r.slot! > stuck.slot!)!;
      expect(firstAfter.slot!.getTime()).toBeGreaterThanOrEqual(killedAt.getTime() - 1000);
      // The survivors ran both jobs after the kill.
      for (const r of [...after, ...coverage.filter((c) => c.slot! > killedAt)])
        expect(pidOf(r.holder!)).not.toBe(victim.proc.pid);
      // Coverage went on while inspections hung (one source never stops the others).
      expect(coverage.filter((r) => r.slot! > stuck.slot! && r.slot! < killedAt).length).toBeGreaterThanOrEqual(2);
      // Every coverage run succeeded but, at most, the one the victim was running when it was
      // killed (coverage runs every 2 s, so the kill can land inside one): recorded as interrupted.
      const notOk = coverage.filter((r) => r.status !== 'ok');
      expect(notOk.length, JSON.stringify(notOk)).toBeLessThanOrEqual(1);
      for (const r of notOk) {
        expect(pidOf(r.holder!), JSON.stringify(r)).toBe(victim.proc.pid);
        expect(r).toMatchObject({ status: 'error', message: expect.stringMatching(/interrupted/) });
      }
    },
  );
});

describe('a scheduling process told to stop', () => {
  it('lets its run in progress end before it exits', { timeout: 240_000 }, async () => {
    const env = { ...db.env, SECRET_KEY: TEST_SECRET, INSPECTIONS_URL: upstream.url, LOG_LEVEL: 'info' };
    // Synced from the network once, so the schedule keeps it fresh (whether or not the test above ran).
    upstream.set('ok');
    const seeded = await runProcess([CLI, 'sync', 'inspections'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    upstream.set('slow');
    const server = await startServerProcess(
      {
        ...env,
        SYNC_SCHEDULE: 'on',
        SYNC_CRON_COVERAGE: '0 0 1 1 *', // out of the way
        SYNC_CRON_INSPECTIONS: '*/5 * * * * *',
      },
      180_000,
    );
    servers = [server];
    const known = new Set((await runs('inspections')).map((r) => r.id));
    // A run of this process that is waiting on the slow upstream.
    const running = await vi.waitFor(
      async () => {
        const mine = (await runs('inspections')).filter((r) => !known.has(r.id) && r.status === 'running');
        expect(mine).toHaveLength(1);
        expect(pidOf(mine[0].holder!)).toBe(server.proc.pid);
        return mine[0];
      },
      { timeout: 30_000, interval: 100 },
    );
    const code = await server.stop('SIGTERM');
    servers = [];
    expect(code, server.output()).toBe(0);
    // It ended as the slow answer allowed (not left `running`, not cut off), and nothing new started.
    const after = (await runs('inspections')).filter((r) => !known.has(r.id));
    expect(after.map((r) => ({ id: r.id, status: r.status }))).toEqual([{ id: running.id, status: 'ok' }]);
    expect(server.output()).toMatch(/shutdown complete/);
  });
});
