// The one statement behind an uncached lookup: the record's stored fields as JSON text written
// by the database (record-json.ts), the columns its signals and completeness read, all its
// relations and, for Norway, its procurement figures. An uncached lookup spent most of its
// server CPU parsing ~70 columns into objects and serialising them again, and a second round
// trip on the procurement figures (BENCHMARKS.md, "The feed and the uncached lookup against a
// floor server").
import { CompiledQuery, sql, type Kysely } from 'kysely';
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

/** Stand-ins for the three values while the statement is compiled once (distinct from any real one). */
const AT = new Date(Date.UTC(1, 0, 1));
const COUNTRY = '\u0000country';
const ORG_NUMBER = '\u0000orgNumber';

// The lateral sub-select runs only for a Norwegian row: the procurement figures are Norwegian
// records' only (CompanyService's fullRecord).
const statement = (country: string, orgNumber: string, now: Date) => sql<CompanyLookupRow>`${sql.raw(PREPARED)}
  SELECT ${RECORD_JSON_COLUMNS}, c.is_bankrupt, c.is_being_dissolved, c.is_in_forced_dissolution,
    c.is_in_debt_negotiation, c.status, c.is_deleted, c.fetched_at, c.roles_hash,
    ${relationColumns(LOOKUP_RELATIONS)}, pr.active, pr.awarded, pr.tender, pr.award
  FROM companies c
  LEFT JOIN LATERAL (SELECT ${companyProcurementColumns(sql.raw('c.org_number'), now)}
                     WHERE c.country = 'NO') pr ON true
  WHERE c.country = ${country} AND c.org_number = ${orgNumber}`;

export function createCompanyLookupRepository(db: Kysely<Database>) {
  // Compiled once: building the 6 KB text from its fragments on every call, and hashing a new
  // copy of it to find its prepared name, was some 10 % of an uncached lookup's server CPU
  // (V8 profile of bench/floor.ts's lookup phase). Each call puts its values in the stand-ins' places.
  const compiled = statement(COUNTRY, ORG_NUMBER, AT).compile(db);
  const at = AT.toISOString();
  return {
    /** One company by number as a lookup reads it, procurement figures counted at `now`; undefined: not stored. */
    async row(country: string, orgNumber: string, now: Date): Promise<CompanyLookupRow | undefined> {
      const values = compiled.parameters.map((p) =>
        p === COUNTRY ? country : p === ORG_NUMBER ? orgNumber : p === at ? now.toISOString() : p,
      );
      const res = await db.executeQuery<CompanyLookupRow>(CompiledQuery.raw(compiled.sql, values));
      return res.rows[0];
    },
  };
}

export type CompanyLookupRepository = ReturnType<typeof createCompanyLookupRepository>;
