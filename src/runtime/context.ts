// What the composition root (app.ts) hands to routes, jobs and operator commands.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { Clock } from '../domain/clock.ts';
import type { ReferenceData } from '../domain/reference-data.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Store } from '../store/engine/db.ts';
import type { RateWindows } from '../store/access/rate-windows.ts';
import type { Repositories } from '../store/repositories.ts';
import type { UpstreamClient } from '../sources/upstream-http.ts';
import type { BrregClient } from '../sources/brreg/client.ts';
import type { Resolver } from '../net/index.ts';
import type { UpstreamGuardState } from '../sources/upstream-guard.ts';
import type { SafeFetchOptions } from '../net/index.ts';
import type { MatchBounds } from '../services/company-match/match-lookups.ts';

/** Clients of the upstream registries (ports: tests point them at local fakes). */
export interface Upstreams {
  brreg: BrregClient;
  /** CVR's Elasticsearch behind the same guard as brreg; null without CVR credentials (no DK live fetch). */
  cvr: UpstreamClient | null;
  /** Breaker and shared budget of each guarded upstream host, for the health diagnostics. */
  guards: { state(): UpstreamGuardState; shutdown(): void }[];
}

export interface AppContext {
  config: Config;
  clock: Clock;
  log: Logger;
  store: Store;
  repos: Repositories;
  reference: ReferenceData;
  rateWindows: RateWindows;
  mailer: Mailer;
  upstreams: Upstreams;
  /** DNS for outbound calls to user-chosen hosts (webhooks, crawler); tests inject a fake. */
  resolver: Resolver;
  /** Web-profile crawler test seams: exact loopback addresses allowed, and the raw dialler. */
  crawlerNet: Pick<SafeFetchOptions, 'allowedAddresses' | 'dial'>;
  /** Test seam: the work bounds of a match call (defaults: services/company-match/match-lookups.ts). */
  matchBounds: Partial<MatchBounds>;
  /** This process, as lease holders and sync_runs name it (runtime/process-identity.ts). */
  holder: string;
  /** The cron schedule a job runs on here (SYNC_CRON_<JOB> applied). */
  scheduleOf(job: string): string | undefined;
}
