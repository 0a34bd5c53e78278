// Where per-process caches of company records learn what changed. Two channels:
// - `CompanyChangeSignal`: writes through this process's company write repository announce the
//   companies they changed right after commit (a cache evicts them at once);
// - `CompanyChangeFollower`: every process polls the shared store for changes written by any
//   process. The implementation here follows `companies.updated_at`; the event log's `seq` can
//   replace it behind the same interface.
import { sql, type Kysely } from 'kysely';
import type { Database } from './engine/schema.ts';

/** Companies as `<country>:<orgNumber>`, or every company (a change a key cannot name). */
export type CompanyChanges = { keys: string[] } | { all: true };

export const companyKey = (country: string, orgNumber: string) => `${country}:${orgNumber}`;

export interface CompanyChangeSignal {
  /** Called by writers after their transaction committed. */
  changed(changes: CompanyChanges): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (changes: CompanyChanges) => void): () => void;
}

export function createCompanyChangeSignal(): CompanyChangeSignal {
  const listeners = new Set<(changes: CompanyChanges) => void>();
  return {
    changed(changes) {
      for (const l of listeners) l(changes);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface CompanyChangeFollower {
  /** Changes committed since the previous poll (the first poll starts the follow and reports none). */
  poll(): Promise<CompanyChanges>;
}

/**
 * Follows `companies.updated_at` (set to the writing transaction's start time). A transaction
 * that is still open when we read commits later with an `updated_at` before our read, so the next
 * poll starts at the oldest open transaction's start (from `pg_stat_activity`, read in a
 * statement before the rows: whatever is not yet visible to the second statement was either
 * open at the first or started after it; every process must connect as the same role, or one
 * allowed to see the others' `xact_start`). Finished sync runs clear everything: some sources
 * (licences, shareholders, reference data) change what a record shows without moving
 * `updated_at`. More than `maxKeys` changes also clear everything (a bulk load).
 */
export function createUpdatedAtFollower(db: Kysely<Database>, maxKeys = 5000): CompanyChangeFollower {
  let since: Date | undefined;

  async function nextBound(): Promise<Date> {
    const r = await sql<{ bound: Date }>`SELECT least(now(), (SELECT min(xact_start) FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
          AND xact_start IS NOT NULL)) AS bound`.execute(db);
    return new Date(r.rows[0].bound);
  }

  return {
    async poll() {
      const bound = await nextBound();
      const from = since;
      if (!from) {
        since = bound;
        return { keys: [] };
      }
      const rows = await sql<{ country: string; org_number: string }>`
        (SELECT country, org_number FROM companies WHERE updated_at >= ${from.toISOString()}::timestamptz LIMIT ${maxKeys + 1})
        UNION ALL
        (SELECT '*', source FROM sync_runs WHERE finished_at >= ${from.toISOString()}::timestamptz
          AND id > (SELECT coalesce(max(id), 0) - 100 FROM sync_runs) LIMIT 1)`.execute(db);
      since = bound;
      if (rows.rows.length > maxKeys || rows.rows.some((r) => r.country === '*')) return { all: true };
      return { keys: rows.rows.map((r) => companyKey(r.country, r.org_number)) };
    },
  };
}

/** One change set for several: every company if any says so, else the union of their keys. */
function mergeChanges(sets: CompanyChanges[]): CompanyChanges {
  if (sets.some((c) => 'all' in c)) return { all: true };
  return { keys: [...new Set(sets.flatMap((c) => ('keys' in c ? c.keys : [])))] };
}

/**
 * With read replicas: every change reported again `delayMs` later (the replicas' greatest lag in
 * rotation plus one lag poll). A cache that evicted a record when the primary changed it may have
 * read it back from a replica that had not replayed the change yet; the second report evicts that
 * copy too, so a cached record is at most the lag plus the cache's own bound behind the primary.
 */
export function repeatedAfter(
  inner: CompanyChangeFollower,
  delayMs: number,
  now: () => number = Date.now,
): CompanyChangeFollower {
  const held: { at: number; changes: CompanyChanges }[] = [];
  return {
    async poll() {
      const fresh = await inner.poll();
      const t = now();
      const due: CompanyChanges[] = [];
      while (held.length && t - held[0].at >= delayMs) due.push(held.shift()!.changes);
      if ('all' in fresh || fresh.keys.length) held.push({ at: t, changes: fresh });
      return mergeChanges([fresh, ...due]);
    },
  };
}
