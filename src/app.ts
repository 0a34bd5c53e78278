// Composition root: opens the store, applies migrations, loads reference data, builds the
// ports and services and the Fastify app. main.ts adds the socket; tests use app.inject or
// listen on port 0.
import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config/index.ts';
import type { AppContext } from './runtime/context.ts';
import { buildContext, closeContext, type AppOverrides } from './runtime/build-context.ts';
import { registerAuth } from './http/plugins/auth.ts';
import { registerDocs } from './http/plugins/docs.ts';
import { frameworkErrorHandler, registerErrorHandling } from './http/plugins/errors.ts';
import { registerSecurityHeaders } from './http/plugins/security-headers.ts';
import { clientErrorHandler, registerUtf8Url } from './http/plugins/utf8-url.ts';
import { registerValidation } from './http/plugins/validation.ts';
import { registerRoutes } from './http/routes/index.ts';
import { ErrorBody } from './contract/common.ts';
import { ApiError } from './errors.ts';
import { KeyLimits } from './contract/keys.ts';
import { COMPANY_SCHEMAS } from './contract/company.ts';
import type { Api } from './http/types.ts';
import { createServices, type Services } from './runtime/services.ts';
import { backgroundWorkers, createWorkerSet, type WorkerName, type WorkerSet } from './runtime/workers.ts';

export type { AppOverrides };

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
  /** The background workers of runtime/workers.ts; closing the app stops them. */
  workers: WorkerSet;
}

/** The workers every app runs while open (tests included); see runtime/workers.ts. */
export const SERVING_WORKERS: readonly WorkerName[] = ['usage-flush', 'record-cache', 'event-stream', 'crm-writeback'];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

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
      // Requests Node's parser refuses (raw UTF-8 in the URL, …) get the documented error body.
      clientErrorHandler: clientErrorHandler(config),
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
    registerUtf8Url(app as unknown as FastifyInstance);

    // Graceful shutdown: a keep-alive connection whose request was in flight when close()
    // began would stay open after its answer and hold the process until the 25 s force exit
    // (found by the reliability suite's SIGTERM scenario): answers sent while closing end
    // their connection.
    let closing = false;
    const workers = createWorkerSet(backgroundWorkers(ctx, services));
    app.addHook('preClose', async () => {
      closing = true;
      await workers.stopBeforeDrain();
    });
    app.addHook('onClose', async () => workers.stopAll());
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
    // What every app runs while it is open; the server adds deliveries and the scheduler.
    await workers.start(SERVING_WORKERS);

    return {
      app,
      ctx,
      services,
      routes,
      workers,
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
