// GET /api/companies: filters, sort, tier-capped pages, signed cursors, the cursor-depth guard,
// and rows with the latest two financials, active roles and labels.
import { normaliseCompanyName, SOURCE } from '../../domain/company.ts';
import { isFreeMailDomain, registrableDomainOf } from '../../domain/company-domain.ts';
import type { ReferenceData } from '../../domain/reference-data.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { CompanyReadRepository, CompanyRow } from '../../store/company-reads.ts';
import type { CompanySearchRepository, SearchFilters, SearchPage } from '../../store/company-search.ts';
import type { CompanySearchQuery } from '../../contract/company-search.ts';
import { buildCompanyRecord } from './company-record.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { MarketContextService } from '../registers/market-context.ts';
import type { Pagination } from '../support/pagination.ts';
import { LIST_ROW_RELATIONS, recordPageJson } from './record-page-json.ts';

export type SearchQuery = CompanySearchQuery;

/** Parameters that shape the page, not the result set: they do not satisfy "at least one filter". */
const NOT_FILTERS = new Set(['country', 'sort', 'order', 'limit', 'cursor', 'include']);

export interface SearchServiceDeps {
  search: CompanySearchRepository;
  reads: CompanyReadRepository;
  reference: ReferenceData;
  pagination: Pagination;
  market: MarketContextService;
}

const EMPTY: SearchPage = { rows: [], positions: [] };

export function createSearchService(deps: SearchServiceDeps) {
  async function rows(page: CompanyRow[], withContext: boolean) {
    const stored = await deps.reads.relations(page, LIST_ROW_RELATIONS);
    return Promise.all(
      stored.map(async (s) => {
        const record = buildCompanyRecord(s, deps.reference, { labels: true });
        if (!withContext) return record;
        const context = await deps.market.forCompany(s.row);
        const attribution = [...new Set([...record._sources.attribution, SOURCE.ownStore, ...context.bureaus])];
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
    if (q.domain !== undefined) {
      const domain = registrableDomainOf(q.domain);
      if (!domain)
        throw invalid('query.domain', 'must be a domain, hostname or URL under a public suffix, e.g. example.no');
      f.domain = domain;
    }
    if (q.minEmployees !== undefined && q.maxEmployees !== undefined && q.minEmployees > q.maxEmployees)
      throw invalid('query.minEmployees', 'must not exceed maxEmployees');
    if (q.minRevenue !== undefined && q.maxRevenue !== undefined && q.minRevenue > q.maxRevenue)
      throw invalid('query.minRevenue', 'must not exceed maxRevenue');
    return f;
  }

  /** The filters, sort and order of a search, after its checks. */
  function plan(caller: AuthContext, q: SearchQuery) {
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
    const pageRequest = {
      scope: 'companies',
      bound: { ...filters, sort, order },
      cursor: q.cursor,
      limit: q.limit,
      depthGuard: true,
    };
    // A free-mail or ISP domain identifies no company: an empty page, without a query.
    const matchesNothing = filters.domain !== undefined && isFreeMailDomain(filters.domain);
    return { filters, sort, order, pageRequest, matchesNothing };
  }

  return {
    /** One page of typed records (with market context when asked). */
    async search(caller: AuthContext, q: SearchQuery) {
      const { filters, sort, order, pageRequest, matchesNothing } = plan(caller, q);
      const page = await deps.pagination.page(caller, pageRequest, (limit, after) =>
        matchesNothing ? Promise.resolve(EMPTY) : deps.search.search(filters, sort, order, limit, after),
      );
      return {
        data: await rows(page.rows, q.include === 'context'),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },

    /**
     * The same page (without context) as the response body: the records' stored fields come as
     * JSON text from the database, with their relations in the same statement.
     */
    async searchJson(caller: AuthContext, q: Omit<SearchQuery, 'include'>): Promise<string> {
      const { filters, sort, order, pageRequest, matchesNothing } = plan(caller, q);
      const page = await deps.pagination.page(caller, pageRequest, (limit, after) =>
        matchesNothing
          ? Promise.resolve({ rows: [], positions: [] })
          : deps.search.searchJson(filters, sort, order, limit, after, LIST_ROW_RELATIONS),
      );
      return recordPageJson(deps.reads, deps.reference, page);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
