// The negative cache of live fetches (migration 0016): which numbers a registry recently said it
// does not know, so they are not asked for again before `until`.
import type { Kysely } from 'kysely';
import type { Database } from './engine/schema.ts';

export function createLiveFetchMissRepository(db: Kysely<Database>) {
  return {
    /** The numbers among `orgNumbers` that are remembered as unknown at `now`. */
    async remembered(source: string, orgNumbers: string[], now: Date): Promise<Set<string>> {
      if (!orgNumbers.length) return new Set();
      const rows = await db
        .selectFrom('live_fetch_misses')
        .select('org_number')
        .where('source', '=', source)
        .where('org_number', 'in', orgNumbers)
        .where('until', '>', now)
        .execute();
      return new Set(rows.map((r) => r.org_number));
    },

    async remember(source: string, orgNumbers: string[], until: Date): Promise<void> {
      if (!orgNumbers.length) return;
      await db
        .insertInto('live_fetch_misses')
        .values(orgNumbers.map((org_number) => ({ source, org_number, until })))
        .onConflict((oc) =>
          oc.columns(['source', 'org_number']).doUpdateSet((eb) => ({ until: eb.ref('excluded.until') })),
        )
        .execute();
    },

    async countActive(now: Date): Promise<number> {
      const r = await db
        .selectFrom('live_fetch_misses')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('until', '>', now)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}

export type LiveFetchMissRepository = ReturnType<typeof createLiveFetchMissRepository>;
