// Daily and monthly quota counters, one row per project. A single conditional UPDATE both
// checks and bumps the counters, so the row lock makes the quotas exact under any concurrency
// and across processes; calendar periods come from the caller's clock (UTC). The same
// statement also counts the request in project_usage_daily (the setup page's history chart),
// so the hot path stays one round trip.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../engine/schema.ts';

interface UsageCounts {
  today: number;
  thisMonth: number;
  total: number;
}

interface DailyCount {
  day: string;
  count: number;
}

type ConsumeResult = ({ ok: true } & UsageCounts) | ({ ok: false; exhausted: 'daily' | 'monthly' } & UsageCounts);

export function createUsageRepository(db: Kysely<Database>) {
  async function read(projectId: number, today: string, monthStart: string): Promise<UsageCounts> {
    const row = await sql<{ today: number; this_month: number; total: number }>`
      SELECT CASE WHEN day = ${today}::date THEN day_count ELSE 0 END AS today,
             CASE WHEN month = ${monthStart}::date THEN month_count ELSE 0 END AS this_month,
             total
      FROM project_usage WHERE project_id = ${projectId}`.execute(db);
    const r = row.rows[0];
    return r ? { today: r.today, thisMonth: r.this_month, total: r.total } : { today: 0, thisMonth: 0, total: 0 };
  }

  /**
   * Adds `n` requests unless a quota is used up (limits of 0 mean unlimited).
   * GREATEST/">=": a process whose clock lags a little behind midnight must not reset the
   * counter that a process already in the new day has started. The daily INSERT runs only for
   * the row the UPDATE returned (a refused request is not usage) and dates it with the counter's
   * own day, so the chart and the quota always agree.
   */
  function bump(
    projectId: number,
    today: string,
    monthStart: string,
    n: number,
    dailyLimit: number,
    monthlyLimit: number,
  ) {
    return sql<{ day_count: number; month_count: number; total: number }>`
        WITH bumped AS (
          UPDATE project_usage SET
            day_count = CASE WHEN day >= ${today}::date THEN day_count + ${n}::int ELSE ${n}::int END,
            day = GREATEST(day, ${today}::date),
            month_count = CASE WHEN month >= ${monthStart}::date THEN month_count + ${n}::int ELSE ${n}::int END,
            month = GREATEST(month, ${monthStart}::date),
            total = total + ${n}::int
          WHERE project_id = ${projectId}
            AND (${dailyLimit}::int = 0 OR day < ${today}::date OR day_count < ${dailyLimit}::int)
            AND (${monthlyLimit}::int = 0 OR month < ${monthStart}::date OR month_count < ${monthlyLimit}::int)
          RETURNING project_id, day, day_count, month_count, total
        ), daily AS (
          INSERT INTO project_usage_daily (project_id, day, count)
          SELECT project_id, day, ${n}::int FROM bumped
          ON CONFLICT (project_id, day) DO UPDATE SET count = project_usage_daily.count + EXCLUDED.count
        )
        SELECT day_count, month_count, total FROM bumped`.execute(db);
  }

  return {
    read,

    /** Adds `n` requests of a project without daily or monthly quota (counted in memory first). */
    async add(projectId: number, day: string, monthStart: string, n: number): Promise<void> {
      await bump(projectId, day, monthStart, n, 0, 0);
    },

    /** Counted requests per UTC day from `fromDay` to `toDay` inclusive; days without requests are absent. */
    async history(projectId: number, fromDay: string, toDay: string): Promise<DailyCount[]> {
      const res = await sql<{ day: string; count: number }>`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, count FROM project_usage_daily
        WHERE project_id = ${projectId} AND day BETWEEN ${fromDay}::date AND ${toDay}::date
        ORDER BY day`.execute(db);
      return res.rows.map((r) => ({ day: r.day, count: r.count }));
    },

    /** Counts one request unless a quota is used up. Limits of 0 mean unlimited. */
    async consume(
      projectId: number,
      today: string,
      monthStart: string,
      dailyLimit: number,
      monthlyLimit: number,
    ): Promise<ConsumeResult> {
      const res = await bump(projectId, today, monthStart, 1, dailyLimit, monthlyLimit);
      const r = res.rows[0];
      if (r) return { ok: true, today: r.day_count, thisMonth: r.month_count, total: r.total };
      const counts = await read(projectId, today, monthStart);
      // When both are used up, the monthly one decides how long the caller must wait.
      const exhausted = monthlyLimit !== 0 && counts.thisMonth >= monthlyLimit ? 'monthly' : 'daily';
      return { ok: false, exhausted, ...counts };
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
