// GET /api/updates, the change feed: companies changed since a time, oldest first, as pages of
// the same rows as the search (CompanyRow).
import { Type, type Static } from 'typebox';
import { COMPANY_ROW_EXAMPLE, pageExample } from './examples.ts';
import { CursorParam, LimitParam, Page } from './pagination.ts';

export const ChangeFeedQuery = Type.Object({
  since: Type.String({
    minLength: 1,
    maxLength: 40,
    description: 'ISO 8601 date or timestamp (UTC when no offset)',
    examples: ['2026-04-20T12:34:56Z'],
  }),
  limit: LimitParam,
  cursor: CursorParam,
});
export type ChangeFeedQuery = Static<typeof ChangeFeedQuery>;

export const ChangeFeedPage = Page(Type.Ref('CompanyRow'), { examples: [pageExample(COMPANY_ROW_EXAMPLE)] });
