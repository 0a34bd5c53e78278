// GET /api/companies/{orgNumber}/shareholders — the holders of one company (Aksjonærregisteret;
// with country=DK the legal owners in CVR).
import { Type } from 'typebox';
import { errorResponses } from '../../../../contract/common.ts';
import {
  OwnershipCountry,
  OwnershipOrgNumberParams,
  ShareholderPosition,
  Year,
} from '../../../../contract/shareholders.ts';
import type { Api, RouteDeps } from '../../../types.ts';
import { SHAREHOLDERS_EXAMPLE } from '../../../../contract/examples.ts';

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
        querystring: Type.Object({
          country: Type.Optional(OwnershipCountry),
          year: Type.Optional(Year),
          includePersons: Type.Optional(Type.Boolean({ default: false })),
        }),
        response: {
          200: Type.Object(
            {
              data: Type.Array(ShareholderPosition),
              availableYears: Type.Array(Type.Integer(), {
                description: 'Years with data for this company, newest first',
              }),
            },
            { examples: [SHAREHOLDERS_EXAMPLE] },
          ),
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
