// GET /api/health — public liveness; diagnostics with a matching X-Sync-Secret.
import { Type } from 'typebox';
import { safeEqual } from '../../../domain/secrets.ts';
import type { Api, RouteDeps } from '../../types.ts';
import { HEALTH_EXAMPLES } from '../../../contract/examples.ts';
import { StringEnum } from '../../../contract/common.ts';

const DataSource = Type.Object({
  lastSync: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'End (or start, while running) of the latest run; null = never synced',
  }),
  status: Type.String({ description: 'ok | error | running | never' }),
  recordsProcessed: Type.Integer(),
  lastSuccess: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  message: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'Short reason when the latest run failed' }),
  ),
});

const Health = Type.Object(
  {
    status: Type.String({ description: '"ok", or "error" with status 503' }),
    timestamp: Type.Optional(Type.String({ format: 'date-time' })),
    database: Type.Optional(Type.String()),
    engine: Type.Optional(Type.String()),
    records: Type.Optional(
      Type.Object({
        companies: Type.Integer(),
        financials: Type.Integer(),
        roles: Type.Integer(),
        inspections: Type.Integer(),
        licenses: Type.Integer(),
        procurementNotices: Type.Integer(),
      }),
    ),
    dataSources: Type.Optional(
      Type.Record(Type.String(), DataSource, {
        description:
          'One entry per source: brreg-updates, brreg-snapshot, regnskap, shareholders, inspections, licenses, prh, bolagsverket, sanctions, domains, coverage (and `sanctions:<list>` per screening list)',
      }),
    ),
    upstreams: Type.Optional(
      Type.Array(
        Type.Object({
          host: Type.String(),
          breaker: StringEnum(['closed', 'open', 'half-open'] as const),
          ratePerSecond: Type.Integer({ description: 'Shared request budget of the host (UPSTREAM_RATE_PER_SECOND)' }),
          shortCircuited: Type.Integer({ description: 'Requests answered at once by the open breaker since start' }),
          throttled: Type.Integer({ description: 'Requests refused for want of the shared budget since start' }),
          failures: Type.Integer({ description: "Failures in the breaker's rolling window" }),
        }),
        { description: 'Protection of the registries behind live fetches (README "Upstream protection")' },
      ),
    ),
    liveFetch: Type.Optional(
      Type.Object({
        negativeCacheHours: Type.Number(),
        rememberedNotFound: Type.Integer({ description: 'Numbers currently answered 404 without asking brreg' }),
        dailyBudgets: Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Null()]), {
          description: 'Upstream requests per key and UTC day by tier; null is unlimited',
        }),
      }),
    ),
  },
  { examples: HEALTH_EXAMPLES },
);

const PROBE_TIMEOUT_MS = 3000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database probe timed out')), ms);
    }),
  ]);
}

export default function healthRoute(app: Api, { ctx, services }: RouteDeps) {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Health probe',
        description:
          'No key, no rate limit. With `X-Sync-Secret` equal to SYNC_SECRET the diagnostic shape is returned; any other value is ignored.',
        headers: Type.Object({ 'x-sync-secret': Type.Optional(Type.String()) }),
        response: { 200: Health, 503: Health },
      },
    },
    async (req, reply) => {
      try {
        await withTimeout(ctx.store.ping(), PROBE_TIMEOUT_MS);
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'database probe failed');
        return reply.status(503).send({ status: 'error' });
      }
      const secret = req.headers['x-sync-secret'];
      const authorised =
        ctx.config.syncSecret !== undefined && typeof secret === 'string' && safeEqual(secret, ctx.config.syncSecret);
      if (!authorised) return { status: 'ok' };
      try {
        const [records, dataSources, liveFetch] = await withTimeout(
          Promise.all([
            ctx.repos.health.recordCounts(),
            services.coverage.dataSources(),
            services.companies.liveFetchDiagnostics(),
          ]),
          ctx.config.statementTimeoutMs,
        );
        return {
          status: 'ok',
          timestamp: ctx.clock.now().toISOString(),
          database: 'connected',
          engine: ctx.store.engine === 'embedded' ? 'pglite' : 'postgresql',
          records,
          dataSources,
          upstreams: ctx.upstreams.guards.map((g) => g.state()),
          liveFetch,
        };
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'health diagnostics failed');
        return reply.status(503).send({ status: 'error' });
      }
    },
  );
}
