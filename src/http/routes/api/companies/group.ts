// GET /api/companies/{orgNumber}/group — the corporate group tree around a Norwegian or Danish company.
import { errorResponses } from '../../../../contract/common.ts';
import { GroupQuery, GroupTree, OwnershipOrgNumberParams } from '../../../../contract/shareholders.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function companyGroupRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/companies/:orgNumber/group',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['companies'],
        summary: 'Corporate group tree',
        description:
          'Walks parentOrgNumber up at most 5 levels to the root, then returns the descendants breadth-first, at most 500 members. Parents come from Brønnøysundregistrene, else from the majority shareholder (more than 50 % of all shares) in the latest year of Aksjonærregisteret; with country=DK from the legal owner over 50 % in the owner register of CVR. Counts as one request. 404 when the company is not in the store: call the lookup first.',
        security: [{ bearer: [] }],
        params: OwnershipOrgNumberParams,
        querystring: GroupQuery,
        response: { 200: GroupTree, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.groups.tree(req.params.orgNumber, req.query.country),
  );
}
