// Procurement notices (Doffin and TED, eForms): the upsert keyed by the eForms notice id with a
// content hash (a notice fetched from both sources is one row that keeps both public ids), the
// procedure link that gives competitions their outcome, the keyset-paginated list behind
// GET /api/procurement (an index for every filter and sort, 0019), one notice by id, and the
// per-company figures of company records.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { PREPARED } from './engine/db.ts';
import {
  columnNames,
  contentHash,
  recordOf,
  recordType,
  setFromExcluded,
  type Column,
} from './engine/hashed-upsert.ts';
import { keysetPage, type KeysetPosition, type SortOrder, type SortSpec } from './engine/keyset.ts';
import type { Database, ProcurementNoticesTable } from './engine/schema.ts';
import type { Selectable } from 'kysely';
import { EVENT_SOURCE, isoValue, type RecordChange } from '../domain/record-events.ts';
import { appendRecordEvents, type RecordValues } from './events/record-events.ts';
import type { Db } from './engine/db-type.ts';
import type {
  ProcurementFilters as ContractFilters,
  PROCUREMENT_SORTS,
  PROCUREMENT_STATUSES,
} from '../contract/procurement.ts';

export type ProcurementRow = Selectable<ProcurementNoticesTable>;
export type ProcurementSort = (typeof PROCUREMENT_SORTS)[number];
export type ProcurementStatus = (typeof PROCUREMENT_STATUSES)[number];

export interface ProcurementWrite {
  eformsId: string;
  doffinId: string | null;
  tedId: string | null;
  procedureId: string | null;
  noticeType: 'competition' | 'result' | 'cancellation';
  noticeTypeCode: string | null;
  title: string;
  titleNorm: string;
  description: string | null;
  orgNumber: string | null;
  buyerName: string | null;
  buyerCompanyId: string | null;
  country: string | null;
  cpvCodes: string[];
  cpvPrefixes: string[];
  procedureType: string | null;
  publishedDate: string | null;
  deadline: string | null;
  estimatedValue: number | null;
  currency: string | null;
  awardedValue: number | null;
  lots: unknown[];
  nutsCodes: string[];
  winners: unknown[];
  winnerOrgNumbers: string[];
  language: string | null;
}

/** The filters of GET /api/procurement, its instants parsed and `q` lowercased (a title substring). */
export type ProcurementFilters = Omit<ContractFilters, 'deadlineAfter' | 'publishedAfter'> & {
  deadlineAfter?: Date;
  publishedAfter?: Date;
};

const PUBLISHED = "COALESCE(p.published_date, '-infinity'::timestamptz)";
const DEADLINE = "COALESCE(p.deadline, '-infinity'::timestamptz)";
const SORTS: Record<ProcurementSort, SortSpec> = {
  publishedAt: { expr: PUBLISHED, type: 'timestamptz' },
  deadline: { expr: DEADLINE, type: 'timestamptz' },
  value: { expr: 'COALESCE(p.estimated_value, p.awarded_value, -1)', type: 'numeric' },
};

// The content columns: the hash covers them, and not the source ids (merged separately) nor
// the outcome (set by the procedure link).
const CONTENT: Column<ProcurementWrite>[] = [
  ['procedure_id', 'text', (w) => w.procedureId],
  ['notice_type', 'text', (w) => w.noticeType],
  ['notice_type_code', 'text', (w) => w.noticeTypeCode],
  ['title', 'text', (w) => w.title],
  ['title_norm', 'text', (w) => w.titleNorm],
  ['description', 'text', (w) => w.description],
  ['org_number', 'text', (w) => w.orgNumber],
  ['buyer_name', 'text', (w) => w.buyerName],
  ['buyer_company_id', 'text', (w) => w.buyerCompanyId],
  ['country', 'text', (w) => w.country],
  ['cpv_codes', 'text[]', (w) => w.cpvCodes],
  ['cpv_prefixes', 'text[]', (w) => w.cpvPrefixes],
  ['procedure_type', 'text', (w) => w.procedureType],
  ['published_date', 'timestamptz', (w) => w.publishedDate],
  ['deadline', 'timestamptz', (w) => w.deadline],
  ['estimated_value', 'numeric', (w) => w.estimatedValue],
  ['currency', 'text', (w) => w.currency],
  ['awarded_value', 'numeric', (w) => w.awardedValue],
  ['lots', 'jsonb', (w) => w.lots],
  ['nuts_codes', 'text[]', (w) => w.nutsCodes],
  ['winners', 'jsonb', (w) => w.winners],
  ['winner_org_numbers', 'text[]', (w) => w.winnerOrgNumbers],
  ['language', 'text', (w) => w.language],
];
const IDS: Column<ProcurementWrite>[] = [
  ['eforms_id', 'text', (w) => w.eformsId],
  ['doffin_id', 'text', (w) => w.doffinId],
  ['ted_id', 'text', (w) => w.tedId],
];
const ALL = [...IDS, ...CONTENT];
const NAMES = columnNames(ALL);
const UPSERT = {
  insert: sql.raw(
    `INSERT INTO procurement_notices (${NAMES.join(', ')}, content_hash) SELECT ${NAMES.map((n) => `x.${n}`).join(', ')}, x.content_hash`,
  ),
  type: sql.raw(recordType(ALL, ['content_hash text'])),
  // A source id is kept once known; a row is rewritten only when its content or ids change.
  conflict: sql.raw(`ON CONFLICT (eforms_id) DO UPDATE SET ${setFromExcluded(columnNames(CONTENT))},
      doffin_id = COALESCE(EXCLUDED.doffin_id, procurement_notices.doffin_id),
      ted_id = COALESCE(EXCLUDED.ted_id, procurement_notices.ted_id),
      content_hash = EXCLUDED.content_hash, synced_at = now()
    WHERE procurement_notices.content_hash IS DISTINCT FROM EXCLUDED.content_hash
      OR (EXCLUDED.doffin_id IS NOT NULL AND procurement_notices.doffin_id IS DISTINCT FROM EXCLUDED.doffin_id)
      OR (EXCLUDED.ted_id IS NOT NULL AND procurement_notices.ted_id IS DISTINCT FROM EXCLUDED.ted_id)
    RETURNING (xmax = 0) AS inserted`),
};

