// GET /api/licenses — alcohol and tobacco licences (Helsedirektoratet's TBR), cursor-paginated.
import { callerOf } from '../../plugins/auth.ts';
import { errorResponses } from '../../../contract/common.ts';
import { LicensesPage, LicensesQuery } from '../../../contract/licenses.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function licensesRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/licenses',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['licenses'],
        summary: 'Alcohol and tobacco licences (Norway)',
        description:
          'Licences from the import format of docs/licenses-import-format.md. Keyset-paginated: follow `nextCursor` until `hasMore` is false. A missing validFrom sorts as the earliest, a missing validTo as the latest. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).',
        security: [{ bearer: [] }],
        querystring: LicensesQuery,
        response: {
          200: LicensesPage,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => services.licenses.list(callerOf(req), req.query),
  );
}
