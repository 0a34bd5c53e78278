// GET /api/shareholders/by-owner — what one company holds, by investee (Aksjonærregisteret; DK: CVR).
import { errorResponses } from '../../../../contract/common.ts';
import { HoldingsQuery, ShareholderHoldings } from '../../../../contract/shareholders.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function shareholdersByOwnerRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/shareholders/by-owner',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['shareholders'],
        summary: 'Holdings of a shareholder company',
        description:
          'Entity shareholders only (a 9-digit organisation number; with country=DK an 8-digit CVR number and the legal owner register of CVR, ' +
          'current state, each share as its band in ownershipPctRange). Company name, form and employees come from the company store when the company is there.',
        security: [{ bearer: [] }],
        querystring: HoldingsQuery,
        response: {
          200: ShareholderHoldings,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) =>
      services.shareholders.byOwner(req.query.shareholderOrgNumber, {
        country: req.query.country,
        year: req.query.year,
      }),
  );
}
