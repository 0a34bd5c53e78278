// Sync job runs (for the health endpoint's dataSources) and incremental sync positions.
import { sql, type Kysely } from 'kysely';
import { vacuumAnalyze } from '../engine/bulk-statement.ts';
import type { Database } from '../engine/schema.ts';

export interface DataSourceStatus {
  lastSync: string;
  status: 'running' | 'ok' | 'error';
  recordsProcessed: number;
  lastSuccess: string | null;
  /** Short reason when the latest run failed, or what part of an ok run did not succeed. */
  message: string | null;
}

/**
 * The latest run of a job, with its run id: runs of one source's jobs can finish within the same
 * millisecond, and the id (in start order) still tells which came last.
 */
export interface LatestRun extends DataSourceStatus {
  runId: number;
}

interface JobRunSummary {
  status: 'running' | 'ok' | 'error';
  startedAt: string;
  finishedAt: string | null;
  recordsProcessed: number;
  /** Short reason of a failed run. */
  message: string | null;
}

/**
 * `onFinish`: called after a run of this process is recorded as finished. Sources that change
 * records without touching the company row (procurement, licences, shareholders …) make record
 * caches drop everything, at once here and within the poll interval elsewhere (company-changes.ts).
 */
export function createSyncRunRepository(db: Kysely<Database>, onFinish: () => void = () => undefined) {
  return {
    /** Records a run as started; `slot` and `holder` say which scheduled slot and process it is. */
    async start(
      source: string,
      origin: 'upstream' | 'url' | 'file' | null = null,
      claim: { slot?: Date; holder?: string } = {},
    ): Promise<number> {
      const res = await sql<{ id: number }>`
        INSERT INTO sync_runs (source, status, origin, slot, holder)
        VALUES (${source}, 'running', ${origin}, ${claim.slot ?? null}::timestamptz, ${claim.holder ?? null})
        RETURNING id`.execute(db);
      return Number(res.rows[0].id);
    },

    /** The latest run of each job (for `ncd jobs`). */
    async lastRuns(): Promise<Record<string, JobRunSummary>> {
      const res = await sql<{
        source: string;
        status: JobRunSummary['status'];
        started_at: Date;
        finished_at: Date | null;
        records_processed: number;
        message: string | null;
      }>`
        SELECT DISTINCT ON (source) source, status, started_at, finished_at, records_processed, message
        FROM sync_runs ORDER BY source, started_at DESC, id DESC`.execute(db);
      const out: Record<string, JobRunSummary> = {};
      for (const r of res.rows) {
        out[r.source] = {
          status: r.status,
          startedAt: new Date(r.started_at).toISOString(),
          finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
          recordsProcessed: Number(r.records_processed),
          message: r.message,
        };
      }
      return out;
    },

    /** Refreshes planner statistics and the visibility map (after a sync changed rows). */
    async vacuumAnalyze(): Promise<void> {
      await vacuumAnalyze(db);
    },

    /** Whether the source was ever synced successfully from the network (not from a file). */
    async syncedFromNetwork(source: string): Promise<boolean> {
      const row = await db
        .selectFrom('sync_runs')
        .select('id')
        .where('source', '=', source)
        .where('status', '=', 'ok')
        .where('origin', 'in', ['upstream', 'url'])
        .executeTakeFirst();
      return row !== undefined;
    },

    async markInterrupted(source: string): Promise<void> {
      await db
        .updateTable('sync_runs')
        .set({ status: 'error', message: 'interrupted (the process stopped during the run)', finished_at: sql`now()` })
        .where('source', '=', source)
        .where('status', '=', 'running')
        .execute();
    },

    async progress(id: number, recordsProcessed: number): Promise<void> {
      await db.updateTable('sync_runs').set({ records_processed: recordsProcessed }).where('id', '=', id).execute();
    },

    async finish(id: number, status: 'ok' | 'error', recordsProcessed: number, message: string | null): Promise<void> {
      await db
        .updateTable('sync_runs')
        .set({ status, records_processed: recordsProcessed, message, finished_at: sql`now()` })
        .where('id', '=', id)
        .execute();
      onFinish();
    },

    /** The latest run of every source, with the time of its latest successful run. */
    async latestBySource(): Promise<Record<string, LatestRun>> {
      const res = await sql<{
        id: number;
        source: string;
        status: DataSourceStatus['status'];
        at: Date;
        records_processed: number;
        message: string | null;
        last_ok: Date | null;
      }>`
        SELECT DISTINCT ON (r.source) r.id, r.source, r.status, COALESCE(r.finished_at, r.started_at) AS at, r.records_processed, r.message,
          (SELECT max(o.finished_at) FROM sync_runs o WHERE o.source = r.source AND o.status = 'ok') AS last_ok
        FROM sync_runs r ORDER BY r.source, r.started_at DESC, r.id DESC`.execute(db);
      const out: Record<string, LatestRun> = {};
      for (const r of res.rows) {
        out[r.source] = {
          runId: Number(r.id),
          lastSync: new Date(r.at).toISOString(),
          status: r.status,
          recordsProcessed: Number(r.records_processed),
          lastSuccess: r.last_ok ? new Date(r.last_ok).toISOString() : null,
          // An ok run may carry a message: what part of it did not succeed (statistics tables).
          message: r.status === 'running' ? null : r.message,
        };
      }
      return out;
    },

    async getState<T extends Record<string, unknown>>(source: string): Promise<T | undefined> {
      const row = await db.selectFrom('sync_state').select('state').where('source', '=', source).executeTakeFirst();
      return row?.state as T | undefined;
    },

    async setState(source: string, state: Record<string, unknown>): Promise<void> {
      await db
        .insertInto('sync_state')
        .values({ source, state: JSON.stringify(state) })
        .onConflict((oc) => oc.column('source').doUpdateSet({ state: JSON.stringify(state), updated_at: sql`now()` }))
        .execute();
    },
  };
}

export type SyncRunRepository = ReturnType<typeof createSyncRunRepository>;
