-- Company records of all countries, keyed by (country, org_number), with their relations.
CREATE TABLE companies (
  id bigserial PRIMARY KEY,
  country text NOT NULL,
  org_number text NOT NULL,
  name text NOT NULL,
  name_norm text NOT NULL,              -- Unicode-lowercased in code: the embedded C locale cannot
  org_form_code text,
  org_form_description text,
  nace_code1 text,
  nace_description1 text,
  nace_code2 text,
  nace_description2 text,
  nace_code3 text,
  nace_description3 text,
  sector_code text,
  employee_count integer,
  has_registered_employees boolean,
  business_address_street text,
  business_address_postal_code text,
  business_address_city text,
  business_address_municipality text,
  business_address_muni_no text,
  business_address_country_code text,
  postal_address_street text,
  postal_address_postal_code text,
  postal_address_city text,
  postal_address_municipality text,
  postal_address_muni_no text,
  postal_address_country_code text,
  website text,
  email text,
  phone text,
  registry_parent_org_number text,      -- as the registry states it (brreg overordnetEnhet)
  parent_org_number text,               -- derived: registry parent, else majority shareholder
  parent_source text,                   -- which of the two supplied parent_org_number
  is_in_group boolean NOT NULL DEFAULT false,
  founding_date date,
  registration_date date,
  registered_in_vat boolean,
  registered_in_biz boolean,
  is_bankrupt boolean NOT NULL DEFAULT false,
  is_being_dissolved boolean NOT NULL DEFAULT false,
  is_in_forced_dissolution boolean NOT NULL DEFAULT false,
  is_deleted boolean NOT NULL DEFAULT false,
  deleted_date date,
  status text,                          -- registry status label (FI/SE: registered, deregistered…)
  description text,
  last_submitted_accounts_year text,
  latest_revenue bigint,                -- denormalised from the latest financial, for filters
  primary_domain text,
  enriched_domains text[] NOT NULL DEFAULT '{}',
  linkedin_handle text,
  facebook_handle text,
  instagram_handle text,
  twitter_handle text,
  technologies jsonb NOT NULL DEFAULT '[]',
  technology_names text[] NOT NULL DEFAULT '{}',
  has_ad_pixel boolean NOT NULL DEFAULT false,
  sources jsonb NOT NULL DEFAULT '{}',  -- field group -> source name (provenance)
  content_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (country, org_number)
);

-- One index per filter and sort (search issue); the basics are created here.
CREATE INDEX companies_name_trgm ON companies USING gin (name_norm gin_trgm_ops);
CREATE INDEX companies_updated ON companies (updated_at, id);
CREATE INDEX companies_parent ON companies (parent_org_number) WHERE parent_org_number IS NOT NULL;

CREATE TABLE financials (
  id bigserial PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  upstream_id text,
  accounts_type text NOT NULL,          -- regnskapstype: SELSKAP or KONSERN
  period_from date,
  period_to date NOT NULL,
  currency text,
  revenue bigint,
  operating_profit bigint,
  net_result bigint,
  equity bigint,
  total_assets bigint,
  total_liabilities bigint,
  source text NOT NULL,
  UNIQUE (company_id, period_to, accounts_type)
);

CREATE TABLE roles (
  id bigserial PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  group_code text,
  group_description text,
  role_type_code text NOT NULL,
  role_type_description text,
  person_first_name text,
  person_middle_name text,
  person_last_name text,
  person_birth_year integer,            -- data minimisation: never the full birth date
  entity_org_number text,
  entity_name text,
  elected_by text,
  responsibility_share text,
  position integer
);
CREATE INDEX roles_company ON roles (company_id);

CREATE TABLE sub_units (
  id bigserial PRIMARY KEY,
  country text NOT NULL DEFAULT 'NO',
  org_number text NOT NULL,
  parent_org_number text,
  name text NOT NULL,
  org_form_code text,
  nace_code1 text,
  nace_description1 text,
  employee_count integer,
  address_street text,
  address_postal_code text,
  address_city text,
  address_municipality text,
  address_muni_no text,
  address_lat double precision,
  address_lng double precision,
  start_date date,
  closure_date date,
  is_deleted boolean NOT NULL DEFAULT false,
  content_hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (country, org_number)
);
CREATE INDEX sub_units_parent ON sub_units (parent_org_number);

CREATE TABLE inspections (
  id bigserial PRIMARY KEY,
  upstream_id text NOT NULL UNIQUE,
  venue_id text,
  org_number text,
  name text NOT NULL,
  address text,
  postnr text,
  poststed text,
  municipality_no text,
  office text,
  case_ref text,
  status text,
  date date NOT NULL,
  total_rating integer NOT NULL,
  inspection_type text,
  themes jsonb NOT NULL DEFAULT '[]',
  content_hash text NOT NULL,
  synced_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE licenses (
  id bigserial PRIMARY KEY,
  license_number text NOT NULL,
  register_type text NOT NULL,
  org_number text,
  holder_name text,
  venue_name text,
  venue_org_number text,
  license_type_code text NOT NULL,
  license_type_description text,
  product_groups text[] NOT NULL DEFAULT '{}',
  address text,
  postnr text,
  poststed text,
  municipality text,
  municipality_no text,
  issuing_authority text,
  valid_from timestamptz,
  valid_to timestamptz,
  content_hash text NOT NULL,
  synced_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (license_number, register_type)
);

-- Doffin notices: counted by the health endpoint; no procurement ingest exists yet.
CREATE TABLE procurement_notices (
  id bigserial PRIMARY KEY,
  notice_id text NOT NULL UNIQUE,
  org_number text,
  title text NOT NULL,
  notice_type text,
  status text,
  estimated_value bigint,
  published_date timestamptz,
  deadline timestamptz
);
