// The one statement behind an uncached lookup: the record's stored fields as JSON text written
// by the database (record-json.ts), the columns its signals and completeness read, all its
// relations and, for Norway, its procurement figures. An uncached lookup spent most of its
// server CPU parsing ~70 columns into objects and serialising them again, and a second round
// trip on the procurement figures (BENCHMARKS.md, "The feed and the uncached lookup against a
// floor server").
import { sql, type Kysely } from 'kysely';
import { PREPARED } from './engine/db.ts';
import type { Database } from './engine/schema.ts';
import { relationColumns, type CompanyRow, type RelationOptions } from './company-reads.ts';
import { companyProcurementColumns, type CompanyProcurementColumns } from './procurement.ts';
import { RECORD_JSON_COLUMNS, type RecordJsonRow } from './record-json.ts';

/** The columns the signals and the live completion rule read, beyond the record's basis. */
export type LookupStateColumns = Pick<
  CompanyRow,
  | 'is_bankrupt'
  | 'is_being_dissolved'
  | 'is_in_forced_dissolution'
  | 'is_in_debt_negotiation'
  | 'status'
  | 'is_deleted'
  | 'fetched_at'
  | 'roles_hash'
>;

/** A lookup's row; the procurement columns are null outside Norway. */
export type CompanyLookupRow = RecordJsonRow &
  LookupStateColumns & { [K in keyof CompanyProcurementColumns]: CompanyProcurementColumns[K] | null };

/** The lookup's relations beside its roles (RECORD_JSON_COLUMNS): every year of accounts, sub-units and licences. */
export const LOOKUP_RELATIONS: RelationOptions = { roles: false, subUnits: true, licenses: true };

export function createCompanyLookupRepository(db: Kysely<Database>) {
  return {
    /** One company by number as a lookup reads it, procurement figures counted at `now`; undefined: not stored. */
    async row(country: string, orgNumber: string, now: Date): Promise<CompanyLookupRow | undefined> {
      // The lateral sub-select runs only for a Norwegian row: the procurement figures are
      // Norwegian records' only (CompanyService's fullRecord).
      const res = await sql<CompanyLookupRow>`${sql.raw(PREPARED)}
        SELECT ${RECORD_JSON_COLUMNS}, c.is_bankrupt, c.is_being_dissolved, c.is_in_forced_dissolution,
          c.is_in_debt_negotiation, c.status, c.is_deleted, c.fetched_at, c.roles_hash,
          ${relationColumns(LOOKUP_RELATIONS)}, pr.active, pr.awarded, pr.tender, pr.award
        FROM companies c
        LEFT JOIN LATERAL (SELECT ${companyProcurementColumns(sql.raw('c.org_number'), now)}
                           WHERE c.country = 'NO') pr ON true
        WHERE c.country = ${country} AND c.org_number = ${orgNumber}`.execute(db);
      return res.rows[0];
    },
  };
}

export type CompanyLookupRepository = ReturnType<typeof createCompanyLookupRepository>;
