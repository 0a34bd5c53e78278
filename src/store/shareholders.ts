// Aksjonærregisteret rows. An import writes its rows tagged with its run id (invisible), then
// publish() points the year at that run and recomputes derived group parents in one
// transaction: readers see the old year or the new one, never a mix, and a failed import is
// simply discarded. Every read joins shareholder_years to see published rows only.
import { sql, type Kysely } from 'kysely';
import { effectiveTotal, holdsMajority, ownershipPct } from '../domain/group-tree.ts';
import { recomputeGroups, type RecomputeResult } from './groups.ts';
import { appendOwnershipEvents } from './events/ownership-events.ts';
import { createOwnershipChainRepository } from './ownership-chains.ts';
import type { Database } from './engine/schema.ts';

/**
 * The published runs (one per year; a run id belongs to one year), as an array: with
 * `run_id = ANY(…)` the (run_id, …) indexes are used whatever the planner knows of the tables
 * (the embedded engine never analyses them by itself).
 */
const VISIBLE = sql`ARRAY(SELECT run_id FROM shareholder_years)`;
/** The run of the latest published year, as a sub-select. */
export const LATEST_SHAREHOLDER_RUN = sql`SELECT run_id FROM shareholder_years ORDER BY year DESC LIMIT 1`;

/** Rows removed per statement when a run is discarded (keeps the embedded engine responsive). */
const DELETE_CHUNK = 20_000;

/** One holder's position in one share class, as the register states it. */
interface HolderPosition {
  shareClass: string;
  holderType: 'company' | 'person' | 'foreign';
  holderName: string | null;
  holderOrgNumber: string | null;
  holderBirthYear: number | null;
  postalCode: string | null;
  postalPlace: string | null;
  countryCode: string | null;
  shareCount: number;
}

/** One parsed line of the register (the shape of the aksjonaer parser's rows). */
interface ShareholdingInput extends HolderPosition {
  orgNumber: string;
  companyName: string;
  totalSharesInCompany: number | null;
}

export interface PositionRow extends HolderPosition {
  year: number;
  /** The class total, or the sum of the class's stored positions when the file gave none. */
  totalShares: number;
}

interface HoldingRow {
  orgNumber: string;
  /** From the company store when the company is there, else as the file names it. */
  companyName: string;
  orgFormCode: string | null;
  employeeCount: number | null;
  shareClass: string;
  shareCount: number;
  totalShares: number;
  year: number;
}

interface Owner {
  name: string | null;
  /** Null for persons and foreign holders. */
  orgNumber: string | null;
  ownershipPct: number;
  year: number;
}

export interface OwnerSummary {
  majorityOwner: Owner | null;
  largestShareholder: Owner | null;
}

interface PublishResult extends RecomputeResult {
  /** The run whose rows the year showed before (now unreferenced; discard it). */
  previousRunId: number | null;
}

/** Column arrays for one INSERT … SELECT FROM unnest(…) (faster than jsonb_to_recordset here). */
function columns(rows: ShareholdingInput[]) {
  const col = <T>(get: (r: ShareholdingInput) => T) => rows.map(get);
  // Data minimisation: a person keeps name, birth year and country only (no address).
  const entity = (r: ShareholdingInput, v: string | null) => (r.holderType === 'person' ? null : v);
  return {
    orgNumber: col((r) => r.orgNumber),
    companyName: col((r) => r.companyName),
    shareClass: col((r) => r.shareClass),
    holderType: col((r) => r.holderType),
    holderName: col((r) => r.holderName),
    holderOrgNumber: col((r) => r.holderOrgNumber),
    holderBirthYear: col((r) => (r.holderType === 'person' ? r.holderBirthYear : null)),
    postalCode: col((r) => entity(r, r.postalCode)),
    postalPlace: col((r) => entity(r, r.postalPlace)),
    countryCode: col((r) => r.countryCode),
    shareCount: col((r) => r.shareCount),
    totalShares: col((r) => r.totalSharesInCompany),
  };
}

