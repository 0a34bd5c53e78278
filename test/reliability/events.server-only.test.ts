// The event log across processes (issue 26), a property test: two API processes on one
// PostgreSQL, random brreg syncs (CLI processes, each a random generated dump; some SIGKILLed
// mid-sync, so their open batch rolls back), one API process restarted with SIGTERM and the
// other SIGKILLed and restarted, while readers page GET /api/events against either process and
// one reads the SSE stream, reconnecting with Last-Event-ID. Every reader resumes from the last
// seq it saw, whatever failed. Properties, against the committed log read from the database at
// the end:
// - the log is gapless: seqs 1..last_seq, each once;
// - every reader saw exactly the committed events (same seq, company and values), once each, in
//   order, so nothing from a rolled-back batch (a rolled-back seq is taken again by a later
//   batch, whose events name other companies or other values);
// - replaying each company's name events from its name after the first load ends at the name
//   the store holds, each event's `before` equal to the value the previous one left: every
//   committed change has its event, in order (companies first inserted after the first load
//   start at their first event).
// Bounded: a fixed number of syncs, readers stop at the committed top, loopback only.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { writeDumpFiles, type DumpFiles } from '../../src/sources/brreg/dump-files.ts';
import { seededRandom } from '../../src/sources/seeded-random.ts';
import { closedPort } from '../fakes/webhook-receiver.ts';
import { ROOT, TEST_SECRET } from '../helpers/env.ts';
import { createKey } from '../helpers/keys.ts';
import { CLI, startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, startServer, type TestDatabase } from '../helpers/server.ts';
import { pause } from './load.ts';
import { Scenario } from './record.ts';
import { send } from './wire.ts';

// 2 batches per sync (2000 + 1000, src/jobs/brreg.ts): a kill can land inside either.
const COMPANIES = Number(process.env.EVENTS_COMPANIES ?? 3000);
const SYNCS = 4;
const SEEDS = 4;
const PAGE_READERS = 3;
const LEASE_SECONDS = 2;

interface Seen {
  seq: number;
  /** The event's company and change, as one comparable text. */
  what: string;
}

interface EventBody {
  seq: number;
  orgNumber: string;
  type: string;
  after: unknown;
}
const seenOf = (e: EventBody): Seen => ({ seq: e.seq, what: `${e.orgNumber} ${e.type} ${JSON.stringify(e.after)}` });

const dumpDir = mkdtempSync(path.join(tmpdir(), 'ncd-events-'));
let db: TestDatabase | undefined;
const procs: (ServerProcess | undefined)[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p?.stop('SIGKILL')));
  await db?.drop();
  rmSync(dumpDir, { recursive: true, force: true });
});

async function query<T>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

/** A sync run as its own process; `killAfterMs` SIGKILLs it then (if it is still running). */
function sync(file: string, env: Record<string, string>, killAfterMs?: number): Promise<'ok' | 'killed' | string> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CLI, 'sync', 'brreg', '--file', file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
  const guard = setTimeout(() => proc.kill('SIGKILL'), 300_000);
  return new Promise((resolve) =>
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(guard);
      resolve(
        signal === 'SIGKILL' && killAfterMs !== undefined
          ? 'killed'
          : code === 0
            ? 'ok'
            : `exit ${code}: ${err.slice(-300)}`,
      );
    }),
  );
}

