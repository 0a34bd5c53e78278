// The queue of enrich-on-write jobs: a CRM record whose organisation number was set or changed.
// The webhook route adds a job and answers; a background worker claims due jobs with a lease
// (one statement, so two processes never take the same job) and marks them done or failed.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { CrmWritebacksTable, Database } from './engine/schema.ts';

export type CrmWritebackRow = Selectable<CrmWritebacksTable>;

export function createCrmWritebackRepository(db: Kysely<Database>) {
  return {
    /** Queues a job; a job already pending for the same record absorbs it (one write-back). */
    async enqueue(destinationId: string, objectId: string, now: Date): Promise<void> {
      await sql`
        INSERT INTO crm_writebacks (destination_id, object_id, not_before, created_at, updated_at)
        VALUES (${destinationId}, ${objectId}, ${now}, ${now}, ${now})
        ON CONFLICT (destination_id, object_id) WHERE status = 'pending' DO NOTHING`.execute(db);
    },

    /** Claims up to `limit` due jobs for `leaseMs`; a crashed holder's jobs come back after it. */
    async claim(now: Date, leaseMs: number, limit: number): Promise<CrmWritebackRow[]> {
      const until = new Date(now.getTime() + leaseMs);
      const r = await sql<CrmWritebackRow>`
        UPDATE crm_writebacks SET claimed_until = ${until}, attempts = attempts + 1, updated_at = ${now}
        WHERE id IN (
          SELECT id FROM crm_writebacks
          WHERE status = 'pending' AND not_before <= ${now}
            AND (claimed_until IS NULL OR claimed_until < ${now})
          ORDER BY not_before, id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING *`.execute(db);
      return r.rows;
    },

    async finish(id: number, status: 'done' | 'failed', outcome: string, now: Date): Promise<void> {
      await db
        .updateTable('crm_writebacks')
        .set({ status, outcome, claimed_until: null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    /** Tries again later (the CRM was down or limited). */
    async retryAt(id: number, at: Date, now: Date): Promise<void> {
      await db
        .updateTable('crm_writebacks')
        .set({ not_before: at, claimed_until: null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    async forDestination(destinationId: string): Promise<CrmWritebackRow[]> {
      return db
        .selectFrom('crm_writebacks')
        .selectAll()
        .where('destination_id', '=', destinationId)
        .orderBy('id')
        .execute();
    },
  };
}

export type CrmWritebackRepository = ReturnType<typeof createCrmWritebackRepository>;
