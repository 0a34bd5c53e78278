// A page of company records with the bulk of each record (its firmographic fields) written as
// JSON text by the database, beside the relations and the few columns the service's rules read
// (labels, ratios, provenance, owners). The change feed (company-feed.ts) and the search list
// (company-search.ts) read their pages this way: parsing ~60 fields per row into objects,
// copying them into records and serialising those again held the feed near 5k rows/s.
import { sql, type Kysely } from 'kysely';
import { relationColumns, type CompanyRow, type RelationColumns, type RelationOptions } from './company-reads.ts';
import { websiteUrlSql } from '../domain/website-url.ts';
import { keysetPage, type KeysetPosition, type KeysetQuery } from './engine/keyset.ts';
import type { Database } from './engine/schema.ts';

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
  ['technologies', 'hasAnyAdPixel', 'marketingProtected'],
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
  website: websiteUrlSql('c.website'),
  // As marketingProtectedOf (services/companies/company-record.ts): only DK and SE have the register.
  marketingProtected: "CASE WHEN c.country IN ('DK', 'SE') THEN c.marketing_protected END",
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
  | 'employee_count'
  | 'employee_count_range'
  | 'org_form_code'
  | 'nace_code1'
  | 'nace_description1'
  | 'business_address_muni_no'
  | 'business_address_municipality'
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

export type RecordJsonRow = RecordBasis &
  Pick<CompanyRow, 'id'> &
  RelationColumns & {
    /** The record's JSON text from `{` through hasAnyAdPixel, without the closing brace. */
    record_head: string;
    /** created_at and updated_at in whole milliseconds since the epoch (as the API's ISO times). */
    created_ms: number;
    updated_ms: number;
  };

const BASIS =
  sql.raw(`c.id, c.org_number, c.country, c.employee_count, c.employee_count_range, c.org_form_code, c.nace_code1, c.nace_description1,
  c.business_address_muni_no, c.business_address_municipality, c.parent_org_number, c.parent_source, c.primary_domain, c.enriched_domains,
  c.linkedin_handle, c.facebook_handle, c.instagram_handle, c.twitter_handle, c.technologies, c.sources,
  floor(extract(epoch FROM c.created_at) * 1000)::bigint AS created_ms,
  floor(extract(epoch FROM c.updated_at) * 1000)::bigint AS updated_ms`);

/** The row columns of a record-JSON page: the basis and the record's opening text. */
const RECORD_JSON_COLUMNS = sql`${BASIS}, ${RECORD_HEAD}`;

/** A keyset page of companies as record JSON with the relations asked for: one statement. */
export function recordJsonPage(
  db: Kysely<Database>,
  q: Omit<KeysetQuery, 'from' | 'alias' | 'rowColumns' | 'columns'> & { relations: RelationOptions },
): Promise<{ rows: RecordJsonRow[]; positions: KeysetPosition[] }> {
  const { relations, ...page } = q;
  return keysetPage<RecordJsonRow>(db, {
    ...page,
    from: 'companies c',
    alias: 'c',
    rowColumns: RECORD_JSON_COLUMNS,
    columns: relationColumns(relations),
  });
}
