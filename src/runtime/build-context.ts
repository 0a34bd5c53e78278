// Composition of everything but HTTP: opens the store, applies migrations, loads reference
// data and builds the ports (rate windows, mailer, guarded upstream clients). app.ts builds the
// services and the Fastify app on it; the CLI and benchmarks use it alone.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { systemClock, type Clock } from '../domain/clock.ts';
import { ReferenceData } from '../domain/reference-data.ts';
import { effectiveSchedule } from '../jobs/runner.ts';
import { createLogger } from '../logger.ts';
import { createLogMailer, createSmtpMailer, type Mailer } from '../mail/mailer.ts';
import { systemResolver, type Resolver } from '../net/index.ts';
import { createBrregClient } from '../sources/brreg/client.ts';
import { loadReferenceData } from '../sources/reference/load.ts';
import { createCvrGuard, guardUpstream } from '../sources/upstream-guard.ts';
import { createUpstreamClient } from '../sources/upstream-http.ts';
import { createRateWindows, type RateWindows } from '../store/access/rate-windows.ts';
import { openStore, type Store } from '../store/engine/db.ts';
import { migrate } from '../store/engine/migrate.ts';
import { createRepositories } from '../store/repositories.ts';
import type { AppContext, Upstreams } from './context.ts';
import { HOLDER } from './process-identity.ts';

const REDIS_STARTUP_WAIT_MS = 5000;

/** Test seams: ports a test replaces with fakes. */
export interface AppOverrides {
  clock?: Clock;
  upstreams?: Partial<Upstreams>;
  mailer?: Mailer;
  rateWindows?: RateWindows;
  logger?: Logger;
  resolver?: Resolver;
  crawlerNet?: AppContext['crawlerNet'];
  matchBounds?: AppContext['matchBounds'];
}

/** Opens the store, migrates it and loads reference data: everything but HTTP. */
export async function buildContext(config: Config, overrides: AppOverrides = {}): Promise<AppContext> {
  const log = overrides.logger ?? createLogger(config.logLevel, undefined, config.logFormat);
  const store: Store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    readReplicas: config.readReplicas,
    lockInfo: { host: config.host, port: config.port },
  });
  try {
    const applied = await migrate(store.pool);
    if (applied.length) log.info({ applied }, 'database migrated');
    const repos = createRepositories(store.db, {
      copyPool: store.engine === 'server' ? store.pool : undefined,
      readDb: store.readDb,
      replicas: store.replicas,
    });
    const rebuilt = await repos.deferredIndexes.restoreAll();
    if (rebuilt) log.warn({ rebuilt }, 'rebuilt indexes left dropped by an interrupted first load');
    const loaded = await loadReferenceData(repos.reference);
    if (loaded.length) log.info({ loaded }, 'reference data loaded');
    const reference = new ReferenceData(await repos.reference.snapshot());
    const rateWindows =
      overrides.rateWindows ??
      createRateWindows({
        redisUrl: config.redisUrl,
        pgPool: store.engine === 'server' ? store.pool : undefined,
        namespace: config.redisPrefix,
      });
    // Commands are not queued while Redis connects (they fail fast in an outage), so wait for the
    // first connection before serving; a Redis that is down at start-up is reported by 503s.
    await rateWindows.ready(REDIS_STARTUP_WAIT_MS);
    const mailer =
      overrides.mailer ?? (config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(log));
    const brregGuard = guardUpstream(
      createUpstreamClient({ baseUrl: config.brregBaseUrl, timeoutMs: config.brregTimeoutMs }),
      {
        windows: rateWindows,
        host: new URL(config.brregBaseUrl).host,
        limits: config.liveFetch,
        onStateChange: (breaker) => log.warn({ upstream: 'brreg', breaker }, 'upstream circuit breaker changed'),
      },
    );
    const cvrGuard = createCvrGuard(config, rateWindows, log);
    const upstreams: Upstreams = {
      brreg: overrides.upstreams?.brreg ?? createBrregClient({ baseUrl: config.brregBaseUrl, http: brregGuard.client }),
      cvr: cvrGuard?.client ?? null,
      guards: cvrGuard ? [brregGuard, cvrGuard] : [brregGuard],
    };
    return {
      config,
      clock: overrides.clock ?? systemClock,
      log,
      store,
      repos,
      reference,
      rateWindows,
      mailer,
      upstreams,
      resolver: overrides.resolver ?? systemResolver,
      crawlerNet: overrides.crawlerNet ?? {},
      matchBounds: overrides.matchBounds ?? {},
      holder: HOLDER,
      scheduleOf: (job) => effectiveSchedule(config, job),
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.upstreams.brreg.close().catch(() => undefined);
  for (const guard of ctx.upstreams.guards) guard.shutdown();
  await ctx.rateWindows.close().catch(() => undefined);
  await ctx.mailer.close().catch(() => undefined);
  await ctx.store.close();
}
