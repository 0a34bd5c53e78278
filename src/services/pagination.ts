// Cursor pagination shared by the list endpoints (companies, updates, licences, inspections):
// signed cursors bound to their query, tier-capped page sizes, and the anti-scrape
// cursor-depth guard (50 consecutive cursor follows per key per 5 minutes, across processes).
import type { AppContext } from '../context.ts';
import { decodeCursor, encodeCursor, queryHash } from '../domain/cursor.ts';
import { deriveKey } from '../domain/secrets.ts';
import { ApiError } from '../errors.ts';
import type { AuthContext } from './keys.ts';

export const CURSOR_DEPTH = { name: 'cursor-depth', points: 50, durationSec: 300 };

export type Position = [string | number | null, number];

export function createPagination(ctx: AppContext) {
  const key = deriveKey(ctx.config.secretKey, 'cursor');

  return {
    /** The tier's page size cap applied silently to an in-range `limit` (DESIGN.md). */
    pageSize(caller: AuthContext, limit: number | undefined, fallback = 20): number {
      return Math.min(limit ?? fallback, caller.limits.maxPageSize);
    },

    /** Decodes a cursor for this query, or throws 400 with a stable code. */
    open(scope: string, query: Record<string, unknown>, cursor: string | undefined): Position | undefined {
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
    },

    next(scope: string, query: Record<string, unknown>, last: Position | undefined): string | null {
      return last ? encodeCursor(key, { q: queryHash(scope, query), k: last }) : null;
    },

    /** Counts a cursor follow against the key's depth window, or throws 429. */
    async guardDepth(caller: AuthContext): Promise<void> {
      const w = await ctx.rateWindows.consume(
        CURSOR_DEPTH.name,
        String(caller.projectId),
        CURSOR_DEPTH.points,
        CURSOR_DEPTH.durationSec,
      );
      if (!w.allowed) {
        const retryAfter = Math.max(1, Math.ceil(w.resetMs / 1000));
        throw new ApiError('cursor_depth_exceeded', { headers: { 'Retry-After': retryAfter }, extra: { retryAfter } });
      }
    },
  };
}

export type Pagination = ReturnType<typeof createPagination>;
