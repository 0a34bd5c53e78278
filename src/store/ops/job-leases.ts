// Job leases: which process runs each job now, and the latest scheduled slot claimed. Every
// decision is one conditional statement evaluated by the database (its clock, its row lock), so
// processes on several hosts agree without an advisory lock, on PostgreSQL and PGlite alike.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../engine/schema.ts';

interface JobLease {
  job: string;
  holder: string | null;
  slot: string | null;
  expiresAt: string | null;
}

interface ClaimRequest {
  job: string;
  holder: string;
  ttlMs: number;
  /** The scheduled slot this run is for; absent for a run by hand (it claims no slot). */
  slot?: Date;
  /**
   * Treat a lease held by another process as free. Embedded mode only: one process owns the
   * data directory, so a lease it did not take was left by a process that has died.
   */
  ignoreOtherHolders?: boolean;
  /** A holder known to be dead (its process is gone): its lease counts as free. */
  deadHolder?: string;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function createJobLeaseRepository(db: Kysely<Database>) {
  return {
    /**
     * Takes the job's lease when nobody holds it (or the holder's lease expired) and, for a
     * scheduled run, when no run has claimed this slot or a later one. True when it was taken.
     */
    async claim(req: ClaimRequest): Promise<boolean> {
      const slot = req.slot ?? null;
      const ignoreOthers = req.ignoreOtherHolders === true;
      const res = await sql<{ job: string }>`
        INSERT INTO job_leases AS l (job, holder, slot, expires_at, claimed_at)
        VALUES (${req.job}, ${req.holder}, ${slot}::timestamptz, now() + ${req.ttlMs}::integer * interval '1 millisecond', now())
        ON CONFLICT (job) DO UPDATE SET
          holder = EXCLUDED.holder,
          slot = COALESCE(EXCLUDED.slot, l.slot),
          expires_at = EXCLUDED.expires_at,
          claimed_at = EXCLUDED.claimed_at
        WHERE (l.holder IS NULL OR l.expires_at <= now() OR ${ignoreOthers}::boolean OR l.holder = ${req.deadHolder ?? null})
          AND (EXCLUDED.slot IS NULL OR l.slot IS NULL OR l.slot < EXCLUDED.slot)
        RETURNING l.job`.execute(db);
      return res.rows.length === 1;
    },

    /** Extends a lease the holder still has; false when it lost it (expired and taken over). */
    async renew(job: string, holder: string, ttlMs: number): Promise<boolean> {
      const res = await sql<{ job: string }>`
        UPDATE job_leases SET expires_at = now() + ${ttlMs}::integer * interval '1 millisecond'
        WHERE job = ${job} AND holder = ${holder} RETURNING job`.execute(db);
      return res.rows.length === 1;
    },

    /** Frees the lease (the claimed slot stays, so the slot is not run again). */
    async release(job: string, holder: string): Promise<void> {
      await sql`UPDATE job_leases SET holder = NULL, expires_at = NULL WHERE job = ${job} AND holder = ${holder}`.execute(
        db,
      );
    },

    async holderOf(job: string): Promise<string | null> {
      const res = await sql<{
        holder: string | null;
      }>`SELECT holder FROM job_leases WHERE job = ${job} AND expires_at > now()`.execute(db);
      return res.rows[0]?.holder ?? null;
    },

    async list(): Promise<JobLease[]> {
      const res = await sql<{ job: string; holder: string | null; slot: Date | null; expires_at: Date | null }>`
        SELECT job, holder, slot, expires_at FROM job_leases ORDER BY job`.execute(db);
      return res.rows.map((r) => ({ job: r.job, holder: r.holder, slot: iso(r.slot), expiresAt: iso(r.expires_at) }));
    },
  };
}
