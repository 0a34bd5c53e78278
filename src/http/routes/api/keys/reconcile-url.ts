// GET /api/keys/reconcile-url — the key's reconciliation service URL for OpenRefine (not counted as usage).
import { errorResponses } from '../../../../contract/common.ts';
import { ReconcileServiceUrl } from '../../../../contract/reconcile.ts';
import { callerOf } from '../../../plugins/auth.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function reconcileUrlRoute(app: Api, { services, ctx }: RouteDeps) {
  app.get(
    '/api/keys/reconcile-url',
    {
      config: { auth: 'key', quota: false },
      schema: {
        tags: ['keys'],
        summary: 'Reconciliation service URL of the presented key (OpenRefine)',
        description:
          'OpenRefine cannot send an Authorization header, so each key has a service URL with a token in its path that ' +
          'stands for the key (same tier, limits and usage). Treat it like the key: it stops working when the key is ' +
          'rotated or deactivated. The W3C Reconciliation API v0.2 service (manifest, queries, preview, suggest, ' +
          'data extension) answers under it.',
        security: [{ bearer: [] }],
        response: { 200: ReconcileServiceUrl, ...errorResponses(401, 402, 429, 500) },
      },
    },
    async (req) => ({
      serviceUrl: `${ctx.config.baseUrl.replace(/\/$/, '')}/api/reconcile/${services.keyAuth.serviceToken(callerOf(req))}`,
    }),
  );
}
