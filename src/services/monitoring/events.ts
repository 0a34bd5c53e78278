// Reading the event log: pages by seq with filters for GET /api/events, and the
// loop behind GET /api/events/stream (SSE). Both are tier-capped: a page holds at most 50 × the
// key's page size; a key holds a bounded number of open streams per process, and an open stream
// is charged one request against the key's quotas per minute it stays open.
import type { Static } from 'typebox';
import type { EventsQuery } from '../../contract/events.ts';
import type { EventCategory } from '../../domain/company-events.ts';
import { ApiError } from '../../errors.ts';
import type { EventFilter, EventLogRepository } from '../../store/events/event-log.ts';
import type { AuthContext } from '../access/key-auth.ts';

/** The query of GET /api/events (the stream takes the same without limit). */
type EventQuery = Static<typeof EventsQuery>;

export interface EventServiceDeps {
  eventLog: EventLogRepository;
}

/** A page of events holds up to this many times the key's page size (events are small). */
const EVENT_PAGE_FACTOR = 50;

/** Open streams per key and process, by tier. */
const STREAMS_PER_KEY: Record<string, number> = { free: 1, pro: 10, enterprise: 100, internal: 100 };

/**
 * Categories only the projects watching the company see, through their watchlists' alerts.
 * Re-screening runs for watched companies only, so a `screening` event in the global log would
 * tell every key which companies some project watches (and that they have a match).
 */
export const WATCHLIST_ONLY_CATEGORIES: readonly EventCategory[] = ['screening'];

/** The filter of a read of the global log (GET /api/events, the stream): never watchlist-only events. */
export function filterOf(q: EventQuery): EventFilter {
  return {
    orgNumber: q.orgNumber,
    country: q.country,
    categories: q.category ? (q.category.split(',') as EventCategory[]) : undefined,
    excludeCategories: [...WATCHLIST_ONLY_CATEGORIES],
  };
}

/**
 * Where a reader goes on from. A filtered page can hold fewer events than its limit, even none,
 * while more may follow (a category or country filter reads a bounded window of the log per
 * page): `hasMore` says whether the read stopped below the committed top.
 */
const nextOf = (after: number, through: number, lastSeq: number) => ({
  nextAfter: Math.max(after, through),
  hasMore: through < lastSeq,
});

export function createEventService(deps: EventServiceDeps) {
  const open = new Map<number, number>();

  /** 410 when `after` lies below what retention removed (events would be missing). */
  async function checkRetention(after: number) {
    expiredCheck(after, (await deps.eventLog.bounds()).prunedThrough);
  }

  function expiredCheck(after: number, prunedThrough: number) {
    if (after < prunedThrough)
      throw new ApiError('events_expired', {
        message: `Events up to seq ${prunedThrough} are past retention; resume with after=${prunedThrough}`,
        extra: { resumeAfter: prunedThrough },
      });
  }

  /**
   * What a page read needs: where it starts (410 below retention), its filter and tier-capped
   * limit, and the committed top it reads up to (a seq above it may still be committing).
   */
  async function pageRead(caller: AuthContext, q: EventQuery) {
    const after = q.after ?? 0;
    const { lastSeq, prunedThrough } = await deps.eventLog.bounds();
    expiredCheck(after, prunedThrough);
    const limit = Math.min(q.limit ?? 100, caller.limits.maxPageSize * EVENT_PAGE_FACTOR);
    return { after, filter: filterOf(q), limit, lastSeq };
  }

  return {
    async list(caller: AuthContext, q: EventQuery) {
      const { after, filter, limit, lastSeq } = await pageRead(caller, q);
      const { events, through } = await deps.eventLog.list(after, filter, limit, lastSeq);
      return { data: events, ...nextOf(after, through, lastSeq) };
    },

    /**
     * The same page as `list`, as the response body text: the events come serialised by the
     * database in one value, so a reader drains the log without a parse and re-serialisation per
     * event. Pages hold up to EVENT_PAGE_FACTOR × the key's page size.
     */
    async listJson(caller: AuthContext, q: EventQuery): Promise<string> {
      const { after, filter, limit, lastSeq } = await pageRead(caller, q);
      const page = await deps.eventLog.pageJson(after, filter, limit, lastSeq);
      const { nextAfter, hasMore } = nextOf(after, page.through, lastSeq);
      return `{"data":${page.json},"nextAfter":${nextAfter},"hasMore":${hasMore}}`;
    },

    checkRetention,

    /** Takes a stream slot for the key; the returned function gives it back. */
    openStream(caller: AuthContext): () => void {
      const n = open.get(caller.keyId) ?? 0;
      if (n >= (STREAMS_PER_KEY[caller.tier] ?? 1)) throw new ApiError('too_many_streams');
      open.set(caller.keyId, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(caller.keyId) ?? 1) - 1;
        if (left > 0) open.set(caller.keyId, left);
        else open.delete(caller.keyId);
      };
    },
  };
}
