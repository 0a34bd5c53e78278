// Operator commands (`ncd keys …`, `ncd sync …`). The CLI runs them on a store it opened
// itself, or a running embedded server runs them for it (operator endpoint); both paths
// share this code.
import type { AppContext } from '../context.ts';
import { sourceOfJob } from '../domain/data-sources.ts';
import { effectiveSchedule, JOBS, runJob } from '../jobs/registry.ts';
import { isDue, nextRun } from '../jobs/scheduler.ts';
import type { Services } from '../services/index.ts';
import { intOption, parseArgs, UsageError } from './argv.ts';

export type Progress = (message: string) => void;

export const USAGE = `Usage:
  ncd serve                                   start the API (same as npm start)
  ncd sync <source> [--file PATH | --url URL] [--limit N] [--year YYYY] [--list NAME]
  ncd enrich <input.csv> --column NAME --out FILE
                                              add company data to a CSV through a server's API
                                              (ncd enrich --help)
  ncd jobs                                    every job: schedule, last run, next run, holder
  ncd jobs run <name>                         run one job now (waits for no schedule; same lease)
  ncd keys set-tier <keyPrefix> <tier>        free | pro | enterprise | internal
  ncd keys set-limits <keyPrefix> [--rpm N] [--daily N] [--monthly N] [--page-size N]
                                              0 = unlimited, "default" = back to the tier's value
sources: ${Object.keys(JOBS).join(', ')}`;

function limitOption(options: Record<string, string>, name: string, max: number): number | null | undefined {
  if (options[name] === 'default') return null;
  return intOption(options, name, 0, max);
}

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
  for (const name of Object.keys(JOBS).sort()) {
    const schedule = effectiveSchedule(ctx.config, name) ?? null;
    jobs.push({
      name,
      source: sourceOfJob(name) ?? null,
      schedule,
      scheduled: schedule !== null && (await isDue(ctx, name)),
      lastRun: last[name] ?? null,
      nextRun: nextRun(ctx, name, now)?.toISOString() ?? null,
      runningIn: held.get(name) ?? null,
    });
  }
  return { scheduler: ctx.config.syncSchedule ? 'on' : 'off', jobs };
}

export async function runOperatorCommand(
  ctx: AppContext,
  services: Services,
  argv: string[],
  progress: Progress,
): Promise<unknown> {
  const [group, action, ...rest] = argv;
  if (group === 'keys' && action === 'set-tier') {
    const { positionals } = parseArgs(rest, []);
    if (positionals.length !== 2) throw new UsageError('keys set-tier takes <keyPrefix> <tier>');
    return describeKey(await services.keys.setTier(positionals[0], positionals[1]));
  }
  if (group === 'keys' && action === 'set-limits') {
    const { positionals, options } = parseArgs(rest, ['rpm', 'daily', 'monthly', 'page-size']);
    if (positionals.length !== 1) throw new UsageError('keys set-limits takes <keyPrefix> and options');
    const pageSize = options['page-size'] === 'default' ? null : intOption(options, 'page-size', 1, 100);
    return describeKey(
      await services.keys.setLimits(positionals[0], {
        rateLimitPerMinute: limitOption(options, 'rpm', 1_000_000),
        dailyLimit: limitOption(options, 'daily', 1_000_000_000),
        monthlyLimit: limitOption(options, 'monthly', 1_000_000_000),
        maxPageSize: pageSize,
      }),
    );
  }
  if (group === 'jobs' && action === undefined) return listJobs(ctx);
  if (group === 'jobs' && action === 'run') {
    const { positionals } = parseArgs(rest, []);
    if (positionals.length !== 1) throw new UsageError('jobs run takes <name>');
    return runJob(ctx, positionals[0], {}, progress);
  }
  if (group === 'sync') {
    if (!action) throw new UsageError('sync takes a source');
    const { positionals, options } = parseArgs(rest, ['file', 'url', 'limit', 'year', 'list']);
    if (positionals.length) throw new UsageError(`Unexpected argument ${positionals[0]}`);
    if (options.file && options.url) throw new UsageError('Give --file or --url, not both');
    return runJob(
      ctx,
      action,
      {
        file: options.file,
        url: options.url,
        limit: intOption(options, 'limit', 1, 100_000_000),
        year: intOption(options, 'year', 2000, 2100),
        list: options.list,
      },
      progress,
    );
  }
  throw new UsageError(USAGE);
}
