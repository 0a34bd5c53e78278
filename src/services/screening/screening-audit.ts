// The audit trail of screening (what an examiner asks for): every screening call, REST, MCP or
// inside an evidence pack, is recorded with the key's project and prefix, the subject, the list
// versions, the threshold, the algorithm and the matches returned; GET /api/screening/audit
// lists the project's own records. Persons appear by name and birth year only: a match query's
// full birth date is cut to its year before it is stored.
import type { Clock } from '../../domain/clock.ts';
import type { ScreeningAuditEntry, ScreeningAuditRepository } from '../../store/screening-audit.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { Pagination } from '../support/pagination.ts';

/** Who screened, and through which door. */
export interface AuditCaller {
  projectId: number;
  keyPrefix: string;
  via: ScreeningAuditEntry['via'];
}

interface ListVersion {
  name: string;
  version: string | null;
  entityCount: number;
  lastSync: string;
}

interface CompanyAnswer {
  orgNumber: string;
  country: string;
  companyName: string;
  screenedAt: string;
  threshold: number;
  algorithm: { name: string; version: string };
  lists: ListVersion[];
  subjects: { id: string; kind: string; role: string; name: string; birthYear?: number | null }[];
  matches: { subject: string; list: string; entityId: string; entityName: string; score: number; matchType: string }[];
}

interface MatchAnswer {
  threshold: number;
  screenedAt: string;
  algorithm: { name: string; version: string };
  lists: ListVersion[];
  responses: Record<
    string,
    {
      query: { name: string; schema?: string; birthDate?: string; nationality?: string; country?: string };
      results: {
        id: string;
        caption: string;
        list: string;
        listVersion: string | null;
        score: number;
        match: boolean;
      }[];
    }
  >;
}

const algorithmOf = (a: { name: string; version: string }) => `${a.name}@${a.version}`;

/** The audit entry of one company screening. */
export function companyAuditEntry(caller: AuditCaller, r: CompanyAnswer): ScreeningAuditEntry {
  return {
    projectId: caller.projectId,
    keyPrefix: caller.keyPrefix,
    via: caller.via,
    at: new Date(r.screenedAt),
    operation: 'company',
    subject: {
      orgNumber: r.orgNumber,
      country: r.country,
      companyName: r.companyName,
      subjects: r.subjects.map((s) => ({
        id: s.id,
        kind: s.kind,
        role: s.role,
        name: s.name,
        ...(s.birthYear !== undefined ? { birthYear: s.birthYear } : {}),
      })),
    },
    lists: r.lists.map((l) => ({ ...l })),
    threshold: r.threshold,
    algorithm: algorithmOf(r.algorithm),
    matches: r.matches.map((m) => ({
      subject: m.subject,
      list: m.list,
      entityId: m.entityId,
      entityName: m.entityName,
      score: m.score,
      matchType: m.matchType,
    })),
  };
}

/** The audit entry of one name screening (POST /api/screening/match). */
export function matchAuditEntry(caller: AuditCaller, r: MatchAnswer): ScreeningAuditEntry {
  const keys = Object.keys(r.responses);
  return {
    projectId: caller.projectId,
    keyPrefix: caller.keyPrefix,
    via: caller.via,
    at: new Date(r.screenedAt),
    operation: 'match',
    subject: {
      queries: keys.map((key) => {
        const q = r.responses[key].query;
        return {
          key,
          name: q.name,
          schema: q.schema ?? null,
          // Never the full birth date: the year is all the matcher compares.
          birthYear: q.birthDate ? Number(q.birthDate.slice(0, 4)) : null,
          country: q.country ?? q.nationality ?? null,
        };
      }),
    },
    lists: r.lists.map((l) => ({ ...l })),
    threshold: r.threshold,
    algorithm: algorithmOf(r.algorithm),
    matches: keys.flatMap((key) =>
      r.responses[key].results.map((m) => ({
        query: key,
        list: m.list,
        listVersion: m.listVersion,
        entityId: m.id,
        entityName: m.caption,
        score: m.score,
        match: m.match,
      })),
    ),
  };
}

export interface ScreeningAuditDeps {
  audit: Pick<ScreeningAuditRepository, 'list'>;
  pagination: Pagination;
  clock: Clock;
}

export function createScreeningAuditService(deps: ScreeningAuditDeps) {
  return {
    /** The project's records in [from, to) (default: the last 30 days), oldest first, paged. */
    async list(caller: AuthContext, q: { from?: string; to?: string; limit?: number; cursor?: string }) {
      const to = q.to ? new Date(q.to) : undefined;
      const from = q.from ? new Date(q.from) : undefined;
      const bound = { from: q.from ?? null, to: q.to ?? null };
      const page = await deps.pagination.page(
        caller,
        { scope: 'screening-audit', bound, cursor: q.cursor, limit: q.limit, depthGuard: false },
        async (limit, after) => {
          const rows = await deps.audit.list(caller.projectId, {
            from,
            to,
            limit,
            after: after ? { at: new Date(String(after[0])), id: after[1] } : undefined,
          });
          return { rows, positions: rows.map((r) => [r.at.toISOString(), r.id] as [string, number]) };
        },
      );
      return {
        data: page.rows.map((r) => ({
          id: r.id,
          at: r.at.toISOString(),
          keyPrefix: r.keyPrefix,
          via: r.via,
          operation: r.operation,
          subject: r.subject,
          lists: r.lists,
          threshold: r.threshold,
          algorithm: r.algorithm,
          matchCount: r.matches.length,
          matches: r.matches,
        })),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },
  };
}
