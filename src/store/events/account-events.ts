// `accounts` events of annual accounts written beside the core: the regnskap sync, a
// live fetch, CVR's XBRL reports. Each set of accounts is a record named by its period and type
// (`accounts.2024-12-31:SELSKAP`); a new set is `accounts_figures_published`, a restated one
// `accounts_figures_corrected` with only the figures that moved. A company that held no accounts before
// (a first load of the register) raises none.
import { sql } from 'kysely';
import type { FinancialInput } from '../../domain/company.ts';
import type { NewEvent } from '../../domain/company-events.ts';
import { recordEvent, type FieldValue } from '../../domain/record-events.ts';
import type { Db } from '../engine/db-type.ts';

// Not `accounts_filed`: that is the register's core field (lastSubmittedAccountsYear), which often
// moves in the same sync as the figures arrive; the two stay distinguishable.
const TYPES = {
  added: 'accounts_figures_published',
  changed: 'accounts_figures_corrected',
  removed: 'accounts_figures_removed',
};
/** The figures an event carries (API names); the same ones the upsert compares, less the source. */
const FIELDS = [
  'periodFrom',
  'currency',
  'revenue',
  'operatingProfit',
  'netResult',
  'equity',
  'totalAssets',
  'totalLiabilities',
  'employees',
] as const;

const keyOf = (id: number, periodTo: string, accountsType: string) => `${id}|${periodTo}|${accountsType}`;
/** The event's figures of a stored row or an incoming set (both name them as the API does). */
const valuesOf = (f: object): Record<string, FieldValue> => {
  const named = f as Record<string, FieldValue | undefined>;
  return Object.fromEntries(FIELDS.map((n) => [n, named[n] ?? null]));
};

/** The events of writing `targets`' accounts, from the stored sets read before the write. */
export async function accountEvents(
  db: Db,
  country: string,
  targets: { id: number; orgNumber: string; financials: FinancialInput[] }[],
): Promise<NewEvent[]> {
  if (!targets.length) return [];
  // bigint figures as float8: compared with the incoming numbers (all well under 2^53).
  const stored = await sql<
    Record<string, FieldValue> & { company_id: number; period_to: string; accounts_type: string }
  >`
    SELECT company_id, period_to::text AS period_to, accounts_type, period_from::text AS "periodFrom", currency,
      revenue::float8 AS revenue, operating_profit::float8 AS "operatingProfit", net_result::float8 AS "netResult",
      equity::float8 AS equity, total_assets::float8 AS "totalAssets", total_liabilities::float8 AS "totalLiabilities",
      average_employees::float8 AS employees
    FROM financials WHERE company_id = ANY(${targets.map((t) => t.id)}::bigint[])`.execute(db);
  const before = new Map(stored.rows.map((r) => [keyOf(Number(r.company_id), r.period_to, r.accounts_type), r]));
  const held = new Set(stored.rows.map((r) => Number(r.company_id)));
  return targets
    .filter((t) => held.has(t.id))
    .flatMap((t) =>
      t.financials.map((f) => {
        const was = before.get(keyOf(t.id, f.periodTo, f.accountsType));
        return recordEvent({
          country,
          orgNumber: t.orgNumber,
          category: 'accounts',
          source: f.source,
          path: `accounts.${f.periodTo}:${f.accountsType}`,
          fields: FIELDS,
          before: was ? valuesOf(was) : null,
          after: valuesOf(f),
          types: TYPES,
        });
      }),
    )
    .filter((e): e is NewEvent => e !== null);
}
