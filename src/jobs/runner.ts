// Runs declared jobs. Every run is recorded in sync_runs, and a job runs in at most one process at
// a time: the runner holds the job's lease row (store/ops/job-leases.ts), renewed while it runs,
// so a crashed holder's job is free again once the lease expires. A scheduled run also claims its
// slot, which no process runs twice. The job gets only the dependencies it declares.
import { hostname } from 'node:os';
import type { Config } from '../config/index.ts';
import { currentSyncMeter } from '../net/sync-meter.ts';
import { findJob, JOBS } from './index.ts';
import { shortReason, type AnyJob, type JobOptions, type JobOutcome, type JobPorts, type Progress } from './job.ts';

export { shortReason };

/** The declared options of a job, taken from what was given. */
function declaredOptions(def: AnyJob, given: JobOptions): JobOptions {
  const out: Record<string, unknown> = {};
  for (const key of def.options as (keyof JobOptions)[]) if (given[key] !== undefined) out[key] = given[key];
  return out as JobOptions;
}

export class UnknownJobError extends Error {}
export class JobBusyError extends Error {}

/** The cron schedule a job runs on here: SYNC_CRON_<JOB> overrides the declared one; 'off' = none. */
export function effectiveSchedule(config: Pick<Config, 'syncCron'>, name: string): string | undefined {
  const override = config.syncCron[name];
  if (override === 'off') return undefined;
  return override ?? findJob(name)?.schedule;
}

const runningHere = new Set<string>();

/**
 * Whether a lease holder is a process of this host that no longer exists. A sync stopped with
 * Ctrl-C or SIGKILL can then be re-run at once instead of after SYNC_LEASE_SECONDS; holders on
 * other hosts are left to their lease's expiry.
 */
export function holderIsDeadHere(holder: string): boolean {
  const [host, pid] = holder.split(':');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '') || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export interface RunClaim {
  /** The scheduled slot this run is for; a slot already claimed is not run again. */
  slot?: Date;
  /**
   * false: skip the VACUUM (ANALYZE) after the load; the caller runs it once after a series of
   * loads (the demo dataset: 14 loads into an empty store, where each whole-database VACUUM
   * cost more than most loads). Default true.
   */
  vacuum?: boolean;
}

/** Runs a job now, recording the run; throws JobBusyError when it is running (or its slot was run). */
export async function runJob(
  ctx: JobPorts,
  name: string,
  opts: JobOptions,
  progress: Progress,
  claim: RunClaim = {},
): Promise<JobOutcome & { runId: number; status: 'ok' }> {
  const def = findJob(name);
  if (!def) throw new UnknownJobError(`Unknown source "${name}" (known: ${jobNames().join(', ') || 'none'})`);
  if (runningHere.has(name)) throw new JobBusyError(`${name} is already running`);
  runningHere.add(name);
  const leases = ctx.repos.jobLeases;
  const ttlMs = ctx.config.syncLeaseMs;
  let claimed = false;
  let renewal: NodeJS.Timeout | undefined;
  try {
    const request = {
      job: name,
      holder: ctx.holder,
      ttlMs,
      slot: claim.slot,
      ignoreOtherHolders: ctx.store.engine === 'embedded',
    };
    claimed = await leases.claim(request);
    if (!claimed) {
      const holder = await leases.holderOf(name);
      if (holder && holderIsDeadHere(holder)) claimed = await leases.claim({ ...request, deadHolder: holder });
    }
    if (!claimed) {
      throw new JobBusyError(
        claim.slot
          ? `${name}: slot ${claim.slot.toISOString()} is taken or the job is running elsewhere`
          : `${name} is already running in another process`,
      );
    }
    renewal = setInterval(
      () => {
        leases.renew(name, ctx.holder, ttlMs).then(
          (ok) =>
            ok ||
            ctx.log.warn(
              { job: name },
              'job lease lost (expired and taken over): another process may run this job too',
            ),
          (err: Error) => ctx.log.warn({ job: name, err: err.message }, 'job lease renewal failed'),
        );
      },
      Math.max(500, Math.floor(ttlMs / 3)),
    );
    renewal.unref();
    // Holding the lease, any run of this job still marked running died with its process.
    await ctx.repos.syncRuns.markInterrupted(name);
    const runId = await ctx.repos.syncRuns.start(name, opts.file ? 'file' : opts.url ? 'url' : 'upstream', {
      slot: claim.slot,
      holder: ctx.holder,
    });
    let count = 0;
    let lastReport = 0;
    const meter = currentSyncMeter();
    const reportCount = (n: number) => {
      count = n;
      meter?.rows(n);
      const now = Date.now();
      if (now - lastReport > 2000) {
        lastReport = now;
        void ctx.repos.syncRuns.progress(runId, n).catch(() => undefined);
      }
    };
    try {
      const outcome = await def.run(def.deps(ctx), declaredOptions(def, opts), {
        id: runId,
        progress,
        report: reportCount,
      });
      // Statistics and visibility map after a load: the embedded engine has no autovacuum, and
      // on PostgreSQL it lags a bulk load by far.
      if (outcome.recordsProcessed > 0 && def.vacuum !== false && claim.vacuum !== false)
        await ctx.repos.syncRuns.vacuumAnalyze();
      await ctx.repos.syncRuns.finish(runId, 'ok', outcome.recordsProcessed, null);
      return { ...outcome, runId, status: 'ok' };
    } catch (err) {
      await ctx.repos.syncRuns.finish(runId, 'error', count, shortReason(err)).catch(() => undefined);
      throw err;
    }
  } finally {
    if (renewal) clearInterval(renewal);
    if (claimed) await leases.release(name, ctx.holder).catch(() => undefined);
    runningHere.delete(name);
  }
}

/** Every job's name, sorted. */
export function jobNames(): string[] {
  return JOBS.map((j) => j.name).sort();
}
