// GET /api/procurement — public procurement notices (Doffin, TED), cursor-paginated.
import { Type } from 'typebox';
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses, NorwegianOrgNumber, StringEnum } from '../../../../contract/common.ts';
import { CursorParam, LimitParam, OrderParam, Page } from '../../../../contract/pagination.ts';
import { PROCUREMENT_STATUSES } from '../../../../contract/procurement.ts';
import type { Api, RouteDeps } from '../../../types.ts';
import { pageExample } from '../../../../contract/examples.ts';
import { PROCUREMENT_EXAMPLE } from '../../../../contract/examples/procurement.ts';

const Instant = (description: string) =>
  Type.Optional(
    Type.String({
      pattern:
        '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$',
      description,
    }),
  );

const Query = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  role: Type.Optional(
    StringEnum(['buyer', 'winner'] as const, {
      description: 'With orgNumber: the company as buyer or as a winner (default: either)',
    }),
  ),
  status: Type.Optional(StringEnum(PROCUREMENT_STATUSES)),
  cpv: Type.Optional(
    Type.String({
      pattern: '^[0-9]{2,8}$',
      description: 'A CPV code or its prefix (2–8 digits), e.g. 909 or 90911200',
    }),
  ),
  deadlineAfter: Instant('Notices whose tender deadline is after this date or instant (ISO)'),
  publishedAfter: Instant('Notices published after this date or instant (ISO)'),
  q: Type.Optional(Type.String({ minLength: 2, maxLength: 200, description: 'Words of the title, case-insensitive' })),
  country: Type.Optional(StringEnum(['NO', 'SE', 'DK', 'FI', 'IS'] as const, { description: "The buyer's country" })),
  sort: Type.Optional(StringEnum(['publishedAt', 'deadline', 'value'] as const, { default: 'publishedAt' })),
  order: OrderParam('desc'),
  limit: LimitParam,
  cursor: CursorParam,
});

export default function procurementSearchRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/procurement',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['procurement'],
        summary: 'Public procurement notices (Doffin, TED)',
        description:
          'Competition, result and cancellation notices from Doffin (Norway) and TED (Nordic buyers), one row per notice even when both publish it. `status` is derived: ACTIVE while the deadline is ahead, CLOSED after it, AWARDED once a result names a winner, CANCELLED. `value` sorts by the estimated value, else the awarded value. Keyset-paginated: follow `nextCursor` until `hasMore` is false. At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).',
        security: [{ bearer: [] }],
        querystring: Query,
        response: {
          200: Page(Type.Ref('ProcurementNotice'), { examples: [pageExample(PROCUREMENT_EXAMPLE)] }),
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => services.procurement.list(callerOf(req), req.query),
  );
}
