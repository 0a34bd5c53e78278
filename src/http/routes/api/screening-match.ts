// POST /api/screening/match — screen up to 100 persons or organisations by name (yente /match shape).
import { errorResponses } from '../../../contract/common.ts';
import { MatchBody, MatchResult, MAX_MATCH_QUERIES } from '../../../contract/screening-match.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function screeningMatchRoute(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/screening/match',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['screening'],
        summary: 'Screen any persons or organisations against PEP and sanctions lists',
        description:
          `Screens 1–${MAX_MATCH_QUERIES} entities (name, schema Person/Company/Organization, optional birth date, nationality or ` +
          'country) that need not be in our store. The answer is shaped like yente’s /match: per query key the best results with ' +
          'score, `match` flag (score ≥ threshold), features and an explanation naming the word pairs and rules that drove the ' +
          'score, plus the list versions (name, version, last sync) and the algorithm version for the audit trail. Persons are ' +
          'never matched with organisations. Counts as one request, whatever the number of entities.',
        security: [{ bearer: [] }],
        body: MatchBody,
        response: { 200: MatchResult, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    async (req) => services.screening.match(req.body, { ...callerOf(req), via: 'rest' }),
  );
}
