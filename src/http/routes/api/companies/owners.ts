// GET /api/companies/{orgNumber}/owners — ultimate-owner candidates derived from the shareholder
// registers (Aksjonærregisteret; with country=DK CVR's owner register).
import { errorResponses } from '../../../../contract/common.ts';
import { OwnersQuery, UltimateOwners } from '../../../../contract/owners.ts';
import { OwnershipOrgNumberParams } from '../../../../contract/shareholders.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function companyOwnersRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/companies/:orgNumber/owners',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['shareholders'],
        summary: 'Ultimate-owner candidates, derived from the shareholder registers',
        description:
          'Walks the chains of the shareholder registers up from the company (NO: Aksjonærregisteret, one register year used throughout, a company without rows in it read from its latest earlier year and listed in yearFallbacks; country=DK: the legal owners in CVR, whose bands give effectivePctRange). ' +
          'This is derived from the shareholder registers (basis: shareholder-register), NOT from a register of beneficial owners: it shows who holds the shares, layer by layer, and how much could not be traced. ' +
          'Each candidate (a natural person, a company with no known owners, the state, a foreign owner, or unknown / widely held) carries effectivePct (the product along each path, summed over paths), controls (a majority at every step of some path), its paths and why the walk stopped. ' +
          'Several share classes count by shares held; the company’s own (treasury) shares are left out of the base; cycles end the path (stopReason cycle). ' +
          'Natural persons only with includePersons=true, and then with name and birth year only. flags follow the EU AML Authority’s draft criteria for complex structures (at least 3 layers and two of: trust or similar arrangement, non-EU/EEA jurisdiction, nominee), each with its evidence, null where the registers cannot tell (trusts and nominees are recognised by name only).',
        security: [{ bearer: [] }],
        params: OwnershipOrgNumberParams,
        querystring: OwnersQuery,
        response: { 200: UltimateOwners, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    async (req) => services.ultimateOwners.owners(req.params.orgNumber, req.query),
  );
}
