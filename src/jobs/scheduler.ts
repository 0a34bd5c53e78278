// Runs declared jobs on their cron schedules (UTC) in this process (SYNC_SCHEDULE=on). A job
// runs on schedule once its source has been synced from the network (`ncd sync <name>`), so a
// fresh install with the demo dataset downloads nothing by itself. With several processes,
// runJob's advisory lock lets one of them run each job.
import { Cron } from 'croner';
import type { AppContext } from '../context.ts';
import { JobBusyError, JOBS, runJob } from './registry.ts';

/** Whether a scheduled job should run now (see the file comment). */
export async function isDue(ctx: AppContext, name: string): Promise<boolean> {
  const def = JOBS[name];
  if (!def?.schedule) return false;
  return def.scheduled ? def.scheduled(ctx) : ctx.repos.syncRuns.syncedFromNetwork(name);
}

export function startScheduler(ctx: AppContext): { stop(): void } {
  const crons: Cron[] = [];
  for (const [name, def] of Object.entries(JOBS)) {
    if (!def.schedule) continue;
    crons.push(
      new Cron(def.schedule, { timezone: 'UTC', protect: true, unref: true, name }, async () => {
        try {
          if (!(await isDue(ctx, name))) return;
          const r = await runJob(ctx, name, {}, (m) => ctx.log.info({ job: name }, m));
          ctx.log.info({ job: name, records: r.recordsProcessed }, 'scheduled job finished');
        } catch (err) {
          if (err instanceof JobBusyError) ctx.log.debug({ job: name }, err.message);
          else ctx.log.warn({ job: name, err: (err as Error).message }, 'scheduled job failed');
        }
      }),
    );
  }
  return { stop: () => crons.forEach((c) => c.stop()) };
}
