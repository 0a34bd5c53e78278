// What a sync job is: a name, its typed options, its schedule, the narrow dependencies it uses and
// its run. A job declares its dependencies as a selector over the ports the runtime offers
// (`deps`), so its run receives only those, typed: a job cannot reach what it did not declare.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { Clock } from '../domain/clock.ts';
import type { ReferenceData } from '../domain/reference-data.ts';
import type { Resolver, SafeFetchOptions } from '../net/index.ts';
import type { BrregClient } from '../sources/brreg/client.ts';
import type { Store } from '../store/engine/db.ts';
import type { Repositories } from '../store/repositories.ts';

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

/** What a running job gets besides its dependencies: its run id and two ways to report. */
export interface JobRun {
  id: number;
  progress: Progress;
  /** Records processed so far (saved to sync_runs every few seconds). */
  report(count: number): void;
}

/**
 * The ports the runtime offers jobs to select from (the runtime's context satisfies it). A job
 * never receives this whole: its `deps` picks what it uses.
 */
export interface JobPorts {
  config: Config;
  clock: Clock;
  log: Logger;
  repos: Repositories;
  reference: ReferenceData;
  upstreams: { brreg: BrregClient };
  store: Pick<Store, 'engine' | 'db'>;
  /** DNS for outbound calls to user-chosen hosts (the crawler); tests inject a fake. */
  resolver: Resolver;
  /** Web crawler test seams: exact loopback addresses allowed, and the raw dialler. */
  crawlerNet: Pick<SafeFetchOptions, 'allowedAddresses' | 'dial'>;
  /** This process, as lease holders and sync_runs name it. */
  holder: string;
  /** The cron schedule a job runs on here (SYNC_CRON_<JOB> applied), for the coverage table. */
  scheduleOf(job: string): string | undefined;
}

export interface JobDefinition<K extends JobOptionName = JobOptionName, D = unknown> {
  name: string;
  description: string;
  /** The options the job reads; its `run` gets these alone. */
  options: readonly K[];
  /** Cron expression (UTC) for the scheduler; absent = run on demand only. */
  schedule?: string;
  /** The dependencies the job uses, taken from the runtime's ports. */
  deps(ports: JobPorts): D;
  /**
   * Whether the scheduler runs it now. Default: once the source has been synced from the
   * network at least once (a user opted in by running `ncd sync <name>`).
   */
  scheduled?(deps: D): Promise<boolean>;
  /** Whether the scheduler should run it once at start-up (e.g. a snapshot that does not exist yet). */
  runAtStart?(deps: D): Promise<boolean>;
  /** false: the job writes too little to need VACUUM (ANALYZE) afterwards. Default true. */
  vacuum?: boolean;
  run(deps: D, opts: OptionsOf<K>, run: JobRun): Promise<JobOutcome>;
}

/** A job of any options and dependencies, as the list and the runner hold them. */
// The runner only passes a job's own deps() result back to it, so the erased types stay sound.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see the line above
export type AnyJob = JobDefinition<any, any>;

/** A failure's reason as recorded: one short line, without credentials or query strings of URLs. */
export function shortReason(err: unknown): string {
  const text = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  return text
    .replace(/(\w+:\/\/)[^/\s@]*@/g, '$1')
    .replace(/(\w+:\/\/[^\s?#]*)[?#]\S*/g, '$1')
    .slice(0, 200);
}

/** Declares a job; the types of `deps` flow into `run`, `scheduled` and `runAtStart`. */
export function defineJob<D, K extends JobOptionName = never>(def: JobDefinition<K, D>): JobDefinition<K, D> {
  return def;
}

/** Picks the named members (repositories, config values): the usual shape of a job's `deps`. */
export function pick<T extends object, N extends keyof T>(from: T, ...names: N[]): Pick<T, N> {
  const out = {} as Pick<T, N>;
  for (const name of names) out[name] = from[name];
  return out;
}
