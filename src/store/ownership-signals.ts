// The foreign-held share of Norwegian companies in the latest shareholder register year, for the
// isForeignOwned signal, and the largest legal owner of Danish companies (CVR's owner bands), for
// ownershipConcentrationPct: read only by the lookup and enrich (never by list pages, whose owner
// query stays as lean as it is).
import { sql, type Kysely } from 'kysely';
import { ownershipPct } from '../domain/group-tree.ts';
import type { Database } from './engine/schema.ts';
import { LATEST_SHAREHOLDER_RUN } from './shareholders.ts';

/** The largest owner of a Danish company: the band CVR registers its share in (%). */
export interface OwnerBand {
  pctLow: number;
  pctHigh: number;
}

/** The largest band among each Danish company's legal owners (by lower bound, then upper). */
export async function largestDanishOwnersOf(db: Kysely<Database>, cvrs: string[]): Promise<Map<string, OwnerBand>> {
  const out = new Map<string, OwnerBand>();
  if (!cvrs.length) return out;
  const res = await sql<{ investee_cvr: string; pct_low: number; pct_high: number }>`
    SELECT DISTINCT ON (investee_cvr) investee_cvr, pct_low, pct_high FROM cvr_owners
    WHERE investee_cvr = ANY(${cvrs}::text[])
    ORDER BY investee_cvr, pct_low DESC, pct_high DESC`.execute(db);
  for (const r of res.rows) out.set(r.investee_cvr, { pctLow: Number(r.pct_low), pctHigh: Number(r.pct_high) });
  return out;
}

export interface ForeignShare {
  /** Share (%) held by holders registered outside Norway, all share classes. */
  pct: number;
  year: number;
}

/**
 * A holder is registered abroad when its Landkode is not NO (or the register typed it foreign).
 * The company's total per class is its stated share count, else the sum of the positions, as
 * the owner summary counts it.
 */
export async function foreignSharesOf(db: Kysely<Database>, orgNumbers: string[]): Promise<Map<string, ForeignShare>> {
  const out = new Map<string, ForeignShare>();
  if (!orgNumbers.length) return out;
  const res = await sql<{ org_number: string; foreign_shares: number; total: number; year: number }>`
    WITH r AS (
      SELECT s.* FROM shareholdings s WHERE s.run_id = (${LATEST_SHAREHOLDER_RUN}) AND s.org_number = ANY(${orgNumbers}::text[])
    ),
    class_totals AS (
      SELECT org_number, share_class, COALESCE(NULLIF(max(total_shares), 0), sum(share_count)) AS total,
             sum(share_count) FILTER (WHERE holder_type = 'foreign' OR (country_code IS NOT NULL AND country_code <> 'NO')) AS foreign_shares
      FROM r GROUP BY org_number, share_class
    )
    SELECT org_number, COALESCE(sum(foreign_shares), 0)::float8 AS foreign_shares, sum(total)::float8 AS total,
           (SELECT year FROM shareholder_years ORDER BY year DESC LIMIT 1) AS year
    FROM class_totals GROUP BY org_number`.execute(db);
  for (const r of res.rows) {
    if (!(Number(r.total) > 0)) continue;
    out.set(r.org_number, { pct: ownershipPct(Number(r.foreign_shares), Number(r.total)), year: r.year });
  }
  return out;
}
