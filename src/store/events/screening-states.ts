// What the last re-screening of each watched company found (table screening_states),
// and the watched companies themselves: a list sync screens them again and records the result
// with its `screening` event in one transaction (events.ts keeps the seq gapless).
import { sql, type Kysely } from 'kysely';
import type { NewEvent } from '../../domain/company-events.ts';
import type { ScreenedMatch } from '../../domain/record-events.ts';
import { appendEvents } from './event-append.ts';
import type { Database } from '../engine/schema.ts';

export interface WatchedCompany {
  country: string;
  orgNumber: string;
}

export function createScreeningStateRepository(db: Kysely<Database>) {
  return {
    /** Every company on any watchlist, once, after `from` in (country, orgNumber) order. */
    async watched(limit: number, from?: WatchedCompany): Promise<WatchedCompany[]> {
      const after = from ? sql`WHERE (country, org_number) > (${from.country}, ${from.orgNumber})` : sql``;
      const res = await sql<WatchedCompany>`SELECT DISTINCT country, org_number AS "orgNumber"
        FROM watchlist_companies ${after} ORDER BY country, "orgNumber" LIMIT ${limit}::integer`.execute(db);
      return res.rows;
    },

    /** The matches the last re-screening of the company found ([] when never screened). */
    async matchesOf(c: WatchedCompany): Promise<ScreenedMatch[]> {
      const row = await db
        .selectFrom('screening_states')
        .select('matches')
        .where('country', '=', c.country)
        .where('org_number', '=', c.orgNumber)
        .executeTakeFirst();
      return (row?.matches as ScreenedMatch[] | undefined) ?? [];
    },

    /** Stores what a re-screening found and appends its event (if any), in one transaction. */
    async record(c: WatchedCompany, matches: ScreenedMatch[], event: NewEvent | null): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await sql`INSERT INTO screening_states (country, org_number, matches)
          VALUES (${c.country}, ${c.orgNumber}, ${JSON.stringify(matches)}::jsonb)
          ON CONFLICT (country, org_number) DO UPDATE SET matches = EXCLUDED.matches, screened_at = now()`.execute(trx);
        if (event) await appendEvents(trx, [event]);
      });
    },
  };
}

export type ScreeningStateRepository = ReturnType<typeof createScreeningStateRepository>;
