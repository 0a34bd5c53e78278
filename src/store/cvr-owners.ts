// Legal owners of Danish companies (CVR's EJERREGISTER), one row per owner of an investee, the
// share as the band CVR registers it. Replaced per investee whenever its document is synced.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface CvrOwnerRow {
  ownerType: string;
  ownerName: string;
  ownerCvr: string | null;
  pctLow: number;
  pctHigh: number;
  votingPctLow: number | null;
}

export interface CvrOwnerOf extends CvrOwnerRow {
  investeeCvr: string;
}

export interface CvrHoldingRow {
  investeeCvr: string;
  /** From the company store when the investee is there. */
  investeeName: string | null;
  orgFormCode: string | null;
  employeeCount: number | null;
  pctLow: number;
  pctHigh: number;
  votingPctLow: number | null;
}

export function createCvrOwnerRepository(db: Kysely<Database>) {
  return {
    /** Replaces the owners of every investee named (an investee with none gets none). */
    async replace(investees: { cvr: string; owners: CvrOwnerRow[] }[]): Promise<void> {
      if (!investees.length) return;
      const rows = investees.flatMap((i) =>
        i.owners.map((o, n) => ({
          investee_cvr: i.cvr,
          position: n + 1,
          owner_type: o.ownerType,
          owner_name: o.ownerName,
          owner_cvr: o.ownerCvr,
          pct_low: o.pctLow,
          pct_high: o.pctHigh,
          voting_pct_low: o.votingPctLow,
        })),
      );
      await db.transaction().execute(async (trx) => {
        await sql`DELETE FROM cvr_owners WHERE investee_cvr = ANY(${investees.map((i) => i.cvr)}::text[])`.execute(trx);
        if (rows.length) await trx.insertInto('cvr_owners').values(rows).execute();
      });
    },

    async ownersOf(investeeCvr: string): Promise<CvrOwnerRow[]> {
      const rows = await db
        .selectFrom('cvr_owners')
        .selectAll()
        .where('investee_cvr', '=', investeeCvr)
        .orderBy('pct_low', 'desc')
        .orderBy('position')
        .execute();
      return rows.map((r) => ({
        ownerType: r.owner_type,
        ownerName: r.owner_name,
        ownerCvr: r.owner_cvr,
        pctLow: Number(r.pct_low),
        pctHigh: Number(r.pct_high),
        votingPctLow: r.voting_pct_low === null ? null : Number(r.voting_pct_low),
      }));
    },

    /** What a Danish company owns, largest band first (bounded by `limit`). */
    async holdingsOf(ownerCvr: string, limit = 500): Promise<CvrHoldingRow[]> {
      const rows = await sql<{
        investee_cvr: string;
        name: string | null;
        org_form_code: string | null;
        employee_count: number | null;
        pct_low: number;
        pct_high: number;
        voting_pct_low: number | null;
      }>`
        SELECT o.investee_cvr, c.name, c.org_form_code, c.employee_count, o.pct_low, o.pct_high, o.voting_pct_low
        FROM cvr_owners o LEFT JOIN companies c ON c.country = 'DK' AND c.org_number = o.investee_cvr
        WHERE o.owner_cvr = ${ownerCvr}
        ORDER BY o.pct_low DESC, o.investee_cvr LIMIT ${limit}`.execute(db);
      return rows.rows.map((r) => ({
        investeeCvr: r.investee_cvr,
        investeeName: r.name,
        orgFormCode: r.org_form_code,
        employeeCount: r.employee_count === null ? null : Number(r.employee_count),
        pctLow: Number(r.pct_low),
        pctHigh: Number(r.pct_high),
        votingPctLow: r.voting_pct_low === null ? null : Number(r.voting_pct_low),
      }));
    },
  };
}

export type CvrOwnerRepository = ReturnType<typeof createCvrOwnerRepository>;
