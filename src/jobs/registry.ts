// Declared sync jobs. Each has a name (also its source name in health's dataSources), a typed
// option set and an explicit result. Every run is recorded in sync_runs, and a job runs in at
// most one process at a time (advisory lock in server mode; one process owns embedded mode).
import type { AppContext } from '../context.ts';

export interface JobOptions {
  file?: string;
  url?: string;
  limit?: number;
  year?: number;
  /** false: a full `brreg` load does not set the update-feed position (demo data). */
  follow?: boolean;
  /** `sanctions`: the name of the list a file loads into (default: from the file, URL or format). */
  list?: string;
}

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

export interface JobDefinition {
  description: string;
  /** Cron expression (UTC) for the scheduler; absent = run on demand only. */
  schedule?: string;
  /**
   * Whether the scheduler runs it now. Default: once the source has been synced from the
   * network at least once (a user opted in by running `ncd sync <name>`).
   */
  scheduled?(ctx: AppContext): Promise<boolean>;
  run(ctx: AppContext, opts: JobOptions, run: JobRun): Promise<JobOutcome>;
}

export const JOBS: Record<string, JobDefinition> = {};

export function defineJob(name: string, def: JobDefinition) {
  JOBS[name] = def;
}

export class UnknownJobError extends Error {}
export class JobBusyError extends Error {}

const runningHere = new Set<string>();

/** Runs a job now, recording the run; throws JobBusyError when it is already running. */
export async function runJob(ctx: AppContext, name: string, opts: JobOptions, progress: Progress): Promise<JobOutcome & { runId: number; status: 'ok' }> {
  const def = JOBS[name];
  if (!def) throw new UnknownJobError(`Unknown source "${name}" (known: ${Object.keys(JOBS).sort().join(', ') || 'none'})`);
  if (runningHere.has(name)) throw new JobBusyError(`${name} is already running`);
  runningHere.add(name);
  const lockClient = ctx.store.engine === 'server' ? await ctx.store.pool.connect() : undefined;
  try {
    if (lockClient) {
      const { rows } = await lockClient.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [`job:${name}`]);
      if (!rows[0].ok) throw new JobBusyError(`${name} is already running in another process`);
    }
    // Holding the lock, any run of this job still marked running died with its process.
    await ctx.repos.syncRuns.markInterrupted(name);
    const runId = await ctx.repos.syncRuns.start(name, opts.file ? 'file' : opts.url ? 'url' : 'upstream');
    let count = 0;
    let lastReport = 0;
    const reportCount = (n: number) => {
      count = n;
      const now = Date.now();
      if (now - lastReport > 2000) {
        lastReport = now;
        void ctx.repos.syncRuns.progress(runId, n).catch(() => undefined);
      }
    };
    try {
      const outcome = await def.run(ctx, opts, { id: runId, progress, report: reportCount });
      // Statistics and visibility map after a load: the embedded engine has no autovacuum, and
      // on PostgreSQL it lags a bulk load by far.
      if (outcome.recordsProcessed > 0) await ctx.repos.syncRuns.vacuumAnalyze();
      await ctx.repos.syncRuns.finish(runId, 'ok', outcome.recordsProcessed, null);
      return { ...outcome, runId, status: 'ok' };
    } catch (err) {
      await ctx.repos.syncRuns.finish(runId, 'error', count, (err as Error).message.slice(0, 500)).catch(() => undefined);
      throw err;
    }
  } finally {
    runningHere.delete(name);
    if (lockClient) {
      await lockClient.query('SELECT pg_advisory_unlock(hashtext($1))', [`job:${name}`]).catch(() => undefined);
      lockClient.release();
    }
  }
}
