// GET /api/health — public liveness; diagnostics with a matching X-Sync-Secret.
import { Health, HealthHeaders, HealthUnavailable } from '../../../contract/health.ts';
import { ERROR_CATALOGUE } from '../../../errors.ts';
import type { Api, RouteDeps } from '../../types.ts';

/** The 503 body as Orakel answers it (`status: "error"`), with the catalogue's code and message. */
const unavailable = (requestId: string) =>
  ({
    status: 'error',
    error: ERROR_CATALOGUE.service_unavailable.message,
    code: 'service_unavailable',
    requestId,
  }) as const;

export default function healthRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Health probe',
        description:
          'No key, no rate limit. With `X-Sync-Secret` equal to SYNC_SECRET the diagnostic shape is returned; any other value is ignored.',
        headers: HealthHeaders,
        response: { 200: Health, 503: HealthUnavailable },
      },
    },
    async (req, reply) => {
      try {
        await services.health.probe();
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'database probe failed');
        return reply.status(503).header('Retry-After', 5).send(unavailable(req.id));
      }
      if (!services.health.unlocksDiagnostics(req.headers['x-sync-secret'])) return { status: 'ok' };
      try {
        return await services.health.diagnostics();
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'health diagnostics failed');
        return reply.status(503).header('Retry-After', 5).send(unavailable(req.id));
      }
    },
  );
}
