// GET /api/updates, the change feed: every company (deleted ones too) whose updatedAt is at or
// after `since`, oldest first, in cursor pages with the rows search serves. A page is answered
// as JSON text: the database writes each record's stored fields (store/company-feed.ts), and
// only the derived parts are built here, so a drain costs no parse, copy and re-serialisation of
// every field of every row.
import type { ReferenceData } from '../domain/reference-data.ts';
import { invalid } from '../errors.ts';
import type { CompanyFeedRepository } from '../store/company-feed.ts';
import type { CompanyReadRepository } from '../store/company-reads.ts';
import type { AuthContext } from './key-auth.ts';
import type { Pagination } from './pagination.ts';
import { LIST_ROW_RELATIONS, recordPageJson } from './record-page-json.ts';

export interface ChangeFeedServiceDeps {
  feed: CompanyFeedRepository;
  reads: CompanyReadRepository;
  reference: ReferenceData;
  pagination: Pagination;
}

export function createChangeFeedService(deps: ChangeFeedServiceDeps) {
  return {
    /** One page as the response body: `{"data":[CompanyRow…],"nextCursor":…,"hasMore":…}`. */
    async updatesJson(caller: AuthContext, q: { since: string; limit?: number; cursor?: string }): Promise<string> {
      const since = parseSince(q.since);
      const page = await deps.pagination.page(
        caller,
        {
          scope: 'updates',
          bound: { since: since.toISOString() },
          cursor: q.cursor,
          limit: q.limit,
          depthGuard: false,
        },
        (limit, after) => deps.feed.page(since, limit, after, LIST_ROW_RELATIONS),
      );
      return recordPageJson(deps.reads, deps.reference, page);
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

export type ChangeFeedService = ReturnType<typeof createChangeFeedService>;
