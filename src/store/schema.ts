// Kysely row types of every table; kept in step with store/migrations by hand.
// int8 and numeric arrive as numbers and DATE as 'YYYY-MM-DD' strings (see db.ts).
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type DateString = string;

export interface TiersTable {
  name: string;
  rate_limit_per_minute: number;
  daily_limit: number;
  monthly_limit: number;
  max_page_size: number;
  can_push: boolean;
  require_filter_on_search: boolean;
}

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  email: string;
  description: string | null;
  tier: string;
  rate_limit_per_minute: number | null;
  daily_limit: number | null;
  monthly_limit: number | null;
  max_page_size: number | null;
  active: Generated<boolean>;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  project_id: number;
  key_hash: string;
  key_prefix: string;
  active: Generated<boolean>;
  rotated_from: string | null;
  created_at: Timestamp;
  deactivated_at: Timestamp | null;
}

export interface ProjectUsageTable {
  project_id: number;
  day: DateString;
  day_count: Generated<number>;
  month: DateString;
  month_count: Generated<number>;
  total: Generated<number>;
}

export interface AccessRequestsTable {
  id: Generated<number>;
  project_name: string;
  email: string;
  organisation: string | null;
  requested_tier: string;
  message: string | null;
  status: Generated<string>;
  created_at: Timestamp;
}

export interface SyncRunsTable {
  id: Generated<number>;
  source: string;
  status: 'running' | 'ok' | 'error';
  started_at: Timestamp;
  finished_at: Timestamp | null;
  records_processed: Generated<number>;
  message: string | null;
  origin: string | null;
}

export interface SyncStateTable {
  source: string;
  state: JSONColumnType<Record<string, unknown>>;
  updated_at: Timestamp;
}

export interface RefFilesTable {
  name: string;
  content_hash: string;
  loaded_at: Timestamp;
}

export interface RefCountiesTable {
  code: string;
  name: string;
}

export interface RefMunicipalitiesTable {
  code: string;
  name: string;
  county_code: string;
}

export interface RefNaceTable {
  version: string;
  code: string;
  level: number;
  parent: string | null;
  section: string | null;
  name: string;
  short_name: string | null;
}

export interface RefOrgFormsTable {
  country: string;
  code: string;
  description: string;
  applies_to: string | null;
}

export interface RefPostalCodesTable {
  postal_code: string;
  place: string;
  municipality_code: string;
  category: string | null;
}

