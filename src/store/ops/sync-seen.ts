// Bookkeeping for full-file syncs: which keys the file contained, and what was missing.
import { sql, type Kysely } from 'kysely';
import { withoutStatementTimeout } from '../engine/bulk-statement.ts';
import type { Database } from '../engine/schema.ts';

export function createSyncSeenRepository(db: Kysely<Database>) {
  return {
    async mark(runId: number, keys: string[]): Promise<void> {
      if (!keys.length) return;
      await sql`INSERT INTO sync_seen (run_id, key) SELECT ${runId}, k FROM unnest(${keys}::text[]) AS k ON CONFLICT DO NOTHING`.execute(
        db,
      );
    },

    async clear(runId: number): Promise<void> {
      await withoutStatementTimeout(db, (trx) => trx.deleteFrom('sync_seen').where('run_id', '=', runId).execute());
    },

    /** Removes what earlier, killed runs of the same source left behind. */
    async clearLeftovers(runId: number): Promise<void> {
      await withoutStatementTimeout(db, (trx) =>
        sql`DELETE FROM sync_seen WHERE run_id IN (
        SELECT o.id FROM sync_runs o JOIN sync_runs cur ON cur.id = ${runId}
        WHERE o.source = cur.source AND o.id <> cur.id)`.execute(trx),
      );
    },

    async count(runId: number): Promise<number> {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sync_seen WHERE run_id = ${runId}`.execute(db);
      return r.rows[0].n;
    },

    /**
     * Companies of a country that are live in the store but were not in the file: marked
     * deleted. The content hash is changed too, so a unit that comes back is written again.
     */
    async markAbsentCompanies(runId: number, country: string, status: string): Promise<number> {
      const sweep = sql`UPDATE companies c SET is_deleted = true, status = ${status}, updated_at = now(),
          content_hash = 'absent:' || c.content_hash
        WHERE c.country = ${country} AND NOT c.is_deleted
          AND NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.run_id = ${runId} AND s.key = c.org_number)`;
      const r = await withoutStatementTimeout(db, (trx) => sweep.execute(trx), {
        analyzeFirst: ['sync_seen', 'companies'],
      });
      return Number(r.numAffectedRows ?? 0);
    },

    async markAbsentSubUnits(runId: number, country: string): Promise<number> {
      const sweep = sql`UPDATE sub_units u SET is_deleted = true, updated_at = now(), content_hash = 'absent:' || u.content_hash
        WHERE u.country = ${country} AND NOT u.is_deleted
          AND NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.run_id = ${runId} AND s.key = u.org_number)`;
      const r = await withoutStatementTimeout(db, (trx) => sweep.execute(trx), {
        analyzeFirst: ['sync_seen', 'sub_units'],
      });
      return Number(r.numAffectedRows ?? 0);
    },

    async anySubUnits(country: string): Promise<boolean> {
      const r = await sql<{
        any: boolean;
      }>`SELECT EXISTS (SELECT 1 FROM sub_units WHERE country = ${country}) AS any`.execute(db);
      return r.rows[0].any;
    },

    async anyCompanies(): Promise<boolean> {
      const r = await sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM companies) AS any`.execute(db);
      return r.rows[0].any;
    },

    async liveCount(country: string): Promise<number> {
      const r = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM companies WHERE country = ${country} AND NOT is_deleted`.execute(db);
      return r.rows[0].n;
    },
  };
}

export type SyncSeenRepository = ReturnType<typeof createSyncSeenRepository>;
