// GET /api/keys/reconcile-url — the key's reconciliation service URL for OpenRefine (not counted as usage).
import { Type } from 'typebox';
import { errorResponses } from '../../../../contract/common.ts';
import { callerOf } from '../../../plugins/auth.ts';
import type { Api, RouteDeps } from '../../../types.ts';

const ServiceUrl = Type.Object(
  {
    serviceUrl: Type.String({
      description:
        'Add it in OpenRefine: Reconcile → Start reconciling → Add standard service. It carries a secret token.',
    }),
  },
  { examples: [{ serviceUrl: 'https://api.example.com/api/reconcile/rcn_AbCd1234' + '0'.repeat(32) }] },
);

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
        response: { 200: ServiceUrl, ...errorResponses(401, 402, 429, 500) },
      },
    },
    async (req) => ({
      serviceUrl: `${ctx.config.baseUrl.replace(/\/$/, '')}/api/reconcile/${services.keyAuth.serviceToken(callerOf(req))}`,
    }),
  );
}
