// Company search: keyset pagination on (sort expression, id), an index for every filter and sort
// (migration 0005), so page 50 costs what page 1 costs. The change feed's page is company-feed.ts.
// A page is read as typed rows (search) or, for the list route, as records' JSON text with their
// relations in the same statement (searchJson, record-json.ts).
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { CompanyRow, RelationOptions } from './company-reads.ts';
import { keysetPage, type KeysetPosition, type KeysetWalk, type SortOrder, type SortSpec } from './engine/keyset.ts';
import { recordJsonPage, type RecordJsonRow } from './record-json.ts';
import { createCompanyDomainRepository, webDomainCondition } from './company-domains.ts';

export type { DomainCandidateRow, DomainProbe } from './company-domains.ts';
import type { Database } from './engine/schema.ts';
import type { CompanySearchFilters, SEARCH_SORTS } from '../contract/company-search.ts';

/** The filters of GET /api/companies, as its contract declares them. */
export type SearchFilters = CompanySearchFilters;

export type SortKey = (typeof SEARCH_SORTS)[number];
export type { KeysetPosition, SortOrder };

// Each sort: the indexed expression, the SQL type its keyset value is cast back to.
export const SORTS: Record<SortKey, SortSpec> = {
  name: { expr: 'c.name_norm COLLATE "C"', type: 'text' },
  employeeCount: { expr: 'COALESCE(c.employee_count, -1)', type: 'integer' },
  foundingDate: { expr: "COALESCE(c.founding_date, DATE '0001-01-01')", type: 'date' },
  updatedAt: { expr: 'c.updated_at', type: 'timestamptz' },
};

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The query's WHERE clauses, one per given filter. */
function conditions(f: SearchFilters): RawBuilder<SqlBool>[] {
  const w: RawBuilder<SqlBool>[] = [];
  if (f.country) w.push(sql`c.country = ${f.country}`);
  if (!f.includeDeleted) w.push(sql`NOT c.is_deleted`);
  if (f.q !== undefined) w.push(nameCondition(f.q));
  if (f.nace) w.push(sql`c.nace_code1 COLLATE "C" LIKE ${likeEscape(f.nace) + '%'}`);
  if (f.orgForm) w.push(sql`c.org_form_code = ${f.orgForm}`);
  // Norwegian numbering: Finnish municipality codes share the column (398 Lahti is not county 39).
  if (f.municipality) w.push(sql`c.business_address_muni_no = ${f.municipality} AND c.country = 'NO'`);
  if (f.county) w.push(sql`left(c.business_address_muni_no, 2) = ${f.county} AND c.country = 'NO'`);
  // On the sort expression, so the employees sort index serves the bounds (unknown = -1 is
  // below every bound, as "unknown" should be).
  // employee_count is an integer column: a bound beyond its range (1e40 is a valid JSON-schema
  // integer) made the query fail with 500; clamped, it selects the same rows.
  if (f.minEmployees !== undefined)
    w.push(sql`COALESCE(c.employee_count, -1) >= ${Math.min(f.minEmployees, INT4_MAX)}`);
  if (f.maxEmployees !== undefined)
    w.push(sql`COALESCE(c.employee_count, -1) BETWEEN 0 AND ${Math.min(f.maxEmployees, INT4_MAX)}`);
  // latest_revenue is a bigint: a fractional or huge bound bound as-is made PostgreSQL fail the
  // query (500, found by the reliability fuzzer); on whole numbers ceil/floor mean the same.
  if (f.minRevenue !== undefined)
    w.push(sql`c.latest_revenue >= ${wholeBound(Math.ceil(f.minRevenue))} AND c.latest_revenue IS NOT NULL`);
  if (f.maxRevenue !== undefined)
    w.push(sql`c.latest_revenue <= ${wholeBound(Math.floor(f.maxRevenue))} AND c.latest_revenue IS NOT NULL`);
  if (f.isBankrupt !== undefined) w.push(sql`c.is_bankrupt = ${f.isBankrupt}`);
  if (f.marketingProtected !== undefined)
    w.push(f.marketingProtected ? sql`c.marketing_protected IS TRUE` : sql`c.marketing_protected IS NOT TRUE`);
  if (f.isInGroup !== undefined) w.push(sql`c.is_in_group = ${f.isInGroup}`);
  if (f.hasParent !== undefined)
    w.push(f.hasParent ? sql`c.parent_org_number IS NOT NULL` : sql`c.parent_org_number IS NULL`);
  if (f.hasTechnology)
    w.push(sql`c.technology_names @> ARRAY[${f.hasTechnology}]::text[] AND c.technology_names <> '{}'`);
  if (f.hasAnyAdPixel !== undefined) w.push(sql`c.has_ad_pixel = ${f.hasAnyAdPixel}`);
  // A registrable domain (the service reduces the query's URL or host): the web-domains index.
  if (f.domain) w.push(webDomainCondition(f.domain));
  return w;
}

