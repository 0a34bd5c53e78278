// POST /api/companies/match — company names to organisation numbers, up to 100 per call.
import { errorResponses } from '../../../../contract/common.ts';
import {
  CompanyMatchBody,
  CompanyMatchResponse,
  MAX_COMPANY_MATCH_QUERIES,
} from '../../../../contract/company-match.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function companyMatchRoute(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/companies/match',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['companies'],
        summary: 'Match company names to organisation numbers',
        description:
          `Matches 1–${MAX_COMPANY_MATCH_QUERIES} company names (with optional country, municipality or city, postal code, ` +
          'address, website and organisation form) against the registers of all our countries, on current and former ' +
          'names. Each result lists ranked candidates with a score (0–1) and the features that explain it, and `match`: ' +
          'the top candidate when it clears the threshold with a margin over the second, else null. Candidates are ranked ' +
          'by score alone; deleted, dissolved and bankrupt companies score 0.15 less unless a query sets includeInactive. ' +
          'The work of a call is bounded: a name not looked up within it answers status not_attempted with a reason ' +
          '(send it again in a smaller call); the others answer status done. Counts as one request.',
        security: [{ bearer: [] }],
        body: CompanyMatchBody,
        response: { 200: CompanyMatchResponse, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    async (req) => services.companyMatch.match(req.body),
  );
}