describe('event log under random syncs, kills and restarts across two processes', () => {
  it('every reader resuming from its last seq sees each committed event once, in order, and nothing rolled back', async () => {
    const s = new Scenario(`events: ${SYNCS} random syncs, 2 processes, kills and restarts`, 4);
    const seed = Date.now() % 100_000;
    const r = seededRandom(seed);
    db = await createTestDatabase();
    const url = db.env.DATABASE_URL;
    const env = {
      ...db.env,
      SECRET_KEY: TEST_SECRET,
      LOG_LEVEL: 'warn',
      SYNC_LEASE_SECONDS: String(LEASE_SECONDS),
      BRREG_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
    };
    const admin = await startServer({ database: db });
    const key = (
      await createKey(admin, { tier: 'internal', limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } })
    ).raw;
    await admin.close();

    const dumps: DumpFiles[] = [];
    for (let k = 1; k <= SEEDS; k++) dumps.push(await writeDumpFiles(path.join(dumpDir, `s${k}`), COMPANIES, k));
    // The first load inserts (no events); its duration sizes the kill points.
    const t0 = Date.now();
    const first = await sync(dumps[0].enheter, env);
    const fullMs = Date.now() - t0;
    expect(first).toBe('ok');
    const namesAfterLoad = new Map(
      (await query<{ org_number: string; name: string }>(url, `SELECT org_number, name FROM companies`)).map((x) => [
        x.org_number,
        x.name,
      ]),
    );

    console.log(`first load ${fullMs} ms`);
    const serverEnv = { ...env, LOG_LEVEL: 'info' };
    procs[0] = await startServerProcess(serverEnv, 240_000);
    procs[1] = await startServerProcess(serverEnv, 240_000);
    const auth = { authorization: `Bearer ${key}` };
    let syncing = true;

    // Page readers: each page from a random process; a failed call is retried from the same seq.
    const pageReader = async (n: number) => {
      const seen: Seen[] = [];
      const rr = seededRandom(seed * 31 + n);
      let after = 0;
      let failures = 0;
      for (let i = 0; i < 100_000; i++) {
        // Only a page asked for after the last sync ended may end the read.
        const last = !syncing;
        const p = procs[rr.int(0, 1)];
        const limit = rr.pick([1, 7, 100, 1000, 5000]);
        const res = p
          ? await send(`${p.url}/api/events?after=${after}&limit=${limit}`, { headers: auth, timeoutMs: 20_000 }).catch(
              () => undefined,
            )
          : undefined;
        s.count(res?.status);
        if (res?.status !== 200) {
          failures++;
          await pause(100);
          continue;
        }
        const body = res.json as { data: EventBody[]; nextAfter: number; hasMore: boolean };
        for (const e of body.data) seen.push(seenOf(e));
        after = body.nextAfter;
        if (!body.hasMore) {
          if (last) break; // caught up with everything committed by the last sync
          await pause(rr.int(0, 150));
        }
      }
      return { seen, failures };
    };

    // SSE reader: reads for a random while, drops the connection, reconnects to a random
    // process with Last-Event-ID; a refused or broken connection is retried the same way.
    const sseReader = async () => {
      const seen: Seen[] = [];
      const rr = seededRandom(seed * 37);
      let last = 0;
      let reconnects = 0;
      for (let i = 0; i < 10_000; i++) {
        const p = procs[rr.int(0, 1)];
        const ctrl = new AbortController();
        const stopAt = Date.now() + rr.int(200, 3000);
        const top = syncing
          ? Infinity
          : Number((await query<{ s: string }>(url, 'SELECT last_seq AS s FROM event_seq'))[0].s);
        if (last >= top) break;
        try {
          if (!p) throw new Error('process down');
          const res = await fetch(`${p.url}/api/events/stream`, {
            headers: { ...auth, 'last-event-id': String(last) },
            signal: ctrl.signal,
          });
          s.count(res.status);
          if (res.status !== 200 || !res.body) throw new Error(`status ${res.status}`);
          const reader = res.body.getReader();
          const dec = new TextDecoder();
          let text = '';
          const timer = setTimeout(() => ctrl.abort(), Math.max(0, stopAt - Date.now()));
          try {
            while (last < top) {
              const { value, done } = await reader.read();
              if (done) break;
              text += dec.decode(value, { stream: true });
              let cut: number;
              while ((cut = text.indexOf('\n\n')) >= 0) {
                const block = text.slice(0, cut);
                text = text.slice(cut + 2);
                const data = /^data: (.*)$/m.exec(block);
                if (!data) continue;
                const e = JSON.parse(data[1]) as EventBody;
                seen.push(seenOf(e));
                last = e.seq;
              }
            }
          } finally {
            clearTimeout(timer);
            ctrl.abort();
          }
        } catch {
          await pause(100);
        }
        reconnects++;
      }
      return { seen, reconnects };
    };

    const readers = Array.from({ length: PAGE_READERS }, (_, n) => pageReader(n));
    const streamed = sseReader();

    // Random syncs: a random dump each (the same one again must append nothing), some killed
    // at a random point of the run; one API process restarted gracefully, the other killed.
    const runs: { dump: number; outcome: string; from: number; to: number }[] = [];
    const topNow = async () => Number((await query<{ s: string }>(url, 'SELECT last_seq AS s FROM event_seq'))[0].s);
    for (let k = 0; k < SYNCS; k++) {
      const dump = r.int(0, SEEDS - 1);
      const kill = k % 2 === 1 ? Math.round(fullMs * (0.3 + 0.6 * r.next())) : undefined;
      const from = await topNow();
      const restart =
        k === 1
          ? (async () => {
              await pause(r.int(0, 2000));
              await procs[1]!.stop('SIGTERM');
              procs[1] = undefined;
              procs[1] = await startServerProcess(serverEnv, 240_000);
            })()
          : k === 3
            ? (async () => {
                await pause(r.int(0, 2000));
                await procs[0]!.stop('SIGKILL');
                procs[0] = undefined;
                procs[0] = await startServerProcess(serverEnv, 240_000);
              })()
            : Promise.resolve();
      const outcome = await sync(dumps[dump].enheter, env, kill);
      await restart;
      runs.push({ dump: dump + 1, outcome, from, to: await topNow() });
      console.log(`sync ${k}: ${JSON.stringify(runs.at(-1))}`);
      s.check(outcome === 'ok' || outcome === 'killed', `sync ${k}: ${outcome}`);
      if (outcome === 'killed') await pause(LEASE_SECONDS * 1000 + 500); // its lease expires
    }
    syncing = false;
    const pages = await Promise.all(readers);
    const sse = await streamed;

    const committed = (
      await query<{ seq: string; orgNumber: string; type: string; after: unknown }>(
        url,
        'SELECT seq, org_number AS "orgNumber", type, after FROM company_events ORDER BY seq',
      )
    ).map((e) => seenOf({ ...e, seq: Number(e.seq) }));
    const top = await topNow();
    s.check(committed.length > 0, 'the syncs appended no events');
    s.check(
      committed.length === top && committed.every((e, i) => e.seq === i + 1),
      `the log is not gapless: ${committed.length} events, last_seq ${top}`,
    );
    const expectSame = (who: string, seen: Seen[]) => {
      const bad = seen.findIndex((e, i) => committed[i]?.seq !== e.seq || committed[i]?.what !== e.what);
      s.check(
        bad < 0 && seen.length === committed.length,
        `${who} saw ${seen.length} of ${committed.length} events; first difference at #${bad}: ${JSON.stringify(seen[bad])} vs ${JSON.stringify(committed[bad])}`,
      );
    };
    pages.forEach((p, n) => expectSame(`page reader ${n}`, p.seen));
    expectSame('SSE reader', sse.seen);

    // Replay: each company's name events chain from its name after the first load to its name now.
    const events = await query<{ org_number: string; before: { name?: string }; after: { name?: string } }>(
      url,
      `SELECT org_number, before, after FROM company_events WHERE category = 'name' ORDER BY seq`,
    );
    const now = new Map(
      (await query<{ org_number: string; name: string }>(url, 'SELECT org_number, name FROM companies')).map((x) => [
        x.org_number,
        x.name,
      ]),
    );
    const replay = new Map(namesAfterLoad);
    let broken = 0;
    for (const e of events) {
      // A company left out of the first dump (deleted in that seed) is inserted by a later sync,
      // which raises no event by design: its chain starts at its first name event.
      if (replay.has(e.org_number) && replay.get(e.org_number) !== e.before.name) broken++;
      replay.set(e.org_number, e.after.name!);
    }
    // Companies inserted after the first load without a name event since have nothing to replay.
    const mismatched = [...now].filter(([org, name]) => replay.has(org) && replay.get(org) !== name).length;
    s.check(broken === 0, `${broken} name events do not follow from the previous value`);
    s.check(mismatched === 0, `${mismatched} companies' names differ from their replayed name events`);

    const killed = runs.filter((x) => x.outcome === 'killed');
    s.check(killed.length > 0, `no sync was killed mid-run (runs ${JSON.stringify(runs)})`);
    s.check(
      runs.some((x) => x.outcome === 'ok' && x.to > x.from),
      `no sync appended events (runs ${JSON.stringify(runs)})`,
    );
    s.figure('committed events', String(committed.length));
    s.figure('syncs killed', String(killed.length));
    s.figure('SSE reconnects', String(sse.reconnects));
    console.log(
      `seed ${seed}; first load ${fullMs} ms; runs ${JSON.stringify(runs)}; ${committed.length} events; ` +
        `page reader failures ${pages.map((p) => p.failures).join('/')}; SSE reconnects ${sse.reconnects}`,
    );
    s.save();
    expect(s.violations).toEqual([]);
  }, 900_000);
});
