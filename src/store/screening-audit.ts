// The audit trail of screening: one row per screening call (REST, MCP, evidence packs) with
// who asked, the subject, the list versions, the threshold, the algorithm and the matches
// returned. Written in the call's own request; read per project by time.
import { sql } from 'kysely';
import type { Db } from './engine/db-type.ts';

export interface ScreeningAuditEntry {
  projectId: number;
  keyPrefix: string;
  at: Date;
  via: 'rest' | 'mcp' | 'evidence';
  operation: 'company' | 'match';
  subject: Record<string, unknown>;
  lists: Record<string, unknown>[];
  threshold: number;
  algorithm: string;
  matches: Record<string, unknown>[];
}

export interface ScreeningAuditRow extends ScreeningAuditEntry {
  id: number;
}

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

export function createScreeningAuditRepository(db: Db) {
  return {
    async record(e: ScreeningAuditEntry): Promise<number> {
      const res = await sql<{ id: number }>`
        INSERT INTO screening_audit (project_id, key_prefix, at, via, operation, subject, lists, threshold, algorithm, match_count, matches)
        VALUES (${e.projectId}, ${e.keyPrefix}, ${e.at}, ${e.via}, ${e.operation}, ${JSON.stringify(e.subject)}::jsonb,
          ${JSON.stringify(e.lists)}::jsonb, ${e.threshold}, ${e.algorithm}, ${e.matches.length}, ${JSON.stringify(e.matches)}::jsonb)
        RETURNING id`.execute(db);
      return Number(res.rows[0].id);
    },

    /** The project's records in [from, to), oldest first, after the keyset position `afterId`. */
    async list(
      projectId: number,
      f: { from?: Date; to?: Date; after?: { at: Date; id: number }; limit: number },
    ): Promise<ScreeningAuditRow[]> {
      const res = await sql<{
        id: number;
        project_id: number;
        key_prefix: string;
        at: Date;
        via: ScreeningAuditEntry['via'];
        operation: ScreeningAuditEntry['operation'];
        subject: unknown;
        lists: unknown;
        threshold: number;
        algorithm: string;
        matches: unknown;
      }>`
        SELECT id, project_id, key_prefix, at, via, operation, subject, lists, threshold, algorithm, matches
        FROM screening_audit WHERE project_id = ${projectId}
          ${f.from ? sql`AND at >= ${f.from}` : sql``}
          ${f.to ? sql`AND at < ${f.to}` : sql``}
          ${f.after ? sql`AND (at, id) > (${f.after.at}, ${f.after.id})` : sql``}
        ORDER BY at, id LIMIT ${f.limit}`.execute(db);
      return res.rows.map((r) => ({
        id: Number(r.id),
        projectId: Number(r.project_id),
        keyPrefix: r.key_prefix,
        at: new Date(r.at),
        via: r.via,
        operation: r.operation,
        subject: json(r.subject),
        lists: json(r.lists),
        threshold: Number(r.threshold),
        algorithm: r.algorithm,
        matches: json(r.matches),
      }));
    },

    /** Deletes records older than `before` (the evidence retention); the number deleted. */
    async purgeBefore(before: Date, batch = 5000): Promise<number> {
      const res = await sql`DELETE FROM screening_audit WHERE id IN (
        SELECT id FROM screening_audit WHERE at < ${before} ORDER BY at LIMIT ${batch})`.execute(db);
      return Number(res.numAffectedRows ?? 0);
    },
  };
}

export type ScreeningAuditRepository = ReturnType<typeof createScreeningAuditRepository>;
