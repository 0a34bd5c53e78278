// KYB evidence packs: the signing keys' public halves (only ever added, so JWKS keeps every key
// that signed a pack), the packs themselves (never changed: a trigger refuses UPDATE; only the
// retention purge deletes), the per-project daily count, and the one consistent read a pack's
// parts come from (a REPEATABLE READ transaction: every part sees the same snapshot).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './engine/schema.ts';
import type { Db } from './engine/db-type.ts';

export interface EvidencePackRow {
  id: string;
  projectId: number;
  keyPrefix: string;
  country: string;
  orgNumber: string;
  createdAt: Date;
  expiresAt: Date;
  reference: string | null;
  purpose: string | null;
  hash: string;
  kid: string;
  summary: Record<string, unknown>;
}

export interface EvidenceListFilter {
  orgNumber?: string;
  from?: Date;
  to?: Date;
  /** Keyset: rows strictly after this (createdAt, id). */
  after?: { createdAt: Date; id: string };
  limit: number;
}

interface RawPack {
  id: string;
  project_id: number;
  key_prefix: string;
  country: string;
  org_number: string;
  created_at: Date;
  expires_at: Date;
  reference: string | null;
  purpose: string | null;
  hash: string;
  kid: string;
  summary: Record<string, unknown> | string;
}

const toRow = (r: RawPack): EvidencePackRow => ({
  id: r.id,
  projectId: Number(r.project_id),
  keyPrefix: r.key_prefix,
  country: r.country,
  orgNumber: r.org_number,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
  reference: r.reference,
  purpose: r.purpose,
  hash: r.hash,
  kid: r.kid,
  summary: typeof r.summary === 'string' ? (JSON.parse(r.summary) as Record<string, unknown>) : r.summary,
});

const COLUMNS = sql.raw(
  'id, project_id, key_prefix, country, org_number, created_at, expires_at, reference, purpose, hash, kid, summary',
);

export function createEvidenceRepository(db: Db) {
  return {
    /** Adds a signing key's public half (a key already listed is left as it is). */
    async registerKey(kid: string, publicJwk: object): Promise<void> {
      await sql`INSERT INTO evidence_keys (kid, public_jwk) VALUES (${kid}, ${JSON.stringify(publicJwk)}::jsonb)
        ON CONFLICT (kid) DO NOTHING`.execute(db);
    },

    /** Every key that ever signed here, oldest first. */
    async keys(): Promise<{ kid: string; publicJwk: Record<string, unknown>; createdAt: Date }[]> {
      const res = await sql<{ kid: string; public_jwk: Record<string, unknown> | string; created_at: Date }>`
        SELECT kid, public_jwk, created_at FROM evidence_keys ORDER BY created_at, kid`.execute(db);
      return res.rows.map((r) => ({
        kid: r.kid,
        publicJwk: typeof r.public_jwk === 'string' ? JSON.parse(r.public_jwk) : r.public_jwk,
        createdAt: new Date(r.created_at),
      }));
    },

    /**
     * Counts one pack for the project's UTC day; false when `limit` (null: none) is spent. One
     * conditional upsert: the row lock makes it exact across processes.
     */
    async chargeDaily(projectId: number, day: string, limit: number | null): Promise<boolean> {
      const res = await sql<{ used: number }>`
        INSERT INTO evidence_pack_counts (project_id, day, used) VALUES (${projectId}, ${day}::date, 1)
        ON CONFLICT (project_id, day) DO UPDATE SET used = evidence_pack_counts.used + 1
        WHERE ${limit}::integer IS NULL OR evidence_pack_counts.used < ${limit}::integer
        RETURNING used`.execute(db);
      return res.rows.length === 1 && (limit === null || Number(res.rows[0].used) <= limit);
    },

    /** Gives back a charge whose pack was not made. */
    async refundDaily(projectId: number, day: string): Promise<void> {
      await sql`UPDATE evidence_pack_counts SET used = used - 1
        WHERE project_id = ${projectId} AND day = ${day}::date AND used > 0`.execute(db);
    },

    async insert(p: EvidencePackRow & { body: string }): Promise<void> {
      await sql`INSERT INTO evidence_packs
        (id, project_id, key_prefix, country, org_number, created_at, expires_at, reference, purpose, hash, kid, summary, body)
        VALUES (${p.id}, ${p.projectId}, ${p.keyPrefix}, ${p.country}, ${p.orgNumber}, ${p.createdAt}, ${p.expiresAt},
          ${p.reference}, ${p.purpose}, ${p.hash}, ${p.kid}, ${JSON.stringify(p.summary)}::jsonb, ${p.body})`.execute(
        db,
      );
    },

    /** The pack's stored text, only for the project that made it (another project's id is unknown). */
    async body(projectId: number, id: string): Promise<{ row: EvidencePackRow; body: string } | undefined> {
      const res = await sql<RawPack & { body: string }>`
        SELECT ${COLUMNS}, body FROM evidence_packs WHERE id = ${id} AND project_id = ${projectId}`.execute(db);
      const r = res.rows[0];
      return r ? { row: toRow(r), body: r.body } : undefined;
    },

    /** The project's packs, oldest first, in [from, to). */
    async list(projectId: number, f: EvidenceListFilter): Promise<EvidencePackRow[]> {
      const res = await sql<RawPack>`
        SELECT ${COLUMNS} FROM evidence_packs
        WHERE project_id = ${projectId}
          ${f.orgNumber !== undefined ? sql`AND org_number = ${f.orgNumber}` : sql``}
          ${f.from ? sql`AND created_at >= ${f.from}` : sql``}
          ${f.to ? sql`AND created_at < ${f.to}` : sql``}
          ${f.after ? sql`AND (created_at, id) > (${f.after.createdAt}, ${f.after.id})` : sql``}
        ORDER BY created_at, id LIMIT ${f.limit}`.execute(db);
      return res.rows.map(toRow);
    },

    /** Deletes up to `batch` packs whose retention ended before `now`; the number deleted. */
    async purgeExpired(now: Date, batch = 1000): Promise<number> {
      const res = await sql`DELETE FROM evidence_packs WHERE id IN (
        SELECT id FROM evidence_packs WHERE expires_at < ${now} ORDER BY expires_at LIMIT ${batch})`.execute(db);
      return Number(res.numAffectedRows ?? 0);
    },
  };
}

export type EvidenceRepository = ReturnType<typeof createEvidenceRepository>;

/**
 * Runs `fn` in one REPEATABLE READ transaction on the primary: everything read and written
 * through `trx` sees one snapshot and commits together. On the embedded engine (one connection)
 * nothing else runs meanwhile, so `fn` must use `trx` alone.
 */
export function snapshotRead<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').execute(fn);
}
