// GET /api/inspections — Mattilsynet food-safety inspections (smilefjes), cursor-paginated.
import { Type } from 'typebox';
import { callerOf } from '../../plugins/auth.ts';
import { errorResponses, NorwegianOrgNumber, StringEnum } from '../../../contract/common.ts';
import { Inspection } from '../../../contract/inspections.ts';
import { CursorParam, LimitParam, OrderParam, Page } from '../../../contract/pagination.ts';
import type { Api, RouteDeps } from '../../types.ts';
import { INSPECTION_EXAMPLE, pageExample } from '../../../contract/examples.ts';

const Rating = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description }));
const IsoDate = (description: string) =>
  Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description }));

const Query = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  minRating: Rating('Lowest totalRating, inclusive (0 best … 3 worst)'),
  maxRating: Rating('Highest totalRating, inclusive'),
  postnr: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: '4-digit postal code' })),
  fromDate: IsoDate('Visits on or after this day (YYYY-MM-DD)'),
  toDate: IsoDate('Visits on or before this day (YYYY-MM-DD)'),
  sort: Type.Optional(StringEnum(['date', 'totalRating', 'name'] as const, { default: 'date' })),
  order: OrderParam('desc'),
  limit: LimitParam,
  cursor: CursorParam,
});

export default function inspectionsRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/inspections',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['inspections'],
        summary: 'Food-safety inspections (Mattilsynet, Norway)',
        description:
          "One row per inspection visit from Mattilsynet's smilefjes register. Keyset-paginated: follow `nextCursor` until `hasMore` is false. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).",
        security: [{ bearer: [] }],
        querystring: Query,
        response: {
          200: Page(Inspection, { examples: [pageExample(INSPECTION_EXAMPLE)] }),
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => services.inspections.list(callerOf(req), req.query),
  );
}
