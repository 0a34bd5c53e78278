// GET /api/inspections — Mattilsynet food-safety inspections (smilefjes), cursor-paginated.
import { callerOf } from '../../plugins/auth.ts';
import { errorResponses } from '../../../contract/common.ts';
import { InspectionsPage, InspectionsQuery } from '../../../contract/inspections.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function inspectionsRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/inspections',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['inspections'],
        summary: 'Food-safety inspections (Mattilsynet, Norway)',
        description:
          "One row per inspection visit from Mattilsynet's smilefjes register. Keyset-paginated: follow `nextCursor` until `hasMore` is false. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).",
        security: [{ bearer: [] }],
        querystring: InspectionsQuery,
        response: {
          200: InspectionsPage,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => services.inspections.list(callerOf(req), req.query),
  );
}
