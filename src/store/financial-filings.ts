// The ledger of filings the Finnish and Swedish financials jobs have handled (financial_filings):
// which were stored, which were skipped and why, which named a company the store does not hold.
// A job asks it before fetching a document, so a second run, or a run resumed after a crash,
// fetches none of them again. Also the walk over stored companies the Swedish job pages through,
// and Bolagsverket's reklamspärr flag on the company row.
import { sql, type Kysely } from 'kysely';
import { companyKey, type CompanyChangeSignal } from './company-changes.ts';
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

export function createFinancialFilingRepository(db: Kysely<Database>, changes?: CompanyChangeSignal) {
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

    /**
     * Sets the reklamspärr flag of stored companies; a company whose flag moves gets a new
     * updated_at (its record changed). Returns how many moved.
     */
    async setMarketingProtected(country: string, flags: { orgNumber: string; value: boolean | null }[]) {
      const known = flags.filter((f) => f.value !== null);
      if (!known.length) return 0;
      const res = await sql<{
        org_number: string;
      }>`UPDATE companies c SET marketing_protected = x.value, updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(known)}::jsonb) AS x("orgNumber" text, value boolean)
        WHERE c.country = ${country} AND c.org_number = x."orgNumber"
          AND c.marketing_protected IS DISTINCT FROM x.value
        RETURNING c.org_number`.execute(db);
      if (res.rows.length) changes?.changed({ keys: res.rows.map((r) => companyKey(country, r.org_number)) });
      return res.rows.length;
    },
  };
}

export type FinancialFilingRepository = ReturnType<typeof createFinancialFilingRepository>;
