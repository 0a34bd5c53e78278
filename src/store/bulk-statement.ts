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
