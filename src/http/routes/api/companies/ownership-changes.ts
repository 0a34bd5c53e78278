// GET /api/companies/{orgNumber}/ownership-changes — the direct owners of a Norwegian company,
// compared from one register year to the next.
import { errorResponses } from '../../../../contract/common.ts';
import { OwnershipChanges, OwnershipChangesQuery } from '../../../../contract/owners.ts';
import { OwnershipOrgNumberParams } from '../../../../contract/shareholders.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function companyOwnershipChangesRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/companies/:orgNumber/ownership-changes',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['shareholders'],
        summary: 'Ownership changes between register years',
        description:
          'Per pair of consecutive years in which the company has rows in Aksjonærregisteret (between fromYear and toYear): the owners that entered or left, rose or fell by at least 5 percentage points, and whether the largest owner changed. Shares count every class and leave treasury shares out of the base. Derived from the shareholder register (basis: shareholder-register), not the register of beneficial owners. Natural persons only with includePersons=true (name and birth year); hidden, a person largest owner is shown without a name. Norway only: CVR (country=DK) keeps no years.',
        security: [{ bearer: [] }],
        params: OwnershipOrgNumberParams,
        querystring: OwnershipChangesQuery,
        response: { 200: OwnershipChanges, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    async (req) => services.ownershipChanges.changes(req.params.orgNumber, req.query),
  );
}