export interface CompaniesTable {
  id: Generated<number>;
  country: string;
  org_number: string;
  name: string;
  name_norm: string;
  org_form_code: string | null;
  org_form_description: string | null;
  nace_code1: string | null;
  nace_description1: string | null;
  nace_code2: string | null;
  nace_description2: string | null;
  nace_code3: string | null;
  nace_description3: string | null;
  sector_code: string | null;
  employee_count: number | null;
  has_registered_employees: boolean | null;
  business_address_street: string | null;
  business_address_postal_code: string | null;
  business_address_city: string | null;
  business_address_municipality: string | null;
  business_address_muni_no: string | null;
  business_address_country_code: string | null;
  postal_address_street: string | null;
  postal_address_postal_code: string | null;
  postal_address_city: string | null;
  postal_address_municipality: string | null;
  postal_address_muni_no: string | null;
  postal_address_country_code: string | null;
  website: string | null;
  email: string | null;
  phone: string | null;
  registry_parent_org_number: string | null;
  parent_org_number: string | null;
  parent_source: string | null;
  is_in_group: Generated<boolean>;
  founding_date: DateString | null;
  registration_date: DateString | null;
  registered_in_vat: boolean | null;
  registered_in_biz: boolean | null;
  is_bankrupt: Generated<boolean>;
  is_being_dissolved: Generated<boolean>;
  is_in_forced_dissolution: Generated<boolean>;
  is_deleted: Generated<boolean>;
  deleted_date: DateString | null;
  status: string | null;
  description: string | null;
  last_submitted_accounts_year: string | null;
  latest_revenue: number | null;
  primary_domain: string | null;
  enriched_domains: Generated<string[]>;
  linkedin_handle: string | null;
  facebook_handle: string | null;
  instagram_handle: string | null;
  twitter_handle: string | null;
  technologies: ColumnType<TechnologyJson[], string | undefined, string>;
  technology_names: Generated<string[]>;
  has_ad_pixel: Generated<boolean>;
  sources: ColumnType<Record<string, string>, string | undefined, string>;
  content_hash: string;
  roles_hash: string | null;
  sub_units_hash: string | null;
  fetched_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TechnologyJson {
  name: string;
  category: string;
  confidence: number;
}

export interface FinancialsTable {
  id: Generated<number>;
  company_id: number;
  upstream_id: string | null;
  accounts_type: string;
  period_from: DateString | null;
  period_to: DateString;
  currency: string | null;
  revenue: number | null;
  operating_profit: number | null;
  net_result: number | null;
  equity: number | null;
  total_assets: number | null;
  total_liabilities: number | null;
  source: string;
}

export interface RolesTable {
  id: Generated<number>;
  company_id: number;
  group_code: string | null;
  group_description: string | null;
  role_type_code: string;
  role_type_description: string | null;
  person_first_name: string | null;
  person_middle_name: string | null;
  person_last_name: string | null;
  person_birth_year: number | null;
  entity_org_number: string | null;
  entity_name: string | null;
  elected_by: string | null;
  responsibility_share: string | null;
  position: number | null;
}

export interface SubUnitsTable {
  id: Generated<number>;
  country: Generated<string>;
  org_number: string;
  parent_org_number: string | null;
  name: string;
  org_form_code: string | null;
  nace_code1: string | null;
  nace_description1: string | null;
  employee_count: number | null;
  address_street: string | null;
  address_postal_code: string | null;
  address_city: string | null;
  address_municipality: string | null;
  address_muni_no: string | null;
  address_lat: number | null;
  address_lng: number | null;
  start_date: DateString | null;
  closure_date: DateString | null;
  is_deleted: Generated<boolean>;
  content_hash: string;
  updated_at: Timestamp;
}

export interface InspectionsTable {
  id: Generated<number>;
  upstream_id: string;
  venue_id: string | null;
  org_number: string | null;
  name: string;
  address: string | null;
  postnr: string | null;
  poststed: string | null;
  municipality_no: string | null;
  office: string | null;
  case_ref: string | null;
  status: string | null;
  date: DateString;
  total_rating: number;
  inspection_type: string | null;
  themes: ColumnType<unknown[], string | undefined, string>;
  content_hash: string;
  synced_at: Timestamp;
}

export interface LicensesTable {
  id: Generated<number>;
  license_number: string;
  register_type: string;
  org_number: string | null;
  holder_name: string | null;
  venue_name: string | null;
  venue_org_number: string | null;
  license_type_code: string;
  license_type_description: string | null;
  product_groups: Generated<string[]>;
  address: string | null;
  postnr: string | null;
  poststed: string | null;
  municipality: string | null;
  municipality_no: string | null;
  issuing_authority: string | null;
  valid_from: Timestamp | null;
  valid_to: Timestamp | null;
  content_hash: string;
  synced_at: Timestamp;
}

export interface ProcurementNoticesTable {
  id: Generated<number>;
  notice_id: string;
  org_number: string | null;
  title: string;
  notice_type: string | null;
  status: string | null;
  estimated_value: number | null;
  published_date: Timestamp | null;
  deadline: Timestamp | null;
}

export interface LiveFetchMissesTable {
  source: string;
  org_number: string;
  until: Date;
}

export interface Database {
  live_fetch_misses: LiveFetchMissesTable;
  tiers: TiersTable;
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  project_usage: ProjectUsageTable;
  access_requests: AccessRequestsTable;
  sync_runs: SyncRunsTable;
  sync_state: SyncStateTable;
  ref_files: RefFilesTable;
  ref_counties: RefCountiesTable;
  ref_municipalities: RefMunicipalitiesTable;
  ref_nace: RefNaceTable;
  ref_org_forms: RefOrgFormsTable;
  ref_postal_codes: RefPostalCodesTable;
  companies: CompaniesTable;
  financials: FinancialsTable;
  roles: RolesTable;
  sub_units: SubUnitsTable;
  inspections: InspectionsTable;
  licenses: LicensesTable;
  procurement_notices: ProcurementNoticesTable;
  sync_seen: SyncSeenTable;
  enrichment: WebProfileTable; // web-profile tables keep their original names (0007_enrichment.sql)
  enrichment_domains: WebProfileDomainsTable;
  destinations: DestinationsTable;
  shareholdings: ShareholdingsTable;
  shareholder_years: ShareholderYearsTable;
  sanction_lists: SanctionListsTable;
  sanction_entities: SanctionEntitiesTable;
  sanction_names: SanctionNamesTable;
  sanction_delta_ids: SanctionDeltaIdsTable;
}

export interface SyncSeenTable {
  run_id: number;
  key: string;
}

export interface ShareholdingsTable {
  run_id: number;
  year: number;
  org_number: string;
  company_name: string;
  share_class: string;
  holder_type: 'company' | 'person' | 'foreign';
  holder_name: string | null;
  holder_org_number: string | null;
  holder_birth_year: number | null;
  postal_code: string | null;
  postal_place: string | null;
  country_code: string | null;
  share_count: number;
  total_shares: number | null;
}

export interface ShareholderYearsTable {
  year: number;
  run_id: number;
  row_count: number;
  imported_at: Timestamp;
}

export interface DestinationsTable {
  id: string;
  project_id: number;
  name: string;
  type: 'webhook';
  is_active: Generated<boolean>;
  config_key_id: string;
  config_iv: string;
  config_tag: string;
  config_ciphertext: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebProfileTable {
  company_id: number;
  org_number: string;
  stage: Generated<'candidates' | 'probed' | 'scored' | 'done'>;
  status: Generated<'pending' | 'confirmed' | 'ambiguous' | 'rejected'>;
  confidence: Generated<number>;
  primary_domain: string | null;
  confirmed_domains: Generated<string[]>;
  candidates: ColumnType<unknown[], string | undefined, string>;
  input_hash: string;
  seeded_at: Timestamp;
  completed_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface WebProfileDomainsTable {
  company_id: number;
  domain: string;
  origin: string;
}

// PEP/sanctions lists (0009_sanctions.sql; queries in store/sanctions.ts).
export interface SanctionListsTable {
  name: string;
  run_id: number;
  format: string;
  version: string | null;
  entity_count: number;
  synced_at: Timestamp;
}

export interface SanctionEntitiesTable {
  run_id: number;
  entity_id: string;
  written_by: number;
  schema: string;
  name: string;
  aliases: string[];
  weak_aliases: string[];
  birth_dates: string[];
  countries: string[];
  topics: string[];
  datasets: string[];
  last_change: string | null;
}

export interface SanctionNamesTable {
  run_id: number;
  entity_id: string;
  kind: 'person' | 'organisation';
  trigram_key: string;
  match_keys: string[];
}

export interface SanctionDeltaIdsTable {
  run_id: number;
  entity_id: string;
}
