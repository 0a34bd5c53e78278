// GET /api/updates, the change feed: every company (deleted ones too) whose updatedAt is at or
// after `since`, oldest first, in cursor pages with the rows search serves. A page is answered
// as JSON text: the database writes each record's stored fields (store/company-feed.ts), and
// only the derived parts are built here, so a drain costs no parse, copy and re-serialisation of
// every field of every row. A client that follows a cursor is draining the feed: its next page
// is read ahead while it reads this one (read-ahead.ts).
import type { ReferenceData } from '../../domain/reference-data.ts';
import { invalid } from '../../errors.ts';
import type { CompanyChangeSignal } from '../../store/company-changes.ts';
import type { ChangeFeedQuery } from '../../contract/change-feed.ts';
import type { ChangeFeedRepository } from '../../store/change-feed.ts';
import type { CompanyReadRepository } from '../../store/company-reads.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { Pagination, Position } from '../support/pagination.ts';
import { createReadAhead } from '../support/read-ahead.ts';
import { LIST_ROW_RELATIONS, recordPageJson } from '../companies/record-page-json.ts';

export interface ChangeFeedServiceDeps {
  feed: ChangeFeedRepository;
  reads: CompanyReadRepository;
  reference: ReferenceData;
  pagination: Pagination;
  /** Writes through this process: pages read ahead before them are dropped. */
  signal: Pick<CompanyChangeSignal, 'subscribe'>;
}

/** Pages read ahead at once: one per client draining the feed through this process. */
const READ_AHEAD_PAGES = 32;

interface FeedPage {
  body: string;
  /** Where the next page starts; undefined on the last page. */
  next: Position | undefined;
}

export function createChangeFeedService(deps: ChangeFeedServiceDeps) {
  const ahead = createReadAhead<FeedPage>({ maxEntries: READ_AHEAD_PAGES });
  deps.signal.subscribe(() => ahead.clear());

  const request = (since: Date, cursor?: string, limit?: number) => ({
    scope: 'updates',
    bound: { since: since.toISOString() },
    cursor,
    limit,
    depthGuard: false,
  });
  // A page is the same for every key that holds its cursor (the feed is not per key); only the
  // page size, capped by tier, tells two readers of one position apart.
  const keyOf = (since: Date, limit: number, after: Position) => JSON.stringify([since.getTime(), limit, after]);

  async function read(since: Date, limit: number, after: Position | undefined): Promise<FeedPage> {
    const fetched = await deps.feed.page(since, limit + 1, after, LIST_ROW_RELATIONS);
    const page = deps.pagination.finish(request(since), limit, fetched);
    return { body: await recordPageJson(deps.reads, deps.reference, page), next: page.next };
  }

  return {
    /** One page as the response body: `{"data":[CompanyRow…],"nextCursor":…,"hasMore":…}`. */
    async updatesJson(caller: AuthContext, q: ChangeFeedQuery): Promise<string> {
      const since = parseSince(q.since);
      const { after, limit } = await deps.pagination.start(caller, request(since, q.cursor, q.limit));
      const page = (after && (await ahead.take(keyOf(since, limit, after)))) || (await read(since, limit, after));
      const next = page.next;
      if (after && next) ahead.start(keyOf(since, limit, next), () => read(since, limit, next));
      return page.body;
    },

    /** Read-ahead counts, for the health diagnostics. */
    readAheadStats: () => ahead.stats(),
  };
}

const SINCE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** ISO date (midnight UTC) or timestamp (UTC when no offset is given). */
function parseSince(raw: string): Date {
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
