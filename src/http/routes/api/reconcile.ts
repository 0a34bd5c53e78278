// The OpenRefine reconciliation service (W3C Reconciliation Service API v0.2) at
// /api/reconcile/{token}: the token in the path stands for the key (OpenRefine sends no headers;
// GET /api/keys/reconcile-url gives it, and the logger redacts it from every line). Queries and
// data extension come as form fields (`queries=`, `extend=`) or query parameters; answers are
// JSON, or JSONP when a `callback` is given. Not in /openapi.json: the protocol is the W3C one.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ReconcileBody,
  ReconcileCallbackQuery,
  ReconcileParams,
  ReconcilePrefixQuery,
  ReconcilePreviewQuery,
  ReconcileProposeQuery,
  ReconcileServiceQuery,
} from '../../../contract/reconcile.ts';
import { invalid } from '../../../errors.ts';
import type { Api, RouteDeps } from '../../types.ts';

/** Metadata calls are cheap and OpenRefine repeats them: not counted against quotas. */
const FREE = { auth: 'service-token', quota: false } as const;
const COUNTED = { auth: 'service-token' } as const;

type Req = FastifyRequest<{ Params: { token: string }; Querystring: { callback?: string } }>;

function send(req: Req, reply: FastifyReply, body: unknown) {
  // Browser-side suggest of OpenRefine calls the service from its page: no cookies are involved.
  reply.header('Access-Control-Allow-Origin', '*');
  const callback = req.query.callback;
  if (!callback) return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
  return reply.type('text/javascript; charset=utf-8').send(`/**/${callback}(${JSON.stringify(body)});`);
}

export default function reconcileRoutes(app: Api, { services, ctx }: RouteDeps) {
  const { reconcile } = services;
  const serviceUrl = (req: Req) => `${ctx.config.baseUrl.replace(/\/$/, '')}/api/reconcile/${req.params.token}`;

  async function root(req: Req, reply: FastifyReply, fields: { queries?: string; extend?: string }) {
    if (fields.queries !== undefined) return send(req, reply, await reconcile.reconcile(fields.queries));
    if (fields.extend !== undefined) return send(req, reply, await reconcile.extend(fields.extend));
    return send(req, reply, reconcile.manifest(serviceUrl(req)));
  }

  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 2_000_000 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const hidden = (extra: object) => ({ hide: true, params: ReconcileParams, ...extra });

    scope.get(
      '/api/reconcile/:token',
      { config: COUNTED, schema: hidden({ querystring: ReconcileServiceQuery }) },
      async (req, reply) => root(req as Req, reply, req.query as { queries?: string; extend?: string }),
    );
    scope.post(
      '/api/reconcile/:token',
      {
        config: COUNTED,
        schema: hidden({
          querystring: ReconcileCallbackQuery,
          body: ReconcileBody,
        }),
      },
      async (req, reply) => {
        const fields = (req.body ?? {}) as { queries?: string; extend?: string };
        if (fields.queries === undefined && fields.extend === undefined)
          throw invalid('body', 'must have a queries or an extend field');
        return root(req as Req, reply, fields);
      },
    );
    scope.get(
      '/api/reconcile/:token/preview',
      { config: COUNTED, schema: hidden({ querystring: ReconcilePreviewQuery }) },
      async (req, reply) => {
        const html = await reconcile.preview((req.query as { id: string }).id);
        return reply
          .type('text/html; charset=utf-8')
          .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(html);
      },
    );
    scope.get(
      '/api/reconcile/:token/suggest/entity',
      { config: COUNTED, schema: hidden({ querystring: ReconcilePrefixQuery }) },
      async (req, reply) =>
        send(req as Req, reply, await reconcile.suggestEntity((req.query as { prefix: string }).prefix)),
    );
    scope.get(
      '/api/reconcile/:token/suggest/property',
      { config: FREE, schema: hidden({ querystring: ReconcilePrefixQuery }) },
      async (req, reply) =>
        send(req as Req, reply, reconcile.suggestProperty((req.query as { prefix: string }).prefix)),
    );
    scope.get(
      '/api/reconcile/:token/suggest/type',
      { config: FREE, schema: hidden({ querystring: ReconcilePrefixQuery }) },
      async (req, reply) => send(req as Req, reply, reconcile.suggestType((req.query as { prefix: string }).prefix)),
    );
    scope.get(
      '/api/reconcile/:token/extend/propose',
      {
        config: FREE,
        schema: hidden({
          querystring: ReconcileProposeQuery,
        }),
      },
      async (req, reply) => {
        const q = req.query as { type?: string; limit?: number };
        return send(req as Req, reply, reconcile.propose(q.type, q.limit));
      },
    );
  });
}
