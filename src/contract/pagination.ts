// Query pieces and the page envelope shared by cursor-paginated list endpoints.
import { Type, type TSchema } from 'typebox';
import { StringEnum } from './common.ts';

export const LimitParam = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 20,
    description: '1–100; values above your tier’s maxPageSize are capped',
  }),
);
export const CursorParam = Type.Optional(
  Type.String({ minLength: 1, maxLength: 2048, description: 'nextCursor of the previous page (same query)' }),
);
export const OrderParam = (fallback: 'asc' | 'desc') =>
  Type.Optional(StringEnum(['asc', 'desc'] as const, { default: fallback }));

/** `options` carries the page's OpenAPI `examples`. */
export function Page(item: TSchema, options: { examples?: unknown[] } = {}) {
  return Type.Object(
    {
      data: Type.Array(item),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Pass as `cursor` for the next page; null on the last page',
      }),
      hasMore: Type.Boolean(),
    },
    options,
  );
}
