// Legal owners of Danish companies (CVR's EJERREGISTER), one row per owner of an investee, the
// share as the band CVR registers it. Replaced per investee whenever its document is synced,
// with the group flags of the companies concerned.
import { sql, type Kysely, type Transaction } from 'kysely';
import { SOURCE } from '../domain/company.ts';
import type { NewEvent } from '../domain/company-events.ts';
import { ownersChangedEvent } from '../domain/record-events.ts';
import { appendEvents } from './events/event-append.ts';
import type { Database } from './engine/schema.ts';

export interface CvrOwnerRow {
  ownerType: string;
  ownerName: string;
  ownerCvr: string | null;
  pctLow: number;
  pctHigh: number;
  votingPctLow: number | null;
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

/**
 * is_in_group for the Danish companies just written and their parents: in a group when it has a
 * parent (set from the owner register at ingest) or is the parent of a stored Danish company.
 * The Norwegian recompute (groups.ts) covers NO only; this one runs per batch, so a parent
 * written after its subsidiary is flagged when its own batch comes. A company that lost its last
 * subsidiary is lowered when it is itself synced again (the weekly full walk touches every one).
 * updated_at moves only where the flag changes, as in the Norwegian recompute.
 */
async function flagGroups(trx: Transaction<Database>, cvrs: string[]): Promise<void> {
  await sql`
    WITH touched AS (
      SELECT unnest(${cvrs}::text[]) AS org_number
      UNION
      SELECT parent_org_number FROM companies
      WHERE country = 'DK' AND org_number = ANY(${cvrs}::text[]) AND parent_org_number IS NOT NULL
    ),
    flags AS (
      SELECT c.id, (c.parent_org_number IS NOT NULL OR EXISTS (
        SELECT 1 FROM companies k WHERE k.country = 'DK' AND k.parent_org_number = c.org_number
      )) AS in_group
      FROM companies c JOIN touched t ON t.org_number = c.org_number
      WHERE c.country = 'DK'
    )
    UPDATE companies c SET is_in_group = f.in_group, updated_at = now()
    FROM flags f WHERE c.id = f.id AND c.is_in_group IS DISTINCT FROM f.in_group`.execute(trx);
}

/** An owner as events name it: name, CVR number of an entity, the band CVR registers. */
type NamedOwner = Pick<CvrOwnerRow, 'ownerName' | 'ownerCvr' | 'pctLow' | 'pctHigh'>;
const namedOwner = (o: NamedOwner) =>
  `${o.ownerName}${o.ownerCvr ? ` (${o.ownerCvr})` : ''}: ${o.pctLow}–${o.pctHigh} %`;
/** Owners in a stable order (largest band first), so a reordered document is no change. */
const namedOwners = (owners: NamedOwner[]) =>
  [...owners].sort((a, b) => b.pctLow - a.pctLow || a.ownerName.localeCompare(b.ownerName)).map(namedOwner);

/** The stored owners of the investees that have any, as events name them. */
async function ownersNamed(trx: Transaction<Database>, cvrs: string[]): Promise<Map<string, string[]>> {
  const rows = await trx
    .selectFrom('cvr_owners')
    .select(['investee_cvr', 'owner_name', 'owner_cvr', 'pct_low', 'pct_high'])
    .where('investee_cvr', 'in', cvrs)
    .execute();
  const byInvestee = new Map<string, NamedOwner[]>();
  for (const r of rows) {
    const list = byInvestee.get(r.investee_cvr) ?? [];
    list.push({
      ownerName: r.owner_name,
      ownerCvr: r.owner_cvr,
      pctLow: Number(r.pct_low),
      pctHigh: Number(r.pct_high),
    });
    byInvestee.set(r.investee_cvr, list);
  }
  return new Map([...byInvestee].map(([cvr, owners]) => [cvr, namedOwners(owners)]));
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
      const cvrs = investees.map((i) => i.cvr);
      await db.transaction().execute(async (trx) => {
        // Events: the owners held before; an investee that had none (a first load) raises none.
        const before = await ownersNamed(trx, cvrs);
        await sql`DELETE FROM cvr_owners WHERE investee_cvr = ANY(${cvrs}::text[])`.execute(trx);
        if (rows.length) await trx.insertInto('cvr_owners').values(rows).execute();
        await flagGroups(trx, cvrs);
        const events = investees
          .filter((i) => before.has(i.cvr))
          .map((i) =>
            ownersChangedEvent(
              { country: 'DK', orgNumber: i.cvr },
              before.get(i.cvr)!,
              namedOwners(i.owners),
              SOURCE.cvr,
            ),
          )
          .filter((e): e is NewEvent => e !== null);
        await appendEvents(trx, events); // last, see events.ts
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
