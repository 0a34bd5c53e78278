// What the demo loader asks the store: whether it is empty, and which of the loaded companies
// fit an industry (the generated inspections and licences go to those).
import { sql, type Kysely } from 'kysely';
import type { Database } from './engine/schema.ts';

export function createDemoDataRepository(db: Kysely<Database>) {
  return {
    async storeIsEmpty(): Promise<boolean> {
      const r = await sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM companies) AS any`.execute(db);
      return !r.rows[0].any;
    },
    /** Live Norwegian companies whose main NACE code starts with one of the prefixes, by number. */
    async companiesInIndustries(prefixes: string[]): Promise<{ orgNumber: string; name: string }[]> {
      const r = await sql<{ orgNumber: string; name: string }>`SELECT org_number AS "orgNumber", name FROM companies
        WHERE country = 'NO' AND NOT is_deleted AND nace_code1 LIKE ANY (${prefixes.map((p) => `${p}%`)}::text[])
        ORDER BY org_number`.execute(db);
      return r.rows;
    },
  };
}

export type DemoDataRepository = ReturnType<typeof createDemoDataRepository>;
