// The read half of the company event log (issue 26): pages by seq with filters, the log's
// bounds (newest seq, what retention removed) and retention pruning in bounded batches.
// Appends happen in the ingest transactions (events.ts).
import { sql, type Kysely } from 'kysely';
import type { EventCategory, FieldValues } from '../domain/company-events.ts';
import type { Database } from './schema.ts';

export interface EventFilter {
  orgNumber?: string;
  country?: string;
  categories?: EventCategory[];
  /** Only events of these companies (a watchlist's). */
  watchlistId?: number;
}

export interface StoredEvent {
  seq: number;
  id: string;
  orgNumber: string;
  country: string;
  category: EventCategory;
  type: string;
  fieldsChanged: string[];
  before: FieldValues;
  after: FieldValues;
  occurredAt: string;
  source: string;
}

export interface EventBounds {
  /** Highest committed seq (0: none yet). */
  lastSeq: number;
  /** Highest seq removed by retention (0: none). */
  prunedThrough: number;
}

export function createEventLogRepository(db: Kysely<Database>) {
  return {
    async bounds(): Promise<EventBounds> {
      const r = await db.selectFrom('event_seq').select(['last_seq', 'pruned_through']).executeTakeFirstOrThrow();
      return { lastSeq: r.last_seq, prunedThrough: r.pruned_through };
    },

    /** Events with seq > after (and <= upTo when given), in seq order. */
    async list(after: number, filter: EventFilter, limit: number, upTo?: number): Promise<StoredEvent[]> {
      let q = db
        .selectFrom('company_events as e')
        .select([
          'e.seq',
          'e.id',
          'e.org_number',
          'e.country',
          'e.category',
          'e.type',
          'e.fields_changed',
          'e.before',
          'e.after',
          'e.occurred_at',
          'e.source',
        ])
        .where('e.seq', '>', after)
        .orderBy('e.seq')
        .limit(limit);
      if (upTo !== undefined) q = q.where('e.seq', '<=', upTo);
      if (filter.orgNumber) q = q.where('e.org_number', '=', filter.orgNumber);
      if (filter.country) q = q.where('e.country', '=', filter.country);
      if (filter.categories?.length) q = q.where('e.category', 'in', filter.categories);
      if (filter.watchlistId !== undefined) {
        const id = filter.watchlistId;
        q = q.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('watchlist_companies as w')
              .select(sql.lit(1).as('one'))
              .whereRef('w.country', '=', 'e.country')
              .whereRef('w.org_number', '=', 'e.org_number')
              .where('w.watchlist_id', '=', id),
          ),
        );
      }
      const rows = await q.execute();
      return rows.map((r) => ({
        seq: r.seq,
        id: r.id,
        orgNumber: r.org_number,
        country: r.country,
        category: r.category,
        type: r.type,
        fieldsChanged: r.fields_changed,
        before: r.before as FieldValues,
        after: r.after as FieldValues,
        occurredAt: new Date(r.occurred_at).toISOString(),
        source: r.source,
      }));
    },

    /**
     * Removes up to `batch` of the oldest events that occurred before `cutoff` (always a prefix of
     * the log, read by the seq index: bounded work), and raises the pruned-through mark in the same
     * transaction. Returns how many went (0: nothing is due).
     */
    async prune(cutoff: Date, batch: number): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const res = await sql<{ top: number | null; n: number }>`
          WITH head AS (SELECT seq, occurred_at FROM company_events ORDER BY seq LIMIT ${batch}::integer),
          stop AS (SELECT min(seq) AS s FROM head WHERE occurred_at >= ${cutoff}),
          gone AS (
            DELETE FROM company_events WHERE seq IN (
              SELECT seq FROM head WHERE seq < COALESCE((SELECT s FROM stop), 9223372036854775807))
            RETURNING seq)
          SELECT max(seq) AS top, count(*)::integer AS n FROM gone`.execute(trx);
        const { top, n } = res.rows[0];
        if (top !== null)
          await sql`UPDATE event_seq SET pruned_through = GREATEST(pruned_through, ${top}::bigint)`.execute(trx);
        return n;
      });
    },
  };
}

export type EventLogRepository = ReturnType<typeof createEventLogRepository>;
