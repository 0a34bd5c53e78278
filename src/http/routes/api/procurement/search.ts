// GET /api/procurement — public procurement notices (Doffin, TED), cursor-paginated.
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { ProcurementPage, ProcurementQuery } from '../../../../contract/procurement.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function procurementSearchRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/procurement',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['procurement'],
        summary: 'Public procurement notices (Doffin, TED)',
        description:
          'Competition, result and cancellation notices from Doffin (Norway) and TED (Nordic buyers), one row per notice even when both publish it. `status` is derived: ACTIVE while the deadline is ahead, CLOSED after it, AWARDED once a result names a winner, CANCELLED. `value` sorts by the estimated value, else the awarded value. Keyset-paginated: follow `nextCursor` until `hasMore` is false. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).',
        security: [{ bearer: [] }],
        querystring: ProcurementQuery,
        response: {
          200: ProcurementPage,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => services.procurement.list(callerOf(req), req.query),
  );
}