/** The status of a stored notice at `now` (the SQL of `statusCondition` says the same). */
export function statusAt(row: Pick<ProcurementRow, 'outcome' | 'deadline'>, now: Date): ProcurementStatus {
  if (row.outcome) return row.outcome;
  return row.deadline !== null && new Date(row.deadline).getTime() > now.getTime() ? 'ACTIVE' : 'CLOSED';
}

function statusCondition(status: ProcurementStatus, now: Date): RawBuilder<SqlBool> {
  const at = now.toISOString();
  switch (status) {
    case 'ACTIVE':
      return sql`p.outcome IS NULL AND ${sql.raw(DEADLINE)} > ${at}::timestamptz`;
    case 'CLOSED':
      return sql`(p.outcome = 'CLOSED' OR (p.outcome IS NULL AND ${sql.raw(DEADLINE)} <= ${at}::timestamptz))`;
    default:
      return sql`p.outcome = ${status}`;
  }
}

function conditions(f: ProcurementFilters, now: Date): RawBuilder<SqlBool>[] {
  const w: RawBuilder<SqlBool>[] = [];
  if (f.orgNumber !== undefined) {
    const buyer = sql<SqlBool>`p.org_number = ${f.orgNumber}`;
    const winner = sql<SqlBool>`p.winner_org_numbers @> ARRAY[${f.orgNumber}]::text[]`;
    w.push(f.role === 'buyer' ? buyer : f.role === 'winner' ? winner : sql`(${buyer} OR ${winner})`);
  }
  if (f.status !== undefined) w.push(statusCondition(f.status, now));
  if (f.cpv !== undefined) w.push(sql`p.cpv_prefixes @> ARRAY[${f.cpv}]::text[]`);
  if (f.deadlineAfter !== undefined) w.push(sql`${sql.raw(DEADLINE)} > ${f.deadlineAfter.toISOString()}::timestamptz`);
  if (f.publishedAfter !== undefined)
    w.push(sql`${sql.raw(PUBLISHED)} > ${f.publishedAfter.toISOString()}::timestamptz`);
  if (f.q !== undefined) w.push(sql`p.title_norm LIKE ${`%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  if (f.country !== undefined) w.push(sql`p.country = ${f.country}`);
  return w;
}

export interface CompanyProcurement {
  activeTenders: number;
  latestTender: ProcurementRow | null;
  awardedCount: number;
  latestAward: ProcurementRow | null;
}

// Events: a company winning a contract (`awards.<noticeId>`, on each winner) and a
// buyer opening a tender (`tenders.<noticeId>`, on the buyer), as `procurement` events.
const AWARD_FIELDS = ['title', 'buyerName', 'awardedValue', 'currency'] as const;
const TENDER_FIELDS = ['title', 'deadline', 'estimatedValue', 'currency'] as const;

function noticeEvent(w: ProcurementWrite, orgNumber: string, kind: 'award' | 'tender'): RecordChange {
  const noticeId = w.doffinId ?? w.tedId ?? w.eformsId;
  const award = kind === 'award';
  return {
    country: 'NO',
    orgNumber,
    category: 'procurement',
    source: w.doffinId ? EVENT_SOURCE.doffin : EVENT_SOURCE.ted,
    path: `${award ? 'awards' : 'tenders'}.${noticeId}`,
    fields: award ? AWARD_FIELDS : TENDER_FIELDS,
    before: null,
    after: { ...(w as unknown as RecordValues), deadline: isoValue(w.deadline) },
    types: { added: award ? 'contract_awarded' : 'tender_published', changed: '', removed: '' },
  };
}

/**
 * The events of a batch: each winner a stored notice did not name yet, and each competition not
 * stored yet. Into an empty table (a first load) none: that is history, not news.
 */
async function noticeEvents(db: Db, writes: ProcurementWrite[]): Promise<RecordChange[]> {
  const stored = await sql<{ eforms_id: string; winner_org_numbers: string[] }>`
    SELECT eforms_id, winner_org_numbers FROM procurement_notices
    WHERE eforms_id = ANY(${writes.map((w) => w.eformsId)}::text[])`.execute(db);
  if (!stored.rows.length && !(await sql`SELECT 1 FROM procurement_notices LIMIT 1`.execute(db)).rows.length) return [];
  const winnersOf = new Map(stored.rows.map((r) => [r.eforms_id, new Set(r.winner_org_numbers)]));
  return writes.flatMap((w) => {
    const known = winnersOf.get(w.eformsId);
    const awards = w.winnerOrgNumbers.filter((o) => !known?.has(o)).map((o) => noticeEvent(w, o, 'award'));
    const tender =
      w.noticeType === 'competition' && !known && w.orgNumber ? [noticeEvent(w, w.orgNumber, 'tender')] : [];
    return [...awards, ...tender];
  });
}

/** The per-company procurement figures as the columns `companyProcurementColumns` selects. */
export interface CompanyProcurementColumns {
  active: number;
  awarded: number;
  tender: ProcurementRow | null;
  award: ProcurementRow | null;
}

/**
 * A company's open tenders and latest tender as buyer, and its awards as winner, as four columns
 * of sub-selects on the company number `org` (an SQL expression): the lookup's one statement
 * (company-lookup-row.ts) and forCompanies share them.
 */
export function companyProcurementColumns(org: RawBuilder<unknown>, now: Date) {
  const at = now.toISOString();
  return sql`(SELECT count(*)::int FROM procurement_notices p WHERE p.org_number = ${org}
            AND p.notice_type = 'competition' AND p.outcome IS NULL AND ${sql.raw(DEADLINE)} > ${at}::timestamptz) AS active,
          (SELECT count(*)::int FROM procurement_notices p WHERE p.winner_org_numbers @> ARRAY[${org}]) AS awarded,
          (SELECT to_jsonb(p) FROM procurement_notices p WHERE p.org_number = ${org} AND p.notice_type = 'competition'
            ORDER BY ${sql.raw(PUBLISHED)} DESC, p.id DESC LIMIT 1) AS tender,
          (SELECT to_jsonb(p) FROM procurement_notices p WHERE p.winner_org_numbers @> ARRAY[${org}]
            ORDER BY ${sql.raw(PUBLISHED)} DESC, p.id DESC LIMIT 1) AS award`;
}

export const companyProcurementOf = (c: CompanyProcurementColumns): CompanyProcurement => ({
  activeTenders: c.active,
  latestTender: c.tender,
  awardedCount: c.awarded,
  latestAward: c.award,
});

export function createProcurementRepository(db: Kysely<Database>) {
  return {
    /**
     * Inserts new notices and rewrites changed ones; one eForms id may appear once per batch.
     * New winners and new tenders become `procurement` events in the same transaction.
     */
    async upsert(writes: ProcurementWrite[]): Promise<{ inserted: number; changed: number }> {
      if (!writes.length) return { inserted: 0, changed: 0 };
      const rows = writes.map((w) => ({
        ...recordOf(ALL, w),
        content_hash: contentHash(recordOf(CONTENT, w)),
      }));
      return db.transaction().execute(async (trx) => {
        const events = await noticeEvents(trx, writes);
        const res = await sql<{ inserted: boolean }>`${UPSERT.insert}
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${UPSERT.type})
          ${UPSERT.conflict}`.execute(trx);
        await appendRecordEvents(trx, events);
        const inserted = res.rows.filter((r) => r.inserted).length;
        return { inserted, changed: res.rows.length - inserted };
      });
    },

    /**
     * Sets the outcome of every notice of these procedures from the procedure's notices: a
     * cancellation cancels, else a result with a winner awards, else a result without one closes.
     * Only rows whose outcome changes are written. Returns how many changed.
     */
    async linkProcedures(procedureIds: string[]): Promise<number> {
      if (!procedureIds.length) return 0;
      const res = await sql`
        WITH touched AS (
          SELECT procedure_id,
            bool_or(notice_type = 'cancellation') AS cancelled,
            bool_or(notice_type = 'result' AND jsonb_array_length(winners) > 0) AS awarded,
            bool_or(notice_type = 'result') AS resulted
          FROM procurement_notices WHERE procedure_id = ANY(${procedureIds}::text[]) GROUP BY procedure_id),
        wanted AS (
          SELECT p.id, CASE
              WHEN p.notice_type = 'cancellation' OR t.cancelled THEN 'CANCELLED'
              WHEN p.notice_type = 'result' THEN CASE WHEN jsonb_array_length(p.winners) > 0 THEN 'AWARDED' ELSE 'CLOSED' END
              WHEN t.awarded THEN 'AWARDED'
              WHEN t.resulted THEN 'CLOSED'
            END AS outcome
          FROM procurement_notices p JOIN touched t ON t.procedure_id = p.procedure_id)
        UPDATE procurement_notices n SET outcome = wanted.outcome, synced_at = now()
        FROM wanted WHERE n.id = wanted.id AND n.outcome IS DISTINCT FROM wanted.outcome`.execute(db);
      return Number(res.numAffectedRows ?? 0);
    },

    /** Notices without a procedure id get their outcome from their own type alone. */
    async linkSelf(eformsIds: string[]): Promise<void> {
      if (!eformsIds.length) return;
      await sql`UPDATE procurement_notices SET outcome = CASE
          WHEN notice_type = 'cancellation' THEN 'CANCELLED'
          WHEN notice_type = 'result' THEN CASE WHEN jsonb_array_length(winners) > 0 THEN 'AWARDED' ELSE 'CLOSED' END END,
          synced_at = now()
        WHERE eforms_id = ANY(${eformsIds}::text[]) AND procedure_id IS NULL AND notice_type <> 'competition'
          AND outcome IS NULL`.execute(db);
    },

    /** Whether a notice is stored under this Doffin id or TED publication number. */
    async known(source: 'doffin' | 'ted', id: string): Promise<boolean> {
      const r =
        source === 'doffin'
          ? await sql`SELECT 1 FROM procurement_notices WHERE doffin_id = ${id} LIMIT 1`.execute(db)
          : await sql`SELECT 1 FROM procurement_notices WHERE ted_id = ${id} LIMIT 1`.execute(db);
      return r.rows.length > 0;
    },

    async count(): Promise<number> {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM procurement_notices`.execute(db);
      return r.rows[0].n;
    },

    /** One notice by its public id (Doffin id, TED publication number) or eForms id. */
    async get(noticeId: string): Promise<ProcurementRow | undefined> {
      const r = await sql<ProcurementRow>`SELECT * FROM procurement_notices p
        WHERE p.notice_id = ${noticeId} OR p.doffin_id = ${noticeId} OR p.ted_id = ${noticeId} OR p.eforms_id = ${noticeId}
        ORDER BY p.id LIMIT 1`.execute(db);
      return r.rows[0];
    },

    /** One page in (sort expression, id) order after the keyset position; `now` decides ACTIVE/CLOSED. */
    list(
      f: ProcurementFilters,
      now: Date,
      sort: ProcurementSort,
      order: SortOrder,
      limit: number,
      after?: KeysetPosition,
    ) {
      return keysetPage<ProcurementRow>(db, {
        from: 'procurement_notices p',
        alias: 'p',
        where: conditions(f, now),
        sort: SORTS[sort],
        order,
        limit,
        after,
      });
    },

    /**
     * Each company's open tenders and latest tender as buyer, and its awards as winner: one
     * statement, prepared, as every lookup of a Norwegian company runs it (bench/floor.ts: the
     * lookup's PostgreSQL CPU went from 2.16 to 1.99 ms a request on a loaded machine).
     */
    async forCompanies(orgNumbers: string[], now: Date): Promise<Map<string, CompanyProcurement>> {
      if (!orgNumbers.length) return new Map();
      const r = await sql<{ org: string } & CompanyProcurementColumns>`${sql.raw(PREPARED)}
        SELECT o.org, ${companyProcurementColumns(sql.raw('o.org'), now)}
        FROM unnest(${orgNumbers}::text[]) AS o(org)`.execute(db);
      return new Map(r.rows.map((row) => [row.org, companyProcurementOf(row)]));
    },
  };
}

export type ProcurementRepository = ReturnType<typeof createProcurementRepository>;