export function createShareholderRepository(db: Kysely<Database>) {
  async function discardRun(runId: number): Promise<number> {
    let removed = 0;
    for (;;) {
      const r = await sql`DELETE FROM shareholdings WHERE ctid = ANY(ARRAY(
          SELECT ctid FROM shareholdings WHERE run_id = ${runId} LIMIT ${DELETE_CHUNK}))`.execute(db);
      const n = Number(r.numAffectedRows ?? 0);
      removed += n;
      if (n < DELETE_CHUNK) return removed;
    }
  }

  return {
    discardRun,

    /** Rows that earlier, killed or failed runs of the same source left behind. */
    async discardLeftovers(runId: number): Promise<number> {
      const runs = await sql<{ id: number }>`
        SELECT o.id FROM sync_runs o JOIN sync_runs cur ON cur.id = ${runId}
        WHERE o.source = cur.source AND o.id <> cur.id
          AND NOT EXISTS (SELECT 1 FROM shareholder_years y WHERE y.run_id = o.id)
          AND EXISTS (SELECT 1 FROM shareholdings s WHERE s.run_id = o.id)`.execute(db);
      let removed = 0;
      for (const { id } of runs.rows) removed += await discardRun(id);
      return removed;
    },

    /** Writes one batch of parsed rows for `runId` (not visible until publish). */
    async stage(runId: number, year: number, rows: ShareholdingInput[]): Promise<void> {
      if (!rows.length) return;
      const c = columns(rows);
      await sql`
        INSERT INTO shareholdings (run_id, year, org_number, company_name, share_class, holder_type, holder_name,
          holder_org_number, holder_birth_year, postal_code, postal_place, country_code, share_count, total_shares)
        SELECT ${runId}, ${year}, * FROM unnest(${c.orgNumber}::text[], ${c.companyName}::text[], ${c.shareClass}::text[],
          ${c.holderType}::text[], ${c.holderName}::text[], ${c.holderOrgNumber}::text[], ${c.holderBirthYear}::integer[],
          ${c.postalCode}::text[], ${c.postalPlace}::text[], ${c.countryCode}::text[], ${c.shareCount}::bigint[], ${c.totalShares}::bigint[])`.execute(
        db,
      );
    },

    /** Makes `runId` the visible import of `year` and recomputes group parents, atomically. */
    async publish(runId: number, year: number, rowCount: number): Promise<PublishResult> {
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('shareholder_years')
          .select('run_id')
          .where('year', '=', year)
          .forUpdate()
          .executeTakeFirst();
        await sql`INSERT INTO shareholder_years (year, run_id, row_count) VALUES (${year}, ${runId}, ${rowCount})
          ON CONFLICT (year) DO UPDATE SET run_id = EXCLUDED.run_id, row_count = EXCLUDED.row_count, imported_at = now()`.execute(
          trx,
        );
        const groups = await recomputeGroups(trx);
        const chains = createOwnershipChainRepository(trx);
        await appendOwnershipEvents(trx, { year, oldRun: before?.run_id ?? null, newRun: runId }, (pairs) =>
          chains.norwegianHoldersOfRuns(pairs, true),
        ); // last in the transaction
        return { previousRunId: before && before.run_id !== runId ? before.run_id : null, ...groups };
      });
    },

    /** Published years, newest first. */
    async years(): Promise<number[]> {
      const rows = await db.selectFrom('shareholder_years').select('year').orderBy('year', 'desc').execute();
      return rows.map((r) => r.year);
    },

    /** Years with rows for the company, newest first. */
    async yearsOf(orgNumber: string): Promise<number[]> {
      const res = await sql<{ year: number }>`
        SELECT DISTINCT s.year FROM shareholdings s
        WHERE s.run_id = ANY(${VISIBLE}) AND s.org_number = ${orgNumber} ORDER BY s.year DESC`.execute(db);
      return res.rows.map((r) => r.year);
    },

    /**
     * Positions in one company. The fallback total (sum of the class's positions) is taken
     * over every row, persons included, even when person rows are not returned.
     */
    async positions(orgNumber: string, opts: { year?: number; includePersons: boolean }): Promise<PositionRow[]> {
      const res = await sql<{
        year: number;
        share_class: string;
        holder_type: PositionRow['holderType'];
        holder_name: string | null;
        holder_org_number: string | null;
        holder_birth_year: number | null;
        postal_code: string | null;
        postal_place: string | null;
        country_code: string | null;
        share_count: number;
        total_shares: number | null;
        class_positions: number;
      }>`
        SELECT * FROM (
          SELECT s.year, s.share_class, s.holder_type, s.holder_name, s.holder_org_number, s.holder_birth_year, s.postal_code,
                 s.postal_place, s.country_code, s.share_count, s.total_shares,
                 sum(s.share_count) OVER (PARTITION BY s.year, s.share_class) AS class_positions
          FROM shareholdings s
          WHERE s.run_id = ANY(${VISIBLE}) AND s.org_number = ${orgNumber} ${opts.year === undefined ? sql`` : sql`AND s.year = ${opts.year}`}
        ) t
        WHERE ${opts.includePersons ? sql`true` : sql`t.holder_type <> 'person'`}
        ORDER BY t.year DESC, t.share_class, t.share_count DESC, t.holder_name NULLS LAST, t.holder_org_number`.execute(
        db,
      );
      return res.rows.map((r) => ({
        year: r.year,
        shareClass: r.share_class,
        holderType: r.holder_type,
        holderName: r.holder_name,
        holderOrgNumber: r.holder_org_number,
        holderBirthYear: r.holder_birth_year,
        postalCode: r.postal_code,
        postalPlace: r.postal_place,
        countryCode: r.country_code,
        shareCount: r.share_count,
        totalShares: effectiveTotal(r.total_shares, r.class_positions),
      }));
    },

    /** What one (Norwegian) company holds; the fallback total is computed only where needed. */
    async holdings(holderOrgNumber: string, opts: { year?: number }): Promise<HoldingRow[]> {
      const res = await sql<{
        org_number: string;
        company_name: string;
        org_form_code: string | null;
        employee_count: number | null;
        share_class: string;
        share_count: number;
        total_shares: number | null;
        class_positions: number | null;
        year: number;
      }>`
        SELECT h.org_number, COALESCE(c.name, h.company_name) AS company_name, c.org_form_code, c.employee_count,
               h.share_class, h.share_count, h.total_shares, h.year,
               CASE WHEN COALESCE(h.total_shares, 0) = 0 THEN (
                 SELECT sum(s2.share_count) FROM shareholdings s2
                 WHERE s2.org_number = h.org_number AND s2.year = h.year AND s2.run_id = h.run_id AND s2.share_class = h.share_class)
               END AS class_positions
        FROM shareholdings h
        LEFT JOIN companies c ON c.country = 'NO' AND c.org_number = h.org_number
        WHERE h.run_id = ANY(${VISIBLE}) AND h.holder_org_number = ${holderOrgNumber} ${opts.year === undefined ? sql`` : sql`AND h.year = ${opts.year}`}
        ORDER BY h.year DESC, h.org_number, h.share_class`.execute(db);
      return res.rows.map((r) => ({
        orgNumber: r.org_number,
        companyName: r.company_name,
        orgFormCode: r.org_form_code,
        employeeCount: r.employee_count,
        shareClass: r.share_class,
        shareCount: r.share_count,
        totalShares: effectiveTotal(r.total_shares, r.class_positions ?? r.share_count),
        year: r.year,
      }));
    },

    /**
     * Majority owner and largest shareholder of each company in the latest published year, in
     * one query for the whole batch. A holder's share is summed over share classes and divided
     * by all the company's shares. Persons are named only (no birth year).
     */
    async ownersOf(orgNumbers: string[]): Promise<Map<string, OwnerSummary>> {
      const out = new Map<string, OwnerSummary>();
      if (!orgNumbers.length) return out;
      const res = await sql<{
        org_number: string;
        holder_name: string | null;
        holder_org_number: string | null;
        shares: number;
        total: number;
        year: number;
      }>`
        WITH r AS (
          SELECT s.* FROM shareholdings s WHERE s.run_id = (${LATEST_SHAREHOLDER_RUN}) AND s.org_number = ANY(${orgNumbers}::text[])
        ),
        class_totals AS (
          SELECT org_number, share_class, COALESCE(NULLIF(max(total_shares), 0), sum(share_count)) AS total
          FROM r GROUP BY org_number, share_class
        ),
        totals AS (SELECT org_number, sum(total) AS total FROM class_totals GROUP BY org_number),
        holders AS (
          SELECT org_number, holder_org_number, max(holder_name) AS holder_name, sum(share_count) AS shares
          FROM r
          GROUP BY org_number, holder_type, holder_org_number,
                   CASE WHEN holder_org_number IS NULL THEN holder_name END,
                   CASE WHEN holder_org_number IS NULL THEN holder_birth_year END
        )
        SELECT DISTINCT ON (h.org_number) h.org_number, h.holder_name, h.holder_org_number, h.shares, t.total,
               (SELECT year FROM shareholder_years ORDER BY year DESC LIMIT 1) AS year
        FROM holders h JOIN totals t ON t.org_number = h.org_number
        ORDER BY h.org_number, h.shares DESC, h.holder_org_number NULLS LAST, h.holder_name`.execute(db);
      for (const r of res.rows) {
        const owner: Owner = {
          name: r.holder_name,
          orgNumber: r.holder_org_number,
          ownershipPct: ownershipPct(r.shares, r.total),
          year: r.year,
        };
        out.set(r.org_number, {
          largestShareholder: owner,
          majorityOwner: holdsMajority(r.shares, r.total) ? owner : null,
        });
      }
      return out;
    },
  };
}

export type ShareholderRepository = ReturnType<typeof createShareholderRepository>;
