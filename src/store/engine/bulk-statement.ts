// Whole-table statements of the sync jobs (sweeps over a full register: marking what a dump no
// longer holds, clearing bookkeeping, refreshing statistics) run off the request path and may
// take longer than the request-path statement timeout on a Norway-size store (a 1.2M-company
// load on PostgreSQL hit the 30 s default in the sub-unit sweep). They run in a transaction of
// their own with the timeout lifted for that transaction only.
//
// A sweep right after a bulk load also needs fresh planner statistics: autovacuum (PostgreSQL)
// has not caught up yet and PGlite has none, and with the estimates of a near-empty table the
// planner picks a nested-loop anti-join, quadratic in the rows (measured: 671k sub-units against
// 671k seen keys ran for minutes instead of about a second).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

export function withoutStatementTimeout<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
  opts: { analyzeFirst?: (keyof Database & string)[] } = {},
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = 0`.execute(trx);
    if (opts.analyzeFirst?.length) await sql.raw(`ANALYZE ${opts.analyzeFirst.join(', ')}`).execute(trx);
    return fn(trx);
  });
}

/**
 * VACUUM (ANALYZE) of the whole database after a sync: fresh statistics, and the visibility map
 * set so that covering indexes give index-only scans right after a load (autovacuum may take
 * hours to get there on PostgreSQL; PGlite has none). VACUUM cannot run in a transaction, so the
 * timeout is lifted on the session of one connection and put back as it was (on PGlite every
 * connection shares one session).
 */
export async function vacuumAnalyze(db: Kysely<Database>): Promise<void> {
  await db.connection().execute(async (conn) => {
    const before = (await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(conn)).rows[0]
      .statement_timeout;
    await sql`SET statement_timeout = 0`.execute(conn);
    try {
      await sql`VACUUM (ANALYZE)`.execute(conn);
    } finally {
      await sql`SELECT set_config('statement_timeout', ${before}, false)`.execute(conn);
    }
  });
}
