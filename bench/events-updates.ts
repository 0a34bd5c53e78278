// What the event log costs a brreg updates sync (issue 26): N companies are stored, then each
// round changes the name and business address of all N in the local fake brreg, publishes N
// `Endring` entries on its updates feed and times one `brreg-updates` run over them (HTTP feed,
// batched searches, batched writes: the real job). The fake brreg runs in a process of its own
// (events-updates-upstream.ts): brreg is remote in production, and serving its pages (some 3 s
// of JSON a round) must not share the timed process's thread. Rounds alternate with the event
// log on and off (after three warm-up rounds, five pairs in ABBA order, each from a vacuumed,
// analysed, checkpointed store); "off" is the write repository built without the event log
// (store/company-writes.ts `eventLog: false`, a bench-only seam). Prints per round the time, CPU
// and WAL, then the mean time per mode, their ratio and each pair's. Use a PostgreSQL database of
// your own:
//   createdb -h 127.0.0.1 -U postgres ncd_bench_events_updates
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/ncd_bench_events_updates node --import tsx bench/events-updates.ts 100000 [pairs]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { runJob } from '../src/jobs/runner.ts';
import { mapEnhet } from '../src/sources/brreg/map.ts';
import { UPDATES_STATE } from '../src/jobs/brreg.ts';
import { createCompanyWriteRepository } from '../src/store/company-writes.ts';
import type { UpstreamReady } from './events-updates-upstream.ts';
import { benchUnits } from './events-updates-units.ts';
import { startBenchApp } from './harness.ts';

const total = Number(process.argv[2] ?? 100_000);
// Uncounted rounds warm the whole path (JIT, plans, the heap): without one the first counted round
// carried the warm-up (~50 % in a quiet run), and with one the process's CPU per round still fell
// for several rounds, so the first pair was the highest of every run.
// On/off pairs in ABBA order, so drift cancels out and the spread of one round averages out.
// Pairs of on/off rounds (argv[3], default 5); ABBA order: on, off, off, on, on, off, …
const pairs = Number(process.argv[3] ?? 5);
const ROUNDS: ('warm-up' | 'on' | 'off')[] = [
  ...(['warm-up', 'warm-up', 'warm-up'] as const),
  ...Array.from({ length: pairs * 2 }, (_, i) => ((i + 1) % 4 < 2 ? 'on' : 'off') as 'on' | 'off'),
];
const quiet = () => undefined;
/** CPU time the whole machine has spent busy (all cores, user + system + irq). */
const machineBusyMs = () => cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);

const upstream = fork(new URL('./events-updates-upstream.ts', import.meta.url), [String(total)], {
  execArgv: ['--import', 'tsx'],
});
/** The upstream's next message. */
const upstreamSays = async () => ((await once(upstream, 'message')) as [UpstreamReady])[0];
const { url } = await upstreamSays();
// The same units as the upstream's, loaded before round one.
const units = benchUnits(total);
process.env.BRREG_BASE_URL = url;
process.env.UPSTREAM_RATE_PER_SECOND = '100000';
const { built } = await startBenchApp();
if (built.ctx.store.engine !== 'server') throw new Error('set DATABASE_URL to a PostgreSQL database of your own');
const { repos } = built.ctx;
const withEvents = repos.companyWrites;
// The same writer as the app's (COPY staging on this server), without the event log.
const withoutEvents = createCompanyWriteRepository(built.ctx.store.db, repos.companyChanges, {
  eventLog: false,
  copyPool: built.ctx.store.pool,
});
try {
  const autoRuns = async () =>
    Number(
      (
        await built.ctx.store.pool.query<{ n: string }>(
          'SELECT sum(autovacuum_count + autoanalyze_count) AS n FROM pg_stat_user_tables',
        )
      ).rows[0].n,
    );
  const walState = async () => {
    const { rows } = await built.ctx.store.pool.query<{ lsn: string; checkpoints: string; backend_writes: string }>(
      `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS lsn,
         checkpoints_timed + checkpoints_req AS checkpoints, buffers_backend AS backend_writes FROM pg_stat_bgwriter`,
    );
    return {
      lsn: Number(rows[0].lsn),
      checkpoints: Number(rows[0].checkpoints),
      backendWrites: Number(rows[0].backend_writes),
    };
  };
  for (let i = 0; i < units.length; i += 2000)
    await withoutEvents.write(units.slice(i, i + 2000).map((e) => ({ core: mapEnhet(e) })));
  await repos.syncRuns.setState(UPDATES_STATE, { enheterId: 1, underenheterId: 1 });
  const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
  const rounds = [];
  for (const [r, mode] of ROUNDS.entries()) {
    // This round's changes and feed entries (events-updates-upstream.ts), made before the clock starts.
    upstream.send({ round: r });
    if ((await upstreamSays()).ready !== r) throw new Error('the upstream answered for another round');
    repos.companyWrites = mode === 'off' ? withoutEvents : withEvents;
    // Every round starts from a vacuumed, analysed, checkpointed store. Without this a round paid
    // for the previous round's dead rows and statistics (autovacuum, autoanalyze) or a
    // checkpoint's full-page writes whenever they fell: single rounds of one mode ranged 27–37 s.
    // Each round still pays for its own writes and whatever background work they set off.
    await built.ctx.store.pool.query('VACUUM ANALYZE');
    await built.ctx.store.pool.query('CHECKPOINT');
    const seqBefore = (await repos.eventLog.bounds()).lastSeq;
    const load = loadavg()[0];
    const cpu0 = process.cpuUsage();
    const busy0 = machineBusyMs();
    const auto0 = await autoRuns();
    const wal0 = await walState();
    const t0 = performance.now();
    await runJob(built.ctx, 'brreg-updates', { limit: total }, quiet);
    const ms = performance.now() - t0;
    // Where the time went: this process (job, driver) against everything else on the machine (the
    // PostgreSQL backend and the upstream's process). Either one near the wall time is the bound.
    const cpu = process.cpuUsage(cpu0);
    const nodeCpuMs = (cpu.user + cpu.system) / 1000;
    const otherCpuMs = machineBusyMs() - busy0 - nodeCpuMs;
    // Autovacuum and autoanalyze runs that fell within the round (they compete for the 2 cores).
    const autovacuum = (await autoRuns()) - auto0;
    // WAL written in the round, and checkpoints and backend buffer writes that fell within it.
    const wal1 = await walState();
    const walMb = Math.round((wal1.lsn - wal0.lsn) / 1e6);
    const checkpoints = wal1.checkpoints - wal0.checkpoints;
    const backendWrites = wal1.backendWrites - wal0.backendWrites;
    const events = (await repos.eventLog.bounds()).lastSeq - seqBefore;
    if (mode !== 'warm-up') times[mode].push(ms);
    rounds.push({
      mode,
      ms: Math.round(ms),
      events,
      nodeCpuMs: Math.round(nodeCpuMs),
      otherCpuMs: Math.round(otherCpuMs),
      autovacuum,
      walMb,
      checkpoints,
      backendWrites,
      load1: +load.toFixed(2),
    });
    console.error(JSON.stringify(rounds.at(-1)));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    JSON.stringify({
      changes: total,
      rounds,
      onMs: Math.round(mean(times.on)),
      offMs: Math.round(mean(times.off)),
      ratio: +(mean(times.on) / mean(times.off)).toFixed(3),
      pairRatios: times.on.map((on, i) => +(on / times.off[i]).toFixed(3)),
      loadavg: loadavg().map((l) => +l.toFixed(2)),
    }),
  );
} finally {
  repos.companyWrites = withEvents;
  await built.close();
  upstream.disconnect();
}
