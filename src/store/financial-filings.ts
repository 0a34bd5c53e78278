// The ledger of filings the Finnish and Swedish financials jobs have handled (financial_filings):
// which were stored, which were skipped and why, which named a company the store does not hold.
// A job asks it before fetching a document, so a second run, or a run resumed after a crash,
// fetches none of them again. Also the walk over stored companies the Swedish job pages through
// (its reklamspärr flag is written by store/marketing-protection.ts).
import { sql, type Kysely } from 'kysely';
import type { Db } from './engine/db-type.ts';
import type { Database } from './engine/schema.ts';

export type FilingStatus = 'stored' | 'skipped' | 'unknown';

export interface FilingRow {
  source: string;
  filingId: string;
  country: string;
  orgNumber: string;
  periodTo: string | null;
  status: FilingStatus;
  reason: string | null;
}

export interface SkippedFilings {
  total: number;
  /** The most recent, newest first. */
  latest: { filing: string; orgNumber: string; reason: string; at: string }[];
}

export function createFinancialFilingRepository(db: Kysely<Database>) {
  return {
    /** The ids of `ids` this source has handled before (any status). */
    async handled(source: string, ids: string[]): Promise<Set<string>> {
      if (!ids.length) return new Set();
      const rows = await db
        .selectFrom('financial_filings')
        .select('filing_id')
        .where('source', '=', source)
        .where('filing_id', 'in', ids)
        .execute();
      return new Set(rows.map((r) => r.filing_id));
    },

    /** Records handled filings (a filing handled again takes its new status and reason). */
    async record(rows: FilingRow[], via: Db = db): Promise<void> {
      if (!rows.length) return;
      await via
        .insertInto('financial_filings')
        .values(
          rows.map((r) => ({
            source: r.source,
            filing_id: r.filingId,
            country: r.country,
            org_number: r.orgNumber,
            period_to: r.periodTo,
            status: r.status,
            reason: r.reason,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['source', 'filing_id']).doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            reason: eb.ref('excluded.reason'),
            period_to: eb.ref('excluded.period_to'),
            handled_at: sql`now()`,
          })),
        )
        .execute();
    },

    /** Skipped filings per source: how many, and the latest few with their reasons (health). */
    async skipped(sources: readonly string[], latest = 10): Promise<Record<string, SkippedFilings>> {
      const out: Record<string, SkippedFilings> = {};
      for (const source of sources) {
        const [count, rows] = await Promise.all([
          db
            .selectFrom('financial_filings')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('source', '=', source)
            .where('status', '=', 'skipped')
            .executeTakeFirst(),
          db
            .selectFrom('financial_filings')
            .select(['filing_id', 'org_number', 'reason', 'handled_at'])
            .where('source', '=', source)
            .where('status', '=', 'skipped')
            .orderBy('handled_at', 'desc')
            .orderBy('filing_id')
            .limit(latest)
            .execute(),
        ]);
        const total = Number(count?.n ?? 0);
        if (!total) continue;
        out[source] = {
          total,
          latest: rows.map((r) => ({
            filing: r.filing_id,
            orgNumber: r.org_number,
            reason: r.reason ?? 'unknown',
            at: new Date(r.handled_at as unknown as string).toISOString(),
          })),
        };
      }
      return out;
    },

    /** Which of `orgNumbers` the store holds for `country`. */
    async known(country: string, orgNumbers: string[]): Promise<Set<string>> {
      if (!orgNumbers.length) return new Set();
      const rows = await db
        .selectFrom('companies')
        .select('org_number')
        .where('country', '=', country)
        .where('org_number', 'in', [...new Set(orgNumbers)])
        .execute();
      return new Set(rows.map((r) => r.org_number));
    },

    /** Stored companies of `country` (of `orgForms`, not deleted) after `after` in org-number order. */
    async companiesAfter(country: string, orgForms: readonly string[], after: string | null, limit: number) {
      let q = db
        .selectFrom('companies')
        .select('org_number')
        .where('country', '=', country)
        .where('is_deleted', '=', false)
        .where('org_form_code', 'in', [...orgForms]);
      if (after !== null) q = q.where('org_number', '>', after);
      const rows = await q.orderBy('org_number').limit(limit).execute();
      return rows.map((r) => r.org_number);
    },
  };
}

export type FinancialFilingRepository = ReturnType<typeof createFinancialFilingRepository>;
