// GET /api/health — public liveness; diagnostics with a matching X-Sync-Secret.
import { Type } from 'typebox';
import type { Api, RouteDeps } from '../../types.ts';
import { HEALTH_EXAMPLES } from '../../../contract/examples.ts';

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
  },
  { examples: HEALTH_EXAMPLES },
);

export default function healthRoute(app: Api, { services }: RouteDeps) {
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
        await services.health.probe();
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'database probe failed');
        return reply.status(503).send({ status: 'error' });
      }
      if (!services.health.unlocksDiagnostics(req.headers['x-sync-secret'])) return { status: 'ok' };
      try {
        return await services.health.diagnostics();
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'health diagnostics failed');
        return reply.status(503).send({ status: 'error' });
      }
    },
  );
}
