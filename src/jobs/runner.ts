// Declared sync jobs. Each has a name, a typed option set and an explicit result. Every run is
// recorded in sync_runs, and a job runs in at most one process at a time: the runner holds the
// job's lease row (store/job-leases.ts), renewed while it runs, so a crashed holder's job is
// free again once the lease expires. A scheduled run also claims its slot, which no process
// runs twice.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config/index.ts';
import type { AppContext } from '../runtime/context.ts';
import { currentSyncMeter } from '../net/sync-meter.ts';

/**
 * Every option `ncd sync` and the operator route can pass. Each job declares the ones it reads
 * (`options` in its definition) and gets only those, typed; others given are ignored.
 */
export interface JobOptions {
  file?: string;
  url?: string;
  limit?: number;
  year?: number;
  /** false: a full `brreg` load does not set the update-feed position (demo data). */
  follow?: boolean;
  /** `sanctions`: the name of the list a file loads into (default: from the file, URL or format). */
  list?: string;
  /** `statistics`: one bureau's country (NO, SE, FI or DK); default all four. */
  country?: string;
  /** `procurement`: notices published from this date (YYYY-MM-DD) instead of since the last run. */
  since?: string;
}

export type JobOptionName = keyof JobOptions;
/** The options of a job that declares `K`, e.g. `OptionsOf<'file' | 'url' | 'limit'>`. */
export type OptionsOf<K extends JobOptionName> = Pick<JobOptions, K>;

export interface JobOutcome {
  recordsProcessed: number;
  details?: Record<string, unknown>;
}

export type Progress = (message: string) => void;

/** What a running job gets besides the context: its run id and two ways to report. */
export interface JobRun {
  id: number;
  progress: Progress;
  /** Records processed so far (saved to sync_runs every few seconds). */
  report(count: number): void;
}

export interface JobDefinition<K extends JobOptionName = JobOptionName> {
  description: string;
  /** The options the job reads; its `run` gets these alone. */
  options: readonly K[];
  /** Cron expression (UTC) for the scheduler; absent = run on demand only. */
  schedule?: string;
  /**
   * Whether the scheduler runs it now. Default: once the source has been synced from the
   * network at least once (a user opted in by running `ncd sync <name>`).
   */
  scheduled?(ctx: AppContext): Promise<boolean>;
  /** Whether the scheduler should run it once at start-up (e.g. a snapshot that does not exist yet). */
  runAtStart?(ctx: AppContext): Promise<boolean>;
  /** false: the job writes too little to need VACUUM (ANALYZE) afterwards. Default true. */
  vacuum?: boolean;
  run(ctx: AppContext, opts: OptionsOf<K>, run: JobRun): Promise<JobOutcome>;
}

export const JOBS: Record<string, JobDefinition> = {};

export function defineJob<K extends JobOptionName = never>(name: string, def: JobDefinition<K>) {
  JOBS[name] = def;
}

/** The declared options of a job, taken from what was given. */
function declaredOptions(def: JobDefinition, given: JobOptions): JobOptions {
  const out: Record<string, unknown> = {};
  for (const key of def.options) if (given[key] !== undefined) out[key] = given[key];
  return out as JobOptions;
}

export class UnknownJobError extends Error {}
export class JobBusyError extends Error {}

/** The cron schedule a job runs on here: SYNC_CRON_<JOB> overrides the declared one; 'off' = none. */
export function effectiveSchedule(config: Pick<Config, 'syncCron'>, name: string): string | undefined {
  const override = config.syncCron[name];
  if (override === 'off') return undefined;
  return override ?? JOBS[name]?.schedule;
}

/** This process, as lease holders and sync_runs name it (the pid lets an operator find it). */
export const HOLDER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

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

/** A failure's reason as recorded: one short line, without credentials or query strings of URLs. */
export function shortReason(err: unknown): string {
  const text = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  return text
    .replace(/(\w+:\/\/)[^/\s@]*@/g, '$1')
    .replace(/(\w+:\/\/[^\s?#]*)[?#]\S*/g, '$1')
    .slice(0, 200);
}

export interface RunClaim {
  /** The scheduled slot this run is for; a slot already claimed is not run again. */
  slot?: Date;
}

/** Runs a job now, recording the run; throws JobBusyError when it is running (or its slot was run). */
export async function runJob(
  ctx: AppContext,
  name: string,
  opts: JobOptions,
  progress: Progress,
  claim: RunClaim = {},
): Promise<JobOutcome & { runId: number; status: 'ok' }> {
  const def = JOBS[name];
  if (!def)
    throw new UnknownJobError(`Unknown source "${name}" (known: ${Object.keys(JOBS).sort().join(', ') || 'none'})`);
  if (runningHere.has(name)) throw new JobBusyError(`${name} is already running`);
  runningHere.add(name);
  const leases = ctx.repos.jobLeases;
  const ttlMs = ctx.config.syncLeaseMs;
  let claimed = false;
  let renewal: NodeJS.Timeout | undefined;
  try {
    const request = {
      job: name,
      holder: HOLDER,
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
        leases.renew(name, HOLDER, ttlMs).then(
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
      holder: HOLDER,
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
      const outcome = await def.run(ctx, declaredOptions(def, opts), { id: runId, progress, report: reportCount });
      // Statistics and visibility map after a load: the embedded engine has no autovacuum, and
      // on PostgreSQL it lags a bulk load by far.
      if (outcome.recordsProcessed > 0 && def.vacuum !== false) await ctx.repos.syncRuns.vacuumAnalyze();
      await ctx.repos.syncRuns.finish(runId, 'ok', outcome.recordsProcessed, null);
      return { ...outcome, runId, status: 'ok' };
    } catch (err) {
      await ctx.repos.syncRuns.finish(runId, 'error', count, shortReason(err)).catch(() => undefined);
      throw err;
    }
  } finally {
    if (renewal) clearInterval(renewal);
    if (claimed) await leases.release(name, HOLDER).catch(() => undefined);
    runningHere.delete(name);
  }
}
