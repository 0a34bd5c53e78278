// GET /api/shareholders/by-owner — what one company holds, by investee (Aksjonærregisteret; DK: CVR).
import { callerOf } from '../../../plugins/auth.ts';
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
          'current state, each share as its band in ownershipPctRange). Company name, form and employees come from the company store when the company is there. ' +
          'With transitive=true every company held directly or through the companies it holds (down to maxDepth layers, at most 2000 companies), ' +
          'each with effectivePct (the product of the shares along each path, summed over paths; effectivePctRange for DK), controls and its paths, ' +
          'largest first and paged (limit, nextCursor); derived from the shareholder registers (basis), not the register of beneficial owners.',
        security: [{ bearer: [] }],
        querystring: HoldingsQuery,
        response: {
          200: ShareholderHoldings,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => services.transitiveHoldings.byOwner(callerOf(req), req.query),
  );
}
