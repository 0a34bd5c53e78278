// Composition root: opens the store, applies migrations, loads reference data, builds the
// ports and services and the Fastify app. main.ts adds the socket; tests use app.inject or
// listen on port 0.
import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config/index.ts';
import type { AppContext, Upstreams } from './runtime/context.ts';
import { createBrregClient } from './sources/brreg/client.ts';
import { createUpstreamClient } from './sources/upstream-http.ts';
import { createCvrGuard, guardUpstream } from './sources/upstream-guard.ts';
import { systemResolver, type Resolver } from './net/index.ts';
import { systemClock, type Clock } from './domain/clock.ts';
import { ReferenceData } from './domain/reference-data.ts';
import { registerAuth } from './http/plugins/auth.ts';
import { registerDocs } from './http/plugins/docs.ts';
import { frameworkErrorHandler, registerErrorHandling } from './http/plugins/errors.ts';
import { registerSecurityHeaders } from './http/plugins/security-headers.ts';
import { registerValidation } from './http/plugins/validation.ts';
import { registerRoutes } from './http/routes/index.ts';
import { ErrorBody } from './contract/common.ts';
import { ApiError } from './errors.ts';
import { KeyLimits } from './contract/keys.ts';
import { COMPANY_SCHEMAS } from './contract/company.ts';
import type { Api } from './http/types.ts';
import './jobs/all.ts';
import { loadReferenceData } from './sources/reference/load.ts';
import { createLogger } from './logger.ts';
import { createLogMailer, createSmtpMailer, type Mailer } from './mail/mailer.ts';
import { createServices, type Services } from './runtime/services.ts';
import { openStore, type Store } from './store/engine/db.ts';
import { migrate } from './store/engine/migrate.ts';
import { createRateWindows, type RateWindows } from './store/access/rate-windows.ts';
import { createRepositories } from './store/repositories.ts';

const REDIS_STARTUP_WAIT_MS = 5000;

export interface AppOverrides {
  clock?: Clock;
  upstreams?: Partial<Upstreams>;
  mailer?: Mailer;
  rateWindows?: RateWindows;
  logger?: Logger;
  resolver?: Resolver;
  crawlerNet?: AppContext['crawlerNet'];
}

/** One route as Fastify registered it (HEAD twins of GET routes included). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

export interface BuiltApp {
  app: Api;
  ctx: AppContext;
  services: Services;
  /** Every registered route, for the auth suite that checks each one is documented or known internal. */
  routes: readonly RegisteredRoute[];
  close(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Opens the store, migrates it and loads reference data: everything but HTTP. */
export async function buildContext(config: Config, overrides: AppOverrides = {}): Promise<AppContext> {
  const log = overrides.logger ?? createLogger(config.logLevel, undefined, config.logFormat);
  const store: Store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    lockInfo: { host: config.host, port: config.port },
  });
  try {
    const applied = await migrate(store.pool);
    if (applied.length) log.info({ applied }, 'database migrated');
    const repos = createRepositories(store.db, store.engine === 'server' ? store.pool : undefined);
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

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<BuiltApp> {
  const ctx = await buildContext(config, overrides);
  try {
    const services = createServices(ctx);
    const app = Fastify({
      loggerInstance: ctx.log as FastifyBaseLogger,
      trustProxy: config.trustProxy as boolean | string,
      requestIdHeader: false,
      genReqId: (req) => {
        const given = req.headers['x-request-id'];
        return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      },
      bodyLimit: config.http.bodyLimitBytes,
      frameworkErrors: frameworkErrorHandler(config),
      // Abuse limits (README "Reliability"): a client that trickles its headers or body
      // (slow-loris) is cut with 408 after these deadlines; Fastify's default requestTimeout
      // of 0 would otherwise disable Node's whole-request deadline.
      requestTimeout: config.http.requestTimeoutMs,
      keepAliveTimeout: config.http.keepAliveTimeoutMs,
      http: {
        maxHeaderSize: config.http.maxHeaderBytes,
        headersTimeout: config.http.headersTimeoutMs,
        connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.floor(config.http.headersTimeoutMs / 4))),
      },
      forceCloseConnections: 'idle',
      return503OnClosing: true,
    }).withTypeProvider<TypeBoxTypeProvider>() as unknown as Api;

    // Recorded before any plugin registers, so routes added inside plugins (docs UI) are seen too.
    const routes: RegisteredRoute[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });

    // Query-string length limit: a URL longer than HTTP_MAX_URL_LENGTH is refused before
    // routing (one over the header limit never reaches us: Node answers 431).
    app.addHook('onRequest', async (req) => {
      if (req.url.length > config.http.maxUrlLength) throw new ApiError('uri_too_long');
    });

    // Graceful shutdown: a keep-alive connection whose request was in flight when close()
    // began would stay open after its answer and hold the process until the 25 s force exit
    // (found by the reliability suite's SIGTERM scenario): answers sent while closing end
    // their connection.
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    // Usage of unmetered projects is counted in memory for up to a second (services/usage-counter.ts).
    app.addHook('onClose', async () => {
      await services.keyAuth
        .flushUsage()
        .catch((err: Error) => ctx.log.warn({ err: err.message }, 'usage counts could not be written at shutdown'));
    });
    app.addHook('onClose', async () => services.recordCache.stop());
    app.addHook('onSend', async (req, reply) => {
      reply.header('X-Request-Id', req.id);
      if (closing) reply.header('Connection', 'close');
    });
    app.addSchema(ErrorBody);
    app.addSchema(KeyLimits);
    for (const schema of COMPANY_SCHEMAS) app.addSchema(schema);
    const plain = app as unknown as FastifyInstance;
    registerValidation(plain);
    registerErrorHandling(plain, config);
    await registerSecurityHeaders(plain, config);
    await registerDocs(plain, config);
    registerAuth(plain, services.keyAuth, services.oauth, config);
    registerRoutes(app, { ctx, services });
    await app.ready();
    // The record cache follows the store's changes while the app is open (record-cache.ts).
    await services.recordCache.start();

    return {
      app,
      ctx,
      services,
      routes,
      async close() {
        await app.close();
        await closeContext(ctx);
      },
    };
  } catch (err) {
    await closeContext(ctx);
    throw err;
  }
}
