// GET /api/companies/{orgNumber}/shareholders — the holders of one company (Aksjonærregisteret;
// with country=DK the legal owners in CVR).
import { errorResponses } from '../../../../contract/common.ts';
import {
  OwnershipOrgNumberParams,
  ShareholderPositions,
  ShareholdersQuery,
} from '../../../../contract/shareholders.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function companyShareholdersRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/companies/:orgNumber/shareholders',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['shareholders'],
        summary: 'Shareholders of a Norwegian or Danish company',
        description:
          'NO: annual snapshots of Aksjonærregisteret (AS and ASA). Natural persons are left out unless includePersons=true, and then carry only name and birth year. ownershipPct is computed at read time; without a stated total, the total is the sum of the stored positions of the same year and share class. ' +
          'country=DK: the legal owners CVR registers (EJERREGISTER), current state only (no year; availableYears is empty), each with the band of its share (ownershipPctRange) and ownershipPct as its lower bound; persons by name only.',
        security: [{ bearer: [] }],
        params: OwnershipOrgNumberParams,
        querystring: ShareholdersQuery,
        response: {
          200: ShareholderPositions,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) =>
      services.shareholders.byInvestee(req.params.orgNumber, {
        country: req.query.country,
        year: req.query.year,
        includePersons: req.query.includePersons,
      }),
  );
}
