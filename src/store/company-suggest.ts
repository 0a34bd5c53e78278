// Name suggestions as a user types (the reconciliation service's entity suggest): live companies
// whose normalised name starts with what was typed, so "nordkapp ind" finds "nordkapp industri
// as". A LIKE 'x%' under the C collation is a range on the name-sorted btree (companies_name_live,
// migration 0012), read in index order, so the LIMIT ends the walk: never a scan of the table.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './engine/schema.ts';

export interface SuggestRow {
  country: string;
  org_number: string;
  name: string;
  business_address_city: string | null;
  business_address_municipality: string | null;
  status: string | null;
  is_bankrupt: boolean;
  is_being_dissolved: boolean;
  is_in_forced_dissolution: boolean;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The statement for `prefix` (already normalised as name_norm is: NFC, lowercased). Exported so
 * a test can EXPLAIN exactly what runs.
 */
export function namePrefixQuery(prefix: string, limit: number): RawBuilder<SuggestRow> {
  return sql<SuggestRow>`SELECT c.country, c.org_number, c.name, c.business_address_city,
      c.business_address_municipality, c.status, c.is_bankrupt, c.is_being_dissolved, c.is_in_forced_dissolution
    FROM companies c
    WHERE NOT c.is_deleted AND c.name_norm COLLATE "C" LIKE ${likeEscape(prefix) + '%'}
    ORDER BY c.name_norm COLLATE "C", c.id
    LIMIT ${limit}::integer`;
}

export function createCompanySuggestRepository(db: Kysely<Database>) {
  return {
    /** Live companies whose name starts with `prefix` (normalised), in name order. */
    async byNamePrefix(prefix: string, limit: number): Promise<SuggestRow[]> {
      if (!prefix) return [];
      return (await namePrefixQuery(prefix, limit).execute(db)).rows;
    },
  };
}

export type CompanySuggestRepository = ReturnType<typeof createCompanySuggestRepository>;
