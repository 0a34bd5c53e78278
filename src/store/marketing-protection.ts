// The marketing-protection flag of companies (DK: CVR's reklamebeskyttet; SE: Bolagsverket's
// reklamspärr, written by the bolagsverket-financials job). Set apart from the core upsert, so a
// source that does not carry the flag never clears it; a change bumps updated_at and evicts the
// record from the caches like any other write.
import { sql, type Kysely } from 'kysely';
import { companyKey, type CompanyChangeSignal } from './company-changes.ts';
import type { Database } from './engine/schema.ts';

export function createMarketingProtectionRepository(db: Kysely<Database>, changes?: CompanyChangeSignal) {
  return {
    /** Sets the known flags (null: the source did not say, left as stored); answers how many changed. */
    async set(country: string, flags: { orgNumber: string; value: boolean | null }[]): Promise<number> {
      const known = flags.filter((f) => f.value !== null);
      if (!known.length) return 0;
      const res = await sql<{ org_number: string }>`
        UPDATE companies c SET marketing_protected = x.value, updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(known)}::jsonb) AS x("orgNumber" text, value boolean)
        WHERE c.country = ${country} AND c.org_number = x."orgNumber"
          AND c.marketing_protected IS DISTINCT FROM x.value
        RETURNING c.org_number`.execute(db);
      if (res.rows.length) changes?.changed({ keys: res.rows.map((r) => companyKey(country, r.org_number)) });
      return res.rows.length;
    },
  };
}

export type MarketingProtectionRepository = ReturnType<typeof createMarketingProtectionRepository>;
