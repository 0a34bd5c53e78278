// Mattilsynet inspections (smilefjes): full-file upsert on the upstream tilsynid with a content
// hash, removal of rows a full file no longer holds, and the keyset-paginated list behind
// GET /api/inspections (an index for every filter and sort, migration 0010).
import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { withoutStatementTimeout } from './engine/bulk-statement.ts';
import { EVENT_SOURCE, type RecordChange } from '../domain/record-events.ts';
import { appendRecordEvents, storedRecords, type RecordValues } from './events/record-events.ts';
import { hashedUpsert, type Column, type UpsertResult } from './engine/hashed-upsert.ts';
import { keysetPage, type KeysetPosition, type SortOrder, type SortSpec } from './engine/keyset.ts';
import type { Database, InspectionsTable } from './engine/schema.ts';
import type { InspectionFilters as ContractFilters, INSPECTION_SORTS } from '../contract/inspections.ts';

export type { KeysetPosition, SortOrder };

export type InspectionRow = Selectable<InspectionsTable>;
export type InspectionSort = (typeof INSPECTION_SORTS)[number];

/** One inspection as stored (the parser's record plus the derived municipality and office). */
export interface InspectionWrite {
  upstreamId: string;
  venueId: string | null;
  orgNumber: string | null;
  name: string;
  address: string | null;
  postnr: string | null;
  poststed: string | null;
  municipalityNo: string | null;
  office: string | null;
  caseRef: string | null;
  status: string | null;
  date: string; // YYYY-MM-DD
  totalRating: number;
  inspectionType: string | null;
  themes: unknown[];
}

/** The filters of GET /api/inspections, as its contract declares them (days YYYY-MM-DD, inclusive). */
export type InspectionFilters = ContractFilters;

// Each sort: the indexed expression and the SQL type its keyset value is cast back to.
// Names are sorted case-insensitively: upstream writes some venues in capitals, some not.
const SORTS: Record<InspectionSort, SortSpec> = {
  date: { expr: 'i.date', type: 'date' },
  totalRating: { expr: 'i.total_rating', type: 'integer' },
  name: { expr: 'lower(i.name)', type: 'text' },
};

const COLUMNS: Column<InspectionWrite>[] = [
  ['upstream_id', 'text', (w) => w.upstreamId],
  ['venue_id', 'text', (w) => w.venueId],
  ['org_number', 'text', (w) => w.orgNumber],
  ['name', 'text', (w) => w.name],
  ['address', 'text', (w) => w.address],
  ['postnr', 'text', (w) => w.postnr],
  ['poststed', 'text', (w) => w.poststed],
  ['municipality_no', 'text', (w) => w.municipalityNo],
  ['office', 'text', (w) => w.office],
  ['case_ref', 'text', (w) => w.caseRef],
  ['status', 'text', (w) => w.status],
  ['date', 'date', (w) => w.date],
  ['total_rating', 'integer', (w) => w.totalRating],
  ['inspection_type', 'text', (w) => w.inspectionType],
  ['themes', 'jsonb', (w) => w.themes],
];
const upsertRows = hashedUpsert<InspectionWrite>('inspections', COLUMNS, ['upstream_id']);

// What an `inspection` event shows of a visit (named by its tilsynid). An
// inspection the register drops (it keeps a few years) raises none: nothing about the company changed.
const INSPECTION_FIELDS = ['name', 'date', 'totalRating', 'status', 'inspectionType'] as const;
const INSPECTION_SELECT = `i.org_number AS "orgNumber", i.name, i.date::text AS date, i.total_rating AS "totalRating",
  i.status, i.inspection_type AS "inspectionType"`;

function inspectionChange(key: string, before: RecordValues | null, after: RecordValues): RecordChange {
  return {
    country: 'NO',
    orgNumber: after.orgNumber ?? '',
    category: 'inspection',
    source: EVENT_SOURCE.inspections,
    path: `inspections.${key}`,
    fields: INSPECTION_FIELDS,
    before,
    after,
    types: { added: 'inspection_recorded', changed: 'inspection_changed', removed: 'inspection_removed' },
  };
}

function conditions(f: InspectionFilters): RawBuilder<SqlBool>[] {
  const w: RawBuilder<SqlBool>[] = [];
  if (f.orgNumber !== undefined) w.push(sql`i.org_number = ${f.orgNumber}`);
  if (f.minRating !== undefined) w.push(sql`i.total_rating >= ${f.minRating}`);
  if (f.maxRating !== undefined) w.push(sql`i.total_rating <= ${f.maxRating}`);
  if (f.postnr !== undefined) w.push(sql`i.postnr = ${f.postnr}`);
  if (f.fromDate !== undefined) w.push(sql`i.date >= ${f.fromDate}::date`);
  if (f.toDate !== undefined) w.push(sql`i.date <= ${f.toDate}::date`);
  return w;
}

export function createInspectionRepository(db: Kysely<Database>) {
  return {
    /**
     * Inserts new inspections and rewrites changed ones; an unchanged row is not written. Each
     * new or changed one becomes an `inspection` event in the same transaction, except the new
     * ones of a first load (`firstLoad`: the store held no inspection when the run began).
     */
    async upsert(writes: InspectionWrite[], opts: { firstLoad?: boolean } = {}): Promise<UpsertResult> {
      if (!writes.length) return { inserted: 0, changed: 0 };
      return db.transaction().execute(async (trx) => {
        const ids = writes.map((w) => w.upstreamId);
        const stored = opts.firstLoad
          ? new Map<string, RecordValues>()
          : await storedRecords(
              trx,
              'inspections i',
              'i.upstream_id',
              INSPECTION_SELECT,
              sql`i.upstream_id = ANY(${ids}::text[])`,
            );
        const result = await upsertRows(trx, writes);
        const changes = writes
          .filter((w) => !opts.firstLoad || stored.has(w.upstreamId))
          .map((w) => inspectionChange(w.upstreamId, stored.get(w.upstreamId) ?? null, w as unknown as RecordValues));
        await appendRecordEvents(trx, changes);
        return result;
      });
    },

    async count(): Promise<number> {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM inspections`.execute(db);
      return r.rows[0].n;
    },

    /** Deletes the inspections a full file did not hold (their tilsynid is not in sync_seen). */
    async removeAbsent(runId: number): Promise<number> {
      const r = await withoutStatementTimeout(
        db,
        (trx) =>
          sql`DELETE FROM inspections i
        WHERE NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.run_id = ${runId} AND s.key = i.upstream_id)`.execute(trx),
        { analyzeFirst: ['sync_seen', 'inspections'] },
      );
      return Number(r.numAffectedRows ?? 0);
    },

    /** One page in (sort expression, id) order, after the given keyset position. */
    list(filters: InspectionFilters, sort: InspectionSort, order: SortOrder, limit: number, after?: KeysetPosition) {
      return keysetPage<InspectionRow>(db, {
        from: 'inspections i',
        alias: 'i',
        where: conditions(filters),
        sort: SORTS[sort],
        order,
        limit,
        after,
      });
    },
  };
}

export type InspectionRepository = ReturnType<typeof createInspectionRepository>;
