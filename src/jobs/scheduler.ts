// Runs declared jobs on their cron schedules (UTC) in this process (SYNC_SCHEDULE=on). Several
// processes may run the scheduler at once: every one fires each slot, and runJob's lease lets
// exactly one of them run it (a slot already claimed is skipped, and a slot whose previous run is
// still going is skipped too). A job runs on schedule once its source has been synced from the
// network (`ncd sync <name>`), so a fresh install with the demo dataset downloads nothing by
// itself. A failed run is recorded and retried at the next slot; jobs never wait on each other.
import { setTimeout as sleep } from 'node:timers/promises';
import { Cron } from 'croner';
import { ConfigError } from '../config/index.ts';
import { findJob, JOBS } from './index.ts';
import type { JobPorts } from './job.ts';
import { effectiveSchedule, JobBusyError, jobNames, runJob } from './runner.ts';

/** Whether a scheduled job should run now (see the file comment). */
export async function isDue(ctx: JobPorts, name: string): Promise<boolean> {
  const def = findJob(name);
  if (!def || !effectiveSchedule(ctx.config, name)) return false;
  return def.scheduled ? def.scheduled(def.deps(ctx)) : ctx.repos.syncRuns.syncedFromNetwork(name);
}

export type SlotOutcome = 'ran' | 'failed' | 'skipped' | 'not-due';

/** One scheduled slot of one job, as every scheduling process calls it. */
export async function runSlot(ctx: JobPorts, name: string, slot: Date): Promise<SlotOutcome> {
  try {
    if (!(await isDue(ctx, name))) return 'not-due';
    const r = await runJob(ctx, name, {}, (m) => ctx.log.info({ job: name }, m), { slot });
    ctx.log.info({ job: name, slot: slot.toISOString(), records: r.recordsProcessed }, 'scheduled job finished');
    return 'ran';
  } catch (err) {
    if (err instanceof JobBusyError) {
      ctx.log.debug({ job: name }, err.message);
      return 'skipped';
    }
    ctx.log.warn(
      { job: name, slot: slot.toISOString(), err: (err as Error).message },
      'scheduled job failed; retried at its next slot',
    );
    return 'failed';
  }
}

/** Throws ConfigError for a SYNC_CRON_<JOB> that names no job (a typo would silently do nothing). */
export function checkScheduleOverrides(ctx: Pick<JobPorts, 'config'>): void {
  for (const job of Object.keys(ctx.config.syncCron)) {
    if (!findJob(job))
      throw new ConfigError(
        `SYNC_CRON_${job.toUpperCase().replace(/-/g, '_')}`,
        `names no job (jobs: ${jobNames().join(', ')})`,
      );
  }
}

/** The next time each job's schedule fires (null: not scheduled). */
export function nextRun(ctx: Pick<JobPorts, 'config'>, name: string, after: Date): Date | null {
  const cron = effectiveSchedule(ctx.config, name);
  return cron ? new Cron(cron, { timezone: 'UTC', paused: true }).nextRun(after) : null;
}

/** How long a stopping process waits for its runs in progress before it closes the store. */
const STOP_GRACE_MS = 15_000;

export interface Scheduler {
  /**
   * Fires no more slots and waits for the runs in progress to end (at most STOP_GRACE_MS), so a
   * SIGTERM between two statements of a run does not leave it `running`: it ends ok or failed.
   * A run longer than that is cut short by the exit; its lease then lapses and the process that
   * takes the job over records it as interrupted.
   */
  stop(): Promise<void>;
}

export function startScheduler(ctx: JobPorts): Scheduler {
  checkScheduleOverrides(ctx);
  const inFlight = new Set<Promise<unknown>>();
  const track = (run: Promise<unknown>) => {
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
    return run;
  };
  const crons: Cron[] = [];
  for (const { name } of JOBS) {
    const schedule = effectiveSchedule(ctx.config, name);
    if (!schedule) continue;
    crons.push(
      // protect: this process never starts a slot while its previous one is still running.
      new Cron(schedule, { timezone: 'UTC', protect: true, unref: true, name: `job:${name}` }, async (self: Cron) => {
        // Every process computes the same slot from the pattern, whatever its timer's jitter.
        const slot = self.currentRun() ?? new Date();
        await track(runSlot(ctx, name, slot));
      }),
    );
  }
  void track(runStartupJobs(ctx));
  return {
    async stop() {
      crons.forEach((c) => c.stop());
      const grace = new AbortController();
      await Promise.race([
        Promise.allSettled([...inFlight]),
        sleep(STOP_GRACE_MS, undefined, { signal: grace.signal, ref: false }).catch(() => undefined),
      ]);
      grace.abort();
    },
  };
}

/** Jobs that ask to run once at start (e.g. a coverage table that does not exist yet). */
async function runStartupJobs(ctx: JobPorts): Promise<void> {
  for (const def of JOBS) {
    const { name } = def;
    if (!def.runAtStart || !effectiveSchedule(ctx.config, name)) continue;
    try {
      if (!(await def.runAtStart(def.deps(ctx)))) continue;
      await runJob(ctx, name, {}, (m) => ctx.log.info({ job: name }, m));
    } catch (err) {
      if (!(err instanceof JobBusyError))
        ctx.log.warn({ job: name, err: (err as Error).message }, 'start-up job failed');
    }
  }
}
