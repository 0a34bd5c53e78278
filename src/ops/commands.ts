// Operator commands (`ncd keys …`, `ncd sync …`, `ncd jobs …`), typed (command.ts). The CLI
// runs them on a store it opened itself, or a running embedded server runs them for it
// (operator endpoint); both paths share this code.
import type { AppContext } from '../runtime/context.ts';
import { sourceOfJob } from '../domain/data-sources.ts';
import { effectiveSchedule, jobNames, runJob } from '../jobs/runner.ts';
import { isDue, nextRun } from '../jobs/scheduler.ts';
import type { Services } from '../runtime/services.ts';
import type { OperatorCommand } from './command.ts';
import { UsageError } from './usage-error.ts';

export type Progress = (message: string) => void;

function describeKey(k: { keyPrefix: string; projectName: string; tier: string; limits: object }) {
  return { keyPrefix: k.keyPrefix, projectName: k.projectName, tier: k.tier, limits: k.limits };
}

/** `ncd jobs`: every declared job with its schedule here, its last run and its next slot. */
async function listJobs(ctx: AppContext) {
  const [last, leases] = await Promise.all([ctx.repos.syncRuns.lastRuns(), ctx.repos.jobLeases.list()]);
  const now = ctx.clock.now();
  const held = new Map(
    leases
      .filter((l) => l.holder !== null && l.expiresAt !== null && new Date(l.expiresAt) > now)
      .map((l) => [l.job, l.holder]),
  );
  const jobs = [];
  for (const name of jobNames()) {
    const schedule = effectiveSchedule(ctx.config, name) ?? null;
    const scheduled = schedule !== null && (await isDue(ctx, name));
    jobs.push({
      name,
      source: sourceOfJob(name) ?? null,
      schedule,
      scheduled,
      lastRun: last[name] ?? null,
      // A job the scheduler does not run (never synced from the network, no credentials) has no next run.
      nextRun: scheduled ? (nextRun(ctx, name, now)?.toISOString() ?? null) : null,
      runningIn: held.get(name) ?? null,
    });
  }
  return { scheduler: ctx.config.syncSchedule ? 'on' : 'off', jobs };
}

/** Runs one typed command; its options were checked by the schema (CLI parser or operator endpoint). */
export async function runOperatorCommand(
  ctx: AppContext,
  services: Services,
  command: OperatorCommand,
  progress: Progress,
): Promise<unknown> {
  switch (command.command) {
    case 'keys set-tier':
      return describeKey(await services.keys.setTier(command.keyPrefix, command.tier));
    case 'keys set-limits':
      return describeKey(
        await services.keys.setLimits(command.keyPrefix, {
          rateLimitPerMinute: command.rpm,
          dailyLimit: command.daily,
          monthlyLimit: command.monthly,
          maxPageSize: command.pageSize,
        }),
      );
    case 'keys list':
      return { keys: await services.keys.listKeys({ project: command.project, all: command.all }) };
    case 'keys deactivate':
      return services.keys.deactivate(command.keyPrefix);
    case 'jobs':
      return listJobs(ctx);
    case 'jobs run':
      return runJob(ctx, command.name, {}, progress);
    case 'sync': {
      // The one rule across options, which the schema does not state.
      if (command.file && command.url) throw new UsageError('Give --file or --url, not both');
      const { file, url, limit, year, list, country, since } = command;
      return runJob(ctx, command.source, { file, url, limit, year, list, country, since }, progress);
    }
  }
}
