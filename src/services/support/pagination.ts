// Cursor pagination shared by the four lists (companies, updates, licences, inspections): signed
// cursors bound to their query, tier-capped page sizes, the anti-scrape cursor-depth guard (50
// consecutive cursor follows per key per 5 minutes, across processes), and one `page` that turns
// a keyset fetch of limit + 1 rows into { rows, nextCursor, hasMore }.
import { decodeCursor, encodeCursor, queryHash } from '../../domain/cursor.ts';
import { deriveKey } from '../../domain/secrets.ts';
import { ApiError } from '../../errors.ts';
import type { RateWindows } from '../../store/access/rate-windows.ts';
import type { AuthContext } from '../access/key-auth.ts';

const CURSOR_DEPTH = { name: 'cursor-depth', points: 50, durationSec: 300 };

export type Position = [string | number | null, number];

interface PageRequest {
  /** Names the list, so a cursor of one list is refused by another. */
  scope: string;
  /** The query the cursor is bound to (filters, sort, order). */
  bound: Record<string, unknown>;
  cursor: string | undefined;
  limit: number | undefined;
  /** SPEC "Cursor depth" guards companies, licenses and inspections; the change feed is read in full. */
  depthGuard: boolean;
}

export interface PaginationDeps {
  rateWindows: RateWindows;
  /** Signs cursors. */
  secretKey: string;
}

export function createPagination(deps: PaginationDeps) {
  const key = deriveKey(deps.secretKey, 'cursor');

  /** The tier's page size cap applied silently to an in-range `limit` (DESIGN.md). */
  function pageSize(caller: AuthContext, limit: number | undefined, fallback = 20): number {
    return Math.min(limit ?? fallback, caller.limits.maxPageSize);
  }

  /** Decodes a cursor for this query, or throws 400 with a stable code. */
  function open(scope: string, query: Record<string, unknown>, cursor: string | undefined): Position | undefined {
    if (cursor === undefined) return undefined;
    const r = decodeCursor(key, cursor, queryHash(scope, query));
    if (r.ok) return r.payload.k;
    if (r.reason === 'query') {
      throw new ApiError('cursor_query_mismatch', {
        details: [
          {
            path: 'query.cursor',
            message: 'belongs to a query with other filters or sort; start again without a cursor',
          },
        ],
      });
    }
    throw new ApiError('invalid_cursor', {
      details: [{ path: 'query.cursor', message: 'is not a cursor this API issued' }],
    });
  }

  /** Counts a cursor follow against the key's depth window, or throws 429. */
  async function guardDepth(caller: AuthContext): Promise<void> {
    const w = await deps.rateWindows.consume(
      CURSOR_DEPTH.name,
      String(caller.projectId),
      CURSOR_DEPTH.points,
      CURSOR_DEPTH.durationSec,
    );
    if (!w.allowed) {
      const retryAfter = Math.max(1, Math.ceil(w.resetMs / 1000));
      throw new ApiError('cursor_depth_exceeded', { headers: { 'Retry-After': retryAfter }, extra: { retryAfter } });
    }
  }

  /**
   * Opens the request's cursor (400 when it is not ours or belongs to another query), guards
   * depth and caps the size: where the page starts and how many rows it shows.
   */
  async function start(caller: AuthContext, req: PageRequest): Promise<{ after: Position | undefined; limit: number }> {
    const after = open(req.scope, req.bound, req.cursor);
    if (after && req.depthGuard) await guardDepth(caller);
    return { after, limit: pageSize(caller, req.limit) };
  }

  /**
   * A page from a fetch of limit + 1 rows (the extra row tells whether there is a next page):
   * the rows shown, the next cursor signed from the last of them, and that row's position.
   */
  function finish<Row>(
    req: Pick<PageRequest, 'scope' | 'bound'>,
    limit: number,
    fetched: { rows: Row[]; positions: Position[] },
  ): { rows: Row[]; nextCursor: string | null; hasMore: boolean; next: Position | undefined } {
    const hasMore = fetched.rows.length > limit;
    const next = hasMore ? fetched.positions[limit - 1] : undefined;
    return {
      rows: fetched.rows.slice(0, limit),
      nextCursor: next ? encodeCursor(key, { q: queryHash(req.scope, req.bound), k: next }) : null,
      hasMore,
      next,
    };
  }

  return {
    start,
    finish,

    /** One page of a keyset list: `start`, the fetch of limit + 1 rows, `finish`. */
    async page<Row>(
      caller: AuthContext,
      req: PageRequest,
      fetch: (limit: number, after: Position | undefined) => Promise<{ rows: Row[]; positions: Position[] }>,
    ): Promise<{ rows: Row[]; nextCursor: string | null; hasMore: boolean }> {
      const { after, limit } = await start(caller, req);
      const { next: _next, ...page } = finish(req, limit, await fetch(limit + 1, after));
      return page;
    },
  };
}

export type Pagination = ReturnType<typeof createPagination>;
