// GET /api/companies and GET /api/updates: filters, sort, tier-capped pages, signed cursors,
// the cursor-depth guard, and rows with the latest two financials, active roles and labels.
import type { AppContext } from '../context.ts';
import { normaliseCompanyName, SOURCE } from '../domain/company.ts';
import { ApiError, invalid } from '../errors.ts';
import type { SearchFilters, SearchPage, SortKey, SortOrder } from '../store/company-search.ts';
import { buildCompanyRecord } from './company-record.ts';
import type { AuthContext } from './keys.ts';
import type { MarketContextService } from './market-context.ts';
import type { Pagination } from './pagination.ts';

export interface SearchQuery extends SearchFilters {
  sort?: SortKey;
  order?: SortOrder;
  limit?: number;
  cursor?: string;
  include?: 'context';
}

/** Parameters that shape the page, not the result set: they do not satisfy "at least one filter". */
const NOT_FILTERS = new Set(['country', 'sort', 'order', 'limit', 'cursor', 'include']);

export function createSearchService(ctx: AppContext, pages: Pagination, market: MarketContextService) {
  async function rows(page: SearchPage, withContext: boolean) {
    const stored = await ctx.repos.companyReads.relations(page.rows, { financialsLimit: 2, roles: true });
    return Promise.all(
      stored.map(async (s) => {
        const record = buildCompanyRecord(s, ctx.reference, { labels: true });
        if (!withContext) return record;
        const context = await market.for(s.row.business_address_muni_no, s.row.nace_code1);
        const attribution = record._sources.attribution.includes(SOURCE.ownStore)
          ? record._sources.attribution
          : [...record._sources.attribution, SOURCE.ownStore];
        return { ...record, context, _sources: { ...record._sources, attribution } };
      }),
    );
  }

  function validate(q: SearchQuery): SearchFilters {
    const f: SearchFilters = { ...q };
    for (const k of ['sort', 'order', 'limit', 'cursor', 'include'] as const) delete (f as Record<string, unknown>)[k];
    if (q.q !== undefined) {
      f.q = normaliseCompanyName(q.q);
      if (f.q === '') throw invalid('query.q', 'must not be empty');
    }
    if (q.minEmployees !== undefined && q.maxEmployees !== undefined && q.minEmployees > q.maxEmployees)
      throw invalid('query.minEmployees', 'must not exceed maxEmployees');
    if (q.minRevenue !== undefined && q.maxRevenue !== undefined && q.minRevenue > q.maxRevenue)
      throw invalid('query.minRevenue', 'must not exceed maxRevenue');
    return f;
  }

  return {
    async search(caller: AuthContext, q: SearchQuery) {
      const filters = validate(q);
      const hasFilter = Object.entries(q).some(([k, v]) => v !== undefined && !NOT_FILTERS.has(k));
      if (caller.limits.requireFilterOnSearch && !hasFilter) {
        throw new ApiError('search_filter_required', {
          details: [
            {
              path: 'query',
              message:
                'give at least one filter (q, nace, orgForm, municipality, county, …); country, sort, order, limit, cursor and include do not count',
            },
          ],
        });
      }
      const sort = q.sort ?? 'name';
      const order = q.order ?? 'asc';
      const bound = { ...filters, sort, order };
      const after = pages.open('companies', bound, q.cursor);
      if (after) await pages.guardDepth(caller);
      const limit = pages.pageSize(caller, q.limit);
      const page = await ctx.repos.companySearch.search(filters, sort, order, limit + 1, after);
      const hasMore = page.rows.length > limit;
      const shown = { rows: page.rows.slice(0, limit), positions: page.positions.slice(0, limit) };
      return {
        data: await rows(shown, q.include === 'context'),
        nextCursor: hasMore ? pages.next('companies', bound, shown.positions.at(-1)) : null,
        hasMore,
      };
    },

    async updates(caller: AuthContext, q: { since: string; limit?: number; cursor?: string }) {
      const since = parseSince(q.since);
      const bound = { since: since.toISOString() };
      const after = pages.open('updates', bound, q.cursor);
      const limit = pages.pageSize(caller, q.limit);
      const page = await ctx.repos.companySearch.updates(since, limit + 1, after);
      const hasMore = page.rows.length > limit;
      const shown = { rows: page.rows.slice(0, limit), positions: page.positions.slice(0, limit) };
      return {
        data: await rows(shown, false),
        nextCursor: hasMore ? pages.next('updates', bound, shown.positions.at(-1)) : null,
        hasMore,
      };
    },
  };
}

const SINCE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** ISO date (midnight UTC) or timestamp (UTC when no offset is given). */
export function parseSince(raw: string): Date {
  const s = raw.trim();
  if (!SINCE.test(s))
    throw invalid('query.since', 'must be an ISO 8601 date (2026-04-20) or timestamp (2026-04-20T12:34:56Z)');
  const hasTime = s.includes('T');
  const withZone = hasTime && !/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? `${s}Z` : hasTime ? s : `${s}T00:00:00Z`;
  const d = new Date(withZone);
  // Reject impossible dates (2026-02-30) that Date would roll over.
  if (
    Number.isNaN(d.getTime()) ||
    (d.toISOString().slice(0, 10) !== withZone.slice(0, 10) && !/[+-]\d{2}:?\d{2}$/.test(withZone))
  ) {
    throw invalid('query.since', 'is not a valid date');
  }
  return d;
}

export type SearchService = ReturnType<typeof createSearchService>;
