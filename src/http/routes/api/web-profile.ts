// GET /api/enrichment — the web-profile pipeline view (Norwegian companies). The public path
// and OpenAPI tag keep their published name `enrichment`.
import { errorResponses } from '../../../contract/common.ts';
import { WebProfileList, WebProfileQuery } from '../../../contract/web-profile.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function webProfileRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/enrichment',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['enrichment'],
        summary: 'Domain-enrichment results with their scoring ledger',
        description:
          'One row per Norwegian company the pipeline has seen, ordered by confidence (highest first), then org number. ' +
          'Status: confirmed (score ≥ 65), ambiguous (35–64), rejected (< 35), pending (not scored yet). ' +
          'Offset pagination; `summary` counts companies per status at or above minConfidence.',
        security: [{ bearer: [] }],
        querystring: WebProfileQuery,
        response: { 200: WebProfileList, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    async (req) => services.webProfile.list(req.query),
  );
}
