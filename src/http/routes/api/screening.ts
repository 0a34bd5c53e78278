// GET /api/screening/{orgNumber} — PEP/sanctions screening of a company, its roles and owners.
import type { Country } from '../../../domain/org-number.ts';
import { DEFAULT_THRESHOLD } from '../../../domain/screening/rank.ts';
import { errorResponses } from '../../../contract/common.ts';
import { ScreeningParams, ScreeningQuery, ScreeningResult } from '../../../contract/screening.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function screeningRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/screening/:orgNumber',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['screening'],
        summary: 'Screen a company against PEP and sanctions lists',
        description:
          'Screens the company name, its active roles (CEO, board, owners of sole proprietorships …; persons by name and birth year, ' +
          'organisations by name; not the auditor or accountant) and the holders of its latest Aksjonærregisteret year (DK: the legal ' +
          "owners in CVR's owner register, persons by name only) against every " +
          'loaded list (ncd sync sanctions). Fuzzy, transliteration-aware name matching with birth-year and country adjustments; ' +
          `every result is a *possible* match with a score in [0, 1] (a name alone scores at most 0.9) at or above \`threshold\` ` +
          `(default ${DEFAULT_THRESHOLD}), for a person to review. Persons are never matched with organisations. The company must ` +
          'be in the store (404 otherwise; look it up first). Counts as one request. Every call is recorded in the audit trail (GET /api/screening/audit).',
        security: [{ bearer: [] }],
        params: ScreeningParams,
        querystring: ScreeningQuery,
        response: { 200: ScreeningResult, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) =>
      services.screening.screen((req.query.country ?? 'NO') as Country, req.params.orgNumber, {
        threshold: req.query.threshold,
        audit: { ...callerOf(req), via: 'rest' },
      }),
  );
}
