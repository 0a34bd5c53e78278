// The change feed's page read: one statement per page (keyset page, accounts, roles), with the
// bulk of each record — its firmographic fields — already written as JSON text by the database.
// A feed page is 100 records of ~60 fields; parsing them into row objects, copying them into
// records and serialising those again held the feed near 5k rows/s. The fields that need the
// service's rules (labels, ratios, provenance, owners) are read as columns beside the text.
import { sql, type Kysely } from 'kysely';
import { relationColumns, type CompanyRow, type RelationColumns, type RelationOptions } from './company-reads.ts';
import { SORTS } from './company-search.ts';
import { keysetPage, type KeysetPosition } from './keyset.ts';
import type { Database } from './schema.ts';

/**
 * The record's required fields that are stored columns as they are, in the order the API writes
 * them: the CompanyRow schema's (src/contract/company.ts) through hasAnyAdPixel, without the
 * optional employeeCountRange (the schema serializer writes required fields first, optional
 * ones after). Each is `c.<snake_case of the name>` unless mapped in COLUMN.
 */
const HEAD_FIELDS = [
  ['id', 'orgNumber', 'country', 'name', 'orgFormCode', 'orgFormDescription', 'naceCode1', 'naceDescription1'],
  ['naceCode2', 'naceDescription2', 'naceCode3', 'naceDescription3', 'sectorCode', 'employeeCount'],
  ['hasRegisteredEmployees', 'businessAddressStreet', 'businessAddressPostalCode', 'businessAddressCity'],
  ['businessAddressMunicipality', 'businessAddressMuniNo', 'businessAddressCountryCode', 'postalAddressStreet'],
  ['postalAddressPostalCode', 'postalAddressCity', 'postalAddressMunicipality', 'postalAddressMuniNo'],
  ['postalAddressCountryCode', 'website', 'phone', 'parentOrgNumber', 'isInGroup', 'foundingDate'],
  ['registrationDate', 'registeredInVat', 'registeredInBiz', 'isBankrupt', 'isBeingDissolved'],
  ['isInForcedDissolution', 'isDeleted', 'deletedDate', 'status', 'description', 'lastSubmittedAccountsYear'],
  ['primaryDomain', 'enrichedDomains', 'linkedinHandle', 'facebookHandle', 'instagramHandle', 'twitterHandle'],
  ['technologies', 'hasAnyAdPixel'],
].flat();

/**
 * Technologies as the contract has them (name, category, confidence, in that order, whatever
 * the stored objects hold); string_agg and row_to_json write compact JSON, as the API does
 * (json_agg would put a space after each comma).
 */
const TECHNOLOGIES = `CASE WHEN c.technologies = '[]'::jsonb THEN '[]'::json ELSE (
  SELECT ('[' || string_agg(row_to_json(t)::text, ',' ORDER BY e.ord) || ']')::json
  FROM jsonb_array_elements(c.technologies) WITH ORDINALITY AS e(v, ord),
    LATERAL (SELECT e.v->>'name' AS name, e.v->>'category' AS category, (e.v->>'confidence')::float8 AS confidence) t
) END`;

const COLUMN: Record<string, string> = {
  id: 'c.id::text',
  hasAnyAdPixel: 'c.has_ad_pixel',
  technologies: TECHNOLOGIES,
};

const columnOf = (field: string) => COLUMN[field] ?? `c.${field.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}`;

/**
 * The record's opening text, `{"id":…` through `"hasAnyAdPixel":…` without the closing brace: one
 * row_to_json of a one-row sub-select (compact JSON, escaped as JSON.stringify escapes).
 */
const RECORD_HEAD = sql.raw(
  `left((SELECT row_to_json(h)::text FROM (SELECT ${HEAD_FIELDS.map((f) => `${columnOf(f)} AS "${f}"`).join(
    ', ',
  )}) h), -1) AS record_head`,
);

/** The row columns the derived parts of a record (provenance, labels, accounts) are read from. */
export type RecordBasis = Pick<
  CompanyRow,
  | 'org_number'
  | 'country'
  | 'employee_count_range'
  | 'org_form_code'
  | 'nace_code1'
  | 'nace_description1'
  | 'business_address_muni_no'
  | 'parent_org_number'
  | 'parent_source'
  | 'primary_domain'
  | 'enriched_domains'
  | 'linkedin_handle'
  | 'facebook_handle'
  | 'instagram_handle'
  | 'twitter_handle'
  | 'technologies'
  | 'sources'
>;

export type FeedRow = RecordBasis &
  Pick<CompanyRow, 'id'> &
  RelationColumns & {
    /** The record's JSON text from `{` through hasAnyAdPixel, without the closing brace. */
    record_head: string;
    /** created_at and updated_at in whole milliseconds since the epoch (as the API's ISO times). */
    created_ms: number;
    updated_ms: number;
  };

const BASIS =
  sql.raw(`c.id, c.org_number, c.country, c.employee_count_range, c.org_form_code, c.nace_code1, c.nace_description1,
  c.business_address_muni_no, c.parent_org_number, c.parent_source, c.primary_domain, c.enriched_domains,
  c.linkedin_handle, c.facebook_handle, c.instagram_handle, c.twitter_handle, c.technologies, c.sources,
  floor(extract(epoch FROM c.created_at) * 1000)::bigint AS created_ms,
  floor(extract(epoch FROM c.updated_at) * 1000)::bigint AS updated_ms`);

export function createCompanyFeedRepository(db: Kysely<Database>) {
  return {
    /**
     * The change feed: every company (deleted ones too) with updated_at >= since, oldest first,
     * with the relations asked for, in one statement per page.
     */
    page(
      since: Date,
      limit: number,
      after: KeysetPosition | undefined,
      relations: RelationOptions,
    ): Promise<{ rows: FeedRow[]; positions: KeysetPosition[] }> {
      return keysetPage<FeedRow>(db, {
        from: 'companies c',
        alias: 'c',
        where: [sql`c.updated_at >= ${since.toISOString()}::timestamptz`],
        sort: SORTS.updatedAt,
        order: 'asc',
        limit,
        after,
        rowColumns: sql`${BASIS}, ${RECORD_HEAD}`,
        columns: relationColumns(relations),
        prepared: true,
      });
    },
  };
}

export type CompanyFeedRepository = ReturnType<typeof createCompanyFeedRepository>;
