// GET /api/licenses — alcohol and tobacco licences (Helsedirektoratet's TBR), cursor-paginated.
import { Type } from 'typebox';
import { callerOf } from '../../plugins/auth.ts';
import { errorResponses, NorwegianOrgNumber, StringEnum } from '../../../contract/common.ts';
import { CursorParam, LimitParam, OrderParam, Page } from '../../../contract/pagination.ts';
import type { Api, RouteDeps } from '../../types.ts';
import { LICENSE_EXAMPLE, pageExample } from '../../../contract/examples.ts';

const Query = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  registerType: Type.Optional(StringEnum(['Alkoholsbevilling', 'Tobakksbevilling'] as const)),
  licenseTypeCode: Type.Optional(
    Type.String({
      pattern: '^[0-9A-Za-z]{1,16}$',
      description: 'e.g. 01SKJE (on-premise serving), 11ENGR (wholesale), 18TBIM, 19TBEK',
    }),
  ),
  municipalityNo: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: '4-digit municipality number' })),
  activeOnly: Type.Optional(
    Type.Boolean({
      description: 'true: only licences whose validTo is in the future (no validTo = open-ended = active)',
    }),
  ),
  sort: Type.Optional(
    StringEnum(['validFrom', 'validTo', 'venueName', 'municipality'] as const, { default: 'validFrom' }),
  ),
  order: OrderParam('desc'),
  limit: LimitParam,
  cursor: CursorParam,
});

export default function licensesRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/licenses',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['licenses'],
        summary: 'Alcohol and tobacco licences (Norway)',
        description:
          'Licences from the import format of docs/licenses-import-format.md. Keyset-paginated: follow `nextCursor` until `hasMore` is false. A missing validFrom sorts as the earliest, a missing validTo as the latest. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).',
        security: [{ bearer: [] }],
        querystring: Query,
        response: {
          200: Page(Type.Ref('License'), { examples: [pageExample(LICENSE_EXAMPLE)] }),
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => services.licenses.list(callerOf(req), req.query),
  );
}
