// GET /api/companies — search with filters, sort and cursor pagination.
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { CompanySearchPage, CompanySearchQuery } from '../../../../contract/company-search.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function searchRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/companies',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['companies'],
        summary: 'Search companies',
        description:
          'Keyset-paginated: follow `nextCursor` until `hasMore` is false. Free keys must give at least one filter (country, sort, order, limit, cursor and include do not count). At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).',
        security: [{ bearer: [] }],
        querystring: CompanySearchQuery,
        response: {
          200: CompanySearchPage,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    // Without context the page comes as JSON text (the records' stored fields serialised by the
    // database, see services/record-page-json.ts), sent as it is, as GET /api/updates does.
    async (req, reply) => {
      const { include, ...q } = req.query;
      if (include === 'context') return services.search.search(callerOf(req), req.query);
      const body = await services.search.searchJson(callerOf(req), q);
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
}
