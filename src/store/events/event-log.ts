// The read half of the company event log: pages by seq with filters, the log's
// bounds (newest seq, what retention removed) and retention pruning in bounded batches.
// Appends happen in the ingest transactions (events.ts).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { EventCategory, FieldValues } from '../../domain/company-events.ts';
import type { Database } from '../engine/schema.ts';

export interface EventFilter {
  orgNumber?: string;
  country?: string;
  categories?: EventCategory[];
  /** Only events of these companies (a watchlist's). */
  watchlistId?: number;
  /** Never events of these categories (the ones only a company's watchlists may see). */
  excludeCategories?: EventCategory[];
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

/** A read of the log: its events, and the seq up to which every match is among them. */
interface EventRead {
  events: StoredEvent[];
  through: number;
}

/** A page of events already serialised as JSON by the database (the `/api/events` hot path). */
interface EventPageJson {
  /** The events as a JSON array text. */
  json: string;
  /** How many the array holds. */
  count: number;
  /** Every match up to this seq is in this page (or an earlier one): the next read starts after it. */
  through: number;
}

/**
 * An event's id: the one stored before migration 0025, else a UUIDv8 of this installation's
 * random prefix and the seq (variant bits 10 over the seq's 62 bits). The prefix subquery is
 * evaluated once per statement.
 */
const EVENT_ID = `COALESCE(e.id, ((SELECT id_prefix FROM event_seq) || to_hex(e.seq | (-9223372036854775808)::bigint))::uuid)`;

/**
 * One event as a JSON object, built by the database: a page comes back as one text value, so
 * neither the driver nor the HTTP layer parses or re-serialises jsonb per event (that cost held
 * the drain near 2k events/s). Fields and format as StoredEvent (occurredAt in ISO ms UTC).
 */
const EVENT_JSON = sql.raw(`json_build_object('seq', e.seq, 'id', ${EVENT_ID}, 'orgNumber', e.org_number,
  'country', e.country, 'category', e.category, 'type', e.type, 'fieldsChanged', to_json(e.fields_changed),
  'before', e.before, 'after', e.after,
  'occurredAt', times.iso, 'source', e.source)::text`);

/**
 * A filter no index serves (category, country, a watchlist's companies) walks the seq key, at
 * most this many seqs per read: a read's work stays bounded however rare its matches are (an
 * index on category cost every append more than the filter saves, migration 0025).
 */
const SCAN_WINDOW = 200_000;

interface EventLogOptions {
  /** Seqs a read under a filter no index serves walks at most (default SCAN_WINDOW). */
  scanWindow?: number;
}

/**
 * The top of the seq range a read looks at: every match up to it is in the read's result unless
 * the result is full. Unfiltered, the log is gapless above what retention removed, so the next
 * `rows` events are exactly the seqs after + 1 .. after + rows: a tight range the database reads
 * by the primary key whatever its statistics say (without them, PGlite's planner scanned the
 * whole open range and sorted it: the drain stalled at 6k/s). An org number is read through its
 * index to `upTo`; other filters within SCAN_WINDOW.
 */
function rangeTop(after: number, filter: EventFilter, rows: number, upTo: number, window: number): number {
  if (filter.orgNumber) return upTo;
  const unfiltered = !filter.country && !filter.categories?.length && filter.watchlistId === undefined;
  return Math.max(after, Math.min(upTo, after + (unfiltered ? rows : window)));
}

/** The WHERE terms of an event read: seq in (after, top] and the filter. */
function eventWhere(after: number, filter: EventFilter, top: number) {
  const where = [sql`e.seq > ${after}::bigint`, sql`e.seq <= ${top}::bigint`];
  if (filter.orgNumber) where.push(sql`e.org_number = ${filter.orgNumber}`);
  if (filter.country) where.push(sql`e.country = ${filter.country}`);
  if (filter.categories?.length) where.push(sql`e.category = ANY(${filter.categories}::text[])`);
  if (filter.excludeCategories?.length) where.push(sql`e.category <> ALL(${filter.excludeCategories}::text[])`);
  if (filter.watchlistId !== undefined)
    where.push(sql`EXISTS (SELECT 1 FROM watchlist_companies w WHERE w.watchlist_id = ${filter.watchlistId}::bigint
      AND w.country = e.country AND w.org_number = e.org_number)`);
  return where;
}

interface EventBounds {
  /** Highest committed seq (0: none yet). */
  lastSeq: number;
  /** Highest seq removed by retention (0: none). */
  prunedThrough: number;
}

export function createEventLogRepository(db: Kysely<Database>, opts: EventLogOptions = {}) {
  const window = opts.scanWindow ?? SCAN_WINDOW;
  return {
    async bounds(): Promise<EventBounds> {
      const r = await db.selectFrom('event_seq').select(['last_seq', 'pruned_through']).executeTakeFirstOrThrow();
      return { lastSeq: r.last_seq, prunedThrough: r.pruned_through };
    },

    /**
     * Events with seq in (after, upTo] (default: all) matching the filter, in seq order, at most
     * `limit`; every match up to `through` is among them (the next read starts after it).
     */
    async list(after: number, filter: EventFilter, limit: number, upTo = Number.MAX_SAFE_INTEGER): Promise<EventRead> {
      const top = rangeTop(after, filter, limit, upTo, window);
      // `visible`: the log's top in this statement's snapshot. On a replica behind the one
      // `upTo` came from, seqs above it are not there yet: the read must not claim to be through them.
      const res = await sql<Selectable<Database['company_events']> & { visible: number }>`
        SELECT v.visible, e.* FROM (SELECT last_seq AS visible FROM event_seq) v
        LEFT JOIN LATERAL (
          SELECT e.seq, ${sql.raw(EVENT_ID)} AS id, e.org_number, e.country, e.category, e.type, e.fields_changed,
            e.before, e.after, e.occurred_at, e.source
          FROM company_events e WHERE ${sql.join(eventWhere(after, filter, top), sql` AND `)}
          ORDER BY e.seq LIMIT ${limit}::integer
        ) e ON true ORDER BY e.seq`.execute(db);
      const visible = Math.max(after, Number(res.rows[0]?.visible ?? after));
      // No match: the one row holds `visible` alone.
      const events = res.rows
        .filter((r) => r.seq !== null)
        .map((r) => ({
          seq: r.seq,
          id: r.id!,
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
      return { events, through: events.length === limit ? events[limit - 1].seq : Math.min(top, visible) };
    },

    /**
     * The same read as `list`, as one JSON text. Without filters this is one range scan of the
     * seq primary key; with an org number it reads that company's rows by the org_number index
     * and sorts them; other filters walk the seq key within SCAN_WINDOW.
     */
    async pageJson(after: number, filter: EventFilter, limit: number, upTo: number): Promise<EventPageJson> {
      const top = rangeTop(after, filter, limit + 1, upTo, window);
      const where = eventWhere(after, filter, top);
      // limit + 1 rows tell whether more follow; the extra one is left out of the text. The JSON
      // is built only for the rows of the page, after the limit; occurredAt is formatted once per
      // distinct time (a batch shares one), as to_char per row cost more than the rest together.
      const res = await sql<{
        body: string | null;
        n: number;
        last: string | number | null;
        more: boolean;
        visible: string | number;
      }>`
        WITH page AS (
          SELECT p.*, row_number() OVER (ORDER BY p.seq) AS rn FROM (
            SELECT e.* FROM company_events e WHERE ${sql.join(where, sql` AND `)}
            ORDER BY e.seq LIMIT ${limit + 1}::integer
          ) p
        ),
        times AS (
          SELECT t.at, to_char(t.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso
          FROM (SELECT DISTINCT occurred_at AS at FROM page) t
        )
        SELECT string_agg(${EVENT_JSON}, ',' ORDER BY e.seq) FILTER (WHERE e.rn <= ${limit}::integer) AS body,
          count(*) FILTER (WHERE e.rn <= ${limit}::integer)::integer AS n,
          max(e.seq) FILTER (WHERE e.rn <= ${limit}::integer) AS last,
          count(*) > ${limit}::integer AS more,
          (SELECT last_seq FROM event_seq) AS visible
        FROM page e JOIN times ON times.at = e.occurred_at`.execute(db);
      const r = res.rows[0];
      // As in list: never through seqs this snapshot (a replica behind another) does not hold yet.
      const visible = Math.max(after, Number(r.visible));
      return { json: `[${r.body ?? ''}]`, count: r.n, through: r.more ? Number(r.last) : Math.min(top, visible) };
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
