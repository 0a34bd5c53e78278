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
    /** The roles as the API writes them (JSON text); null: none. */
    roles_json: string | null;
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

/** The share of a partner's role as a number, as the API's sharePercent (company-record.ts) reads it. */
const OWNERSHIP_PERCENT = `CASE
    WHEN r.responsibility_share ~ '^\\s*\\d+([.,]\\d+)?\\s*%\\s*$'
      THEN replace(substring(r.responsibility_share FROM '(\\d+(?:[.,]\\d+)?)'), ',', '.')::float8
    WHEN r.responsibility_share ~ '^\\s*\\d+\\s*/\\s*\\d+\\s*$'
      AND substring(r.responsibility_share FROM '/\\s*(\\d+)')::float8 > 0
      -- Math.round of the same IEEE quotient: floor(x + 0.5) for a positive x.
      THEN floor(substring(r.responsibility_share FROM '^\\s*(\\d+)')::float8
                 / substring(r.responsibility_share FROM '/\\s*(\\d+)')::float8 * 10000 + 0.5) / 100
  END`;

/**
 * The company's roles as the API writes them (company-record.ts's role(), in the relation's order:
 * group, position, id), as JSON text; NULL without roles. Parsing each role row into an object,
 * mapping it and serialising it again was the largest part of a list row's and a lookup's
 * garbage.
 */
const ROLES_JSON =
  sql.raw(`(SELECT '[' || string_agg(row_to_json(x)::text, ',' ORDER BY r.group_code, r.position, r.id) || ']'
    FROM roles r CROSS JOIN LATERAL (SELECT r.role_type_code AS "roleTypeCode", r.role_type_description AS "roleTypeDescription",
      r.group_code AS "groupCode", r.group_description AS "groupDescription", r.person_first_name AS "personFirstName",
      r.person_middle_name AS "personMiddleName", r.person_last_name AS "personLastName",
      r.person_birth_year AS "personBirthYear", r.entity_org_number AS "entityOrgNumber", r.entity_name AS "entityName",
      r.elected_by AS "electedBy", ${OWNERSHIP_PERCENT} AS "ownershipPercent") x
    WHERE r.company_id = c.id) AS roles_json`);

/** The row columns of a record-JSON page: the basis, the record's opening text and its roles' text. */
export const RECORD_JSON_COLUMNS = sql`${BASIS}, ${RECORD_HEAD}, ${ROLES_JSON}`;

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
    // The roles are in RECORD_JSON_COLUMNS as text.
    columns: relationColumns({ ...relations, roles: false }),
  });
}
