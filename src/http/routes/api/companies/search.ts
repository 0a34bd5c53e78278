// GET /api/companies — search with filters, sort and cursor pagination.
import { Type } from 'typebox';
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses, StringEnum } from '../../../../contract/common.ts';
import { CursorParam, LimitParam, OrderParam, Page } from '../../../../contract/pagination.ts';
import type { Api, RouteDeps } from '../../../types.ts';
import { COMPANY_ROW_EXAMPLE, pageExample } from '../../../../contract/examples.ts';

const Query = Type.Object({
  country: Type.Optional(StringEnum(['NO', 'FI', 'SE', 'DK'] as const, { description: 'Scope to one registry' })),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Case-insensitive name match: substring from 3 characters, name prefix for 1–2 characters',
      examples: ['equinor'],
    }),
  ),
  nace: Type.Optional(
    Type.String({
      pattern: '^[0-9]{2}(\\.[0-9]{1,3})?$',
      description: 'NACE code or prefix, e.g. 56, 56.1, 56.101',
      examples: ['06.1'],
    }),
  ),
  orgForm: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9]{1,10}$', description: 'Legal form code, e.g. AS, ASA, ENK, AB, 16' }),
  ),
  municipality: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: '4-digit municipality number (NO)' })),
  county: Type.Optional(Type.String({ pattern: '^[0-9]{2}$', description: '2-digit county number (NO)' })),
  minEmployees: Type.Optional(Type.Integer({ minimum: 0 })),
  maxEmployees: Type.Optional(Type.Integer({ minimum: 0 })),
  minRevenue: Type.Optional(Type.Number({ description: 'NOK, on the latest financial' })),
  maxRevenue: Type.Optional(Type.Number({ description: 'NOK, on the latest financial' })),
  isBankrupt: Type.Optional(Type.Boolean()),
  isInGroup: Type.Optional(Type.Boolean()),
  hasParent: Type.Optional(Type.Boolean({ description: 'true: parentOrgNumber is set' })),
  hasTechnology: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Exact technology name, e.g. WordPress, Shopify' }),
  ),
  hasAnyAdPixel: Type.Optional(Type.Boolean()),
  includeDeleted: Type.Optional(
    Type.Boolean({ description: 'Also return deleted/deregistered companies (default false)' }),
  ),
  include: Type.Optional(StringEnum(['context'] as const, { description: 'Append aggregate context per row' })),
  sort: Type.Optional(StringEnum(['name', 'employeeCount', 'foundingDate', 'updatedAt'] as const, { default: 'name' })),
  order: OrderParam('asc'),
  limit: LimitParam,
  cursor: CursorParam,
});

export default function searchRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/companies',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['companies'],
        summary: 'Search companies',
        description:
          'Keyset-paginated: follow `nextCursor` until `hasMore` is false. Free keys must give at least one filter (country, sort, order, limit, cursor and include do not count). At most 50 consecutive cursor follows per key per 5 minutes (429 cursor_depth_exceeded).',
        security: [{ bearer: [] }],
        querystring: Query,
        response: {
          200: Page(Type.Ref('CompanyRow'), { examples: [pageExample(COMPANY_ROW_EXAMPLE)] }),
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    // Without context the page comes as JSON text (the records' stored fields serialised by the
    // database, see services/record-page-json.ts), sent as it is, as GET /api/updates does.
    async (req, reply) => {
      const { include, ...q } = req.query;
      if (include === 'context') return services.search.search(callerOf(req), req.query);
      const body = await services.search.searchJson(callerOf(req), q);
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
}
