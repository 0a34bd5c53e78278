// Diagnostic counts for the health endpoint.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../engine/schema.ts';

interface RecordCounts {
  companies: number;
  financials: number;
  roles: number;
  inspections: number;
  licenses: number;
  procurementNotices: number;
}

export function createHealthRepository(db: Kysely<Database>) {
  return {
    async recordCounts(): Promise<RecordCounts> {
      const res = await sql<RecordCounts>`SELECT
        (SELECT count(*) FROM companies)::int AS companies,
        (SELECT count(*) FROM financials)::int AS financials,
        (SELECT count(*) FROM roles)::int AS roles,
        (SELECT count(*) FROM inspections)::int AS inspections,
        (SELECT count(*) FROM licenses)::int AS licenses,
        (SELECT count(*) FROM procurement_notices)::int AS "procurementNotices"`.execute(db);
      return res.rows[0];
    },
  };
}