/**
 * 3+ characters: substring via the trigram index; 1–2 characters cannot use trigrams, so they
 * match name prefixes through the btree (text_pattern_ops) index instead of a scan.
 */
function nameCondition(q: string): RawBuilder<SqlBool> {
  return q.length >= 3
    ? sql`c.name_norm LIKE ${'%' + likeEscape(q) + '%'}`
    : sql`c.name_norm COLLATE "C" LIKE ${likeEscape(q) + '%'}`;
}

/** Name-order entries a substring query checks index-only before it asks the trigram index. */
const NAME_WALK_ROWS = 10_000;
/** The filters the live name indexes answer without the heap (migrations 0036, 0037). */
const WALKED_FILTERS = new Set(['q', 'country', 'includeDeleted']);

/**
 * A name substring in name order, alone or within a country: a page is looked for among the first
 * NAME_WALK_ROWS names (keyset.ts KeysetWalk). A common word's page is found there in a few
 * milliseconds, where the trigram plan read and sorted every match (`q=bakeri` on 6.6 M: 63 102
 * rows, 331 ms); a rare one falls through to the trigram index, which is quick for few matches.
 */
function nameWalk(f: SearchFilters, sort: SortKey): KeysetWalk | undefined {
  if (sort !== 'name' || f.q === undefined || f.q.length < 3 || f.includeDeleted) return undefined;
  const others = Object.entries(f).some(([k, v]) => v !== undefined && !WALKED_FILTERS.has(k));
  return others ? undefined : { columns: 'c.name_norm', filter: nameCondition(f.q), rows: NAME_WALK_ROWS };
}

/** The page query's filters and, where one applies, its walk. */
function pageFilters(f: SearchFilters, sort: SortKey): { where: RawBuilder<SqlBool>[]; walk?: KeysetWalk } {
  const walk = nameWalk(f, sort);
  return walk ? { where: conditions({ ...f, q: undefined }), walk } : { where: conditions(f) };
}

export interface SearchPage {
  rows: CompanyRow[];
  /** Keyset position of each row, for the next cursor. */
  positions: KeysetPosition[];
}

export function createCompanySearchRepository(db: Kysely<Database>) {
  return {
    /** Match candidates by domain (POST /api/companies/match), through the same index. */
    domainCandidates: createCompanyDomainRepository(db).candidates,

    search(
      filters: SearchFilters,
      sort: SortKey,
      order: SortOrder,
      limit: number,
      after?: KeysetPosition,
    ): Promise<SearchPage> {
      return keysetPage<CompanyRow>(db, {
        from: 'companies c',
        alias: 'c',
        ...pageFilters(filters, sort),
        sort: SORTS[sort],
        order,
        limit,
        after,
      });
    },

    /** The same page, each record's stored fields as JSON text, with its relations: one statement. */
    searchJson(
      filters: SearchFilters,
      sort: SortKey,
      order: SortOrder,
      limit: number,
      after: KeysetPosition | undefined,
      relations: RelationOptions,
    ): Promise<{ rows: RecordJsonRow[]; positions: KeysetPosition[] }> {
      return recordJsonPage(db, { ...pageFilters(filters, sort), sort: SORTS[sort], order, limit, after, relations });
    },
  };
}

export type CompanySearchRepository = ReturnType<typeof createCompanySearchRepository>;

const INT4_MAX = 2147483647;

/** A whole-number bound clamped into the range PostgreSQL integers and JS numbers share. */
function wholeBound(n: number): number {
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(Number.MIN_SAFE_INTEGER, n));
}
