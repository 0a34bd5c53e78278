// GET /api/coverage — public: the completeness table of the latest nightly snapshot.
import { errorResponses } from '../../../contract/common.ts';
import { CoverageTable } from '../../../contract/coverage.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function coverageRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/coverage',
    {
      schema: {
        tags: ['health'],
        summary: 'Coverage by country and category',
        description:
          'No key. What the store holds per country (NO, FI, SE) and category (companies, financials, roles, sub-units, shareholders, licences, inspections, domains, technologies, screening lists): record counts, the share of companies covered, last successful sync and the sync schedule. Measured from the store by a nightly snapshot; cached for one hour.',
        response: { 200: CoverageTable, ...errorResponses(500) },
      },
    },
    async (_req, reply) => {
      const { table, maxAgeSeconds } = await services.coverage.table();
      reply.header('Cache-Control', maxAgeSeconds > 0 ? `public, max-age=${maxAgeSeconds}` : 'no-cache');
      return table;
    },
  );
}
