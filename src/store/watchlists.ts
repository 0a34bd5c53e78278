// Watchlists: per-project named lists of companies with the event categories to alert
// on and a push destination; their companies; and the alert deliveries (batches of events with a
// stable webhook-id, claimed by one process at a time with a lease, retried with backoff).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DestinationsTable, WatchlistDeliveriesTable, WatchlistsTable } from './engine/schema.ts';

export type WatchlistRow = Selectable<WatchlistsTable>;
export type DeliveryRow = Selectable<WatchlistDeliveriesTable>;

export class WatchlistNameTakenError extends Error {
  constructor() {
    super('a watchlist with this name already exists');
  }
}

const isNameTaken = (err: unknown) =>
  (err as { code?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === 'watchlists_project_name';

export interface CompanyRef {
  country: string;
  orgNumber: string;
}

export function createWatchlistRepository(db: Kysely<Database>) {
  return {
    /**
     * Throws WatchlistNameTakenError when the project already has that name; undefined (nothing
     * created) when it already holds `maxLists` watchlists (its project row locked meanwhile).
     */
    async insert(w: {
      projectId: number;
      name: string;
      categories: string[];
      destinationId: string;
      cursorSeq: number;
      maxLists: number;
    }): Promise<WatchlistRow | undefined> {
      try {
        return await db.transaction().execute(async (trx) => {
          await sql`SELECT id FROM projects WHERE id = ${w.projectId} FOR UPDATE`.execute(trx);
          const held = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM watchlists
            WHERE project_id = ${w.projectId}`.execute(trx);
          if (held.rows[0].n >= w.maxLists) return undefined;
          return trx
            .insertInto('watchlists')
            .values({
              project_id: w.projectId,
              name: w.name,
              categories: w.categories,
              destination_id: w.destinationId,
              cursor_seq: w.cursorSeq,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
        });
      } catch (err) {
        if (isNameTaken(err)) throw new WatchlistNameTakenError();
        throw err;
      }
    },

    async list(projectId: number): Promise<(WatchlistRow & { company_count: number })[]> {
      return db
        .selectFrom('watchlists as w')
        .selectAll('w')
        .select((eb) =>
          eb
            .selectFrom('watchlist_companies as c')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('c.watchlist_id', '=', 'w.id')
            .as('company_count'),
        )
        .where('w.project_id', '=', projectId)
        .orderBy(sql`w.name COLLATE "C"`)
        .execute() as Promise<(WatchlistRow & { company_count: number })[]>;
    },

    async get(projectId: number, name: string): Promise<WatchlistRow | undefined> {
      return db
        .selectFrom('watchlists')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('name', '=', name)
        .executeTakeFirst();
    },

    /** The destination row a watchlist sends to (sealed config), when it still exists. */
    async destinationOf(id: string | null): Promise<Selectable<DestinationsTable> | undefined> {
      if (!id) return undefined;
      return db.selectFrom('destinations').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async destinationName(id: string | null): Promise<string | null> {
      if (!id) return null;
      const r = await db.selectFrom('destinations').select('name').where('id', '=', id).executeTakeFirst();
      return r?.name ?? null;
    },

    async byId(id: number): Promise<WatchlistRow | undefined> {
      return db.selectFrom('watchlists').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async update(
      id: number,
      patch: { categories?: string[]; destinationId?: string; paused?: boolean },
    ): Promise<WatchlistRow> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('watchlists')
          .set({
            ...(patch.categories ? { categories: patch.categories } : {}),
            ...(patch.destinationId ? { destination_id: patch.destinationId } : {}),
            ...(patch.paused !== undefined ? { paused: patch.paused } : {}),
            ...(patch.paused === false ? { paused_reason: null } : {}),
            updated_at: sql`now()`,
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        // Resumed: an abandoned batch is sent again, with a fresh retry window.
        if (patch.paused === false)
          await sql`UPDATE watchlist_deliveries SET status = 'pending', next_attempt_at = now(), created_at = now(),
              lease_holder = NULL, lease_until = NULL
            WHERE id = (SELECT max(id) FROM watchlist_deliveries WHERE watchlist_id = ${id} AND status = 'abandoned')
              AND NOT EXISTS (SELECT 1 FROM watchlist_deliveries WHERE watchlist_id = ${id} AND status = 'pending')`.execute(
            trx,
          );
        return row;
      });
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('watchlists').where('id', '=', id).execute();
    },

    async companyCount(id: number): Promise<number> {
      const r = await db
        .selectFrom('watchlist_companies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('watchlist_id', '=', id)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /**
     * Adds companies (already present ones are left) unless the project's watchlists would then
     * hold more than `max` in all: returns how many were new, or null (and adds nothing) when over
     * the limit.
     */
    async addCompaniesWithin(id: number, companies: CompanyRef[], max: number): Promise<number | null> {
      const over = Symbol('over');
      try {
        return await db.transaction().execute(async (trx) => {
          // The limit holds for the project's watchlists together: its project row is locked, so
          // calls on two of its watchlists cannot overshoot together either.
          const owner = await sql<{ project_id: number }>`SELECT project_id FROM watchlists WHERE id = ${id}`.execute(
            trx,
          );
          const projectId = owner.rows[0]?.project_id;
          await sql`SELECT id FROM projects WHERE id = ${projectId} FOR UPDATE`.execute(trx);
          const res = await sql<{ n: number }>`WITH added AS (
              INSERT INTO watchlist_companies (watchlist_id, country, org_number)
              SELECT ${id}::bigint, x.country, x."orgNumber"
              FROM jsonb_to_recordset(${JSON.stringify(companies)}::jsonb) AS x(country text, "orgNumber" text)
              ON CONFLICT DO NOTHING RETURNING 1)
            SELECT count(*)::integer AS n FROM added`.execute(trx);
          const total = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM watchlist_companies c
            JOIN watchlists w ON w.id = c.watchlist_id WHERE w.project_id = ${projectId}`.execute(trx);
          if (total.rows[0].n > max) throw over;
          return res.rows[0].n;
        });
      } catch (err) {
        if (err === over) return null;
        throw err;
      }
    },

    /**
     * One page of a watchlist's companies in (country, org_number) order, after `after`, each with
     * the stored company name (null when the store does not hold it). The primary key serves both
     * the filter and the order.
     */
    async members(
      id: number,
      page: { after?: CompanyRef; limit: number },
    ): Promise<{ country: string; org_number: string; name: string | null; added_at: Date }[]> {
      const after = page.after;
      const res = await sql<{ country: string; org_number: string; name: string | null; added_at: Date }>`
        SELECT w.country, w.org_number, c.name, w.added_at
        FROM watchlist_companies w
        LEFT JOIN companies c ON c.country = w.country AND c.org_number = w.org_number
        WHERE w.watchlist_id = ${id}
          ${after ? sql`AND (w.country, w.org_number) > (${after.country}, ${after.orgNumber})` : sql``}
        ORDER BY w.country, w.org_number
        LIMIT ${page.limit}::integer`.execute(db);
      return res.rows;
    },

    async removeCompanies(id: number, companies: CompanyRef[]): Promise<number> {
      if (!companies.length) return 0;
      const res = await sql<{ n: number }>`WITH gone AS (
          DELETE FROM watchlist_companies w USING jsonb_to_recordset(${JSON.stringify(companies)}::jsonb)
            AS x(country text, "orgNumber" text)
          WHERE w.watchlist_id = ${id} AND w.country = x.country AND w.org_number = x."orgNumber" RETURNING 1)
        SELECT count(*)::integer AS n FROM gone`.execute(db);
      return res.rows[0].n;
    },

    async deliveries(id: number, limit: number): Promise<DeliveryRow[]> {
      return db
        .selectFrom('watchlist_deliveries')
        .selectAll()
        .where('watchlist_id', '=', id)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** Active watchlists with no open batch: the ones that may get a new batch now. */
    async readyForBatch(limit: number): Promise<WatchlistRow[]> {
      return db
        .selectFrom('watchlists as w')
        .selectAll('w')
        .where('w.paused', '=', false)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('watchlist_deliveries as d')
                .select(sql.lit(1).as('one'))
                .whereRef('d.watchlist_id', '=', 'w.id')
                .where('d.status', '=', 'pending'),
            ),
          ),
        )
        .orderBy('w.id')
        .limit(limit)
        .execute();
    },

    /**
     * Moves a watchlist's cursor from `from` to `to` and, when it brings events, opens their batch,
     * in one transaction. False when another process moved the cursor first.
     */
    async advance(
      w: { id: number; from: number; to: number },
      batch: { webhookId: string; body: string; fromSeq: number; count: number; now: Date } | null,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('watchlists')
          .set({ cursor_seq: w.to })
          .where('id', '=', w.id)
          .where('cursor_seq', '=', w.from)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return false;
        if (batch)
          await trx
            .insertInto('watchlist_deliveries')
            .values({
              watchlist_id: w.id,
              webhook_id: batch.webhookId,
              from_seq: batch.fromSeq,
              to_seq: w.to,
              event_count: batch.count,
              body: batch.body,
              status: 'pending',
              next_attempt_at: batch.now,
              created_at: batch.now,
            })
            .execute();
        return true;
      });
    },

    /** Claims due batches nobody holds (or whose holder's lease ran out) for `holder`. */
    async claimDue(holder: string, now: Date, leaseMs: number, limit: number): Promise<DeliveryRow[]> {
      const until = new Date(now.getTime() + leaseMs);
      const res =
        await sql<DeliveryRow>`UPDATE watchlist_deliveries d SET lease_holder = ${holder}, lease_until = ${until}
        WHERE d.id IN (SELECT id FROM watchlist_deliveries
          WHERE status = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
          ORDER BY next_attempt_at, id LIMIT ${limit}::integer FOR UPDATE SKIP LOCKED)
          AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= ${now})
        RETURNING d.*`.execute(db);
      return res.rows;
    },

    /**
     * Records one attempt by the lease holder: delivered, retried at `retryAt`, or abandoned
     * (which pauses the watchlist and flags why). False when the lease was lost meanwhile.
     */
    async recordAttempt(a: {
      id: number;
      holder: string;
      now: Date;
      status: number | null;
      error: string | null;
      outcome: 'delivered' | 'retry' | 'abandoned';
      retryAt?: Date;
    }): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const res = await sql<{ watchlist_id: number }>`UPDATE watchlist_deliveries SET
            attempts = attempts + 1, last_status = ${a.status}, last_error = ${a.error},
            status = ${a.outcome === 'retry' ? 'pending' : a.outcome},
            next_attempt_at = ${a.retryAt ?? a.now},
            delivered_at = ${a.outcome === 'delivered' ? a.now : null},
            lease_holder = NULL, lease_until = NULL
          WHERE id = ${a.id} AND lease_holder = ${a.holder} AND status = 'pending'
          RETURNING watchlist_id`.execute(trx);
        if (!res.rows.length) return false;
        if (a.outcome === 'abandoned')
          await trx
            .updateTable('watchlists')
            .set({ paused: true, paused_reason: 'delivery_failed', updated_at: sql`now()` })
            .where('id', '=', res.rows[0].watchlist_id)
            .execute();
        return true;
      });
    },
  };
}

export type WatchlistRepository = ReturnType<typeof createWatchlistRepository>;
