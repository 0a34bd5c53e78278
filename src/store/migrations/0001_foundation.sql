-- Platform foundation: tiers, projects and their API keys, usage counters, access requests,
-- sync runs, shared rate-limit windows and reference data.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Limits per tier; 0 means unlimited. Per-project overrides live on projects.
CREATE TABLE tiers (
  name text PRIMARY KEY,
  rate_limit_per_minute integer NOT NULL,
  daily_limit integer NOT NULL,
  monthly_limit integer NOT NULL,
  max_page_size integer NOT NULL,
  can_push boolean NOT NULL,
  require_filter_on_search boolean NOT NULL
);
INSERT INTO tiers VALUES
  ('free',       20,  500,  5000,  20, false, true),
  ('pro',        60, 5000, 50000, 100, true,  false),
  ('enterprise', 120,   0,     0, 100, true,  false),
  ('internal',   120,   0,     0, 100, true,  false);

-- A project is what a registration creates; its keys rotate, the project (tier, limits,
-- usage, destinations) stays.
CREATE TABLE projects (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  name_key text NOT NULL,               -- trimmed, Unicode-lowercased: uniqueness ignores case
  email text NOT NULL,
  description text,
  tier text NOT NULL REFERENCES tiers(name),
  rate_limit_per_minute integer,        -- overrides; NULL = the tier's value, 0 = unlimited
  daily_limit integer,
  monthly_limit integer,
  max_page_size integer,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX projects_active_name_key ON projects (name_key) WHERE active;

CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  project_id bigint NOT NULL REFERENCES projects(id),
  key_hash text NOT NULL UNIQUE,        -- HMAC-SHA256 of the raw key, peppered with SECRET_KEY
  key_prefix text NOT NULL UNIQUE,
  active boolean NOT NULL DEFAULT true,
  rotated_from text,
  created_at timestamptz NOT NULL DEFAULT now(),
  deactivated_at timestamptz
);
CREATE INDEX api_keys_project ON api_keys (project_id);

-- One row per project, bumped by a single conditional UPDATE per request: the row lock makes
-- the daily and monthly quotas exact across any number of API processes.
CREATE TABLE project_usage (
  project_id bigint PRIMARY KEY REFERENCES projects(id),
  day date NOT NULL,
  day_count integer NOT NULL DEFAULT 0,
  month date NOT NULL,
  month_count integer NOT NULL DEFAULT 0,
  total bigint NOT NULL DEFAULT 0
);

CREATE TABLE access_requests (
  id bigserial PRIMARY KEY,
  project_name text NOT NULL,
  email text NOT NULL,
  organisation text,
  requested_tier text NOT NULL REFERENCES tiers(name),
  message text,
  status text NOT NULL DEFAULT 'open',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every sync job run, for the health endpoint's dataSources.
CREATE TABLE sync_runs (
  id bigserial PRIMARY KEY,
  source text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'ok', 'error')),
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  records_processed bigint NOT NULL DEFAULT 0,
  message text
);
CREATE INDEX sync_runs_source_started ON sync_runs (source, started_at DESC);

-- Resume positions of incremental syncs (e.g. brreg oppdateringsid).
CREATE TABLE sync_state (
  source text PRIMARY KEY,
  state jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Windows of rate-limiter-flexible's RateLimiterPostgres (server mode without Redis).
CREATE TABLE rate_windows (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);

-- Reference data, loaded from the files in reference/ at start-up.
CREATE TABLE ref_files (
  name text PRIMARY KEY,
  content_hash text NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ref_counties (
  code text PRIMARY KEY,
  name text NOT NULL
);
CREATE TABLE ref_municipalities (
  code text PRIMARY KEY,
  name text NOT NULL,
  county_code text NOT NULL
);
CREATE INDEX ref_municipalities_county ON ref_municipalities (county_code, code);
CREATE TABLE ref_nace (
  version text NOT NULL,               -- SN2007 or SN2025
  code text NOT NULL,
  level integer NOT NULL,
  parent text,
  section text,
  name text NOT NULL,
  short_name text,
  PRIMARY KEY (version, code)
);
CREATE TABLE ref_org_forms (
  country text NOT NULL,
  code text NOT NULL,
  description text NOT NULL,
  applies_to text,
  PRIMARY KEY (country, code)
);
CREATE TABLE ref_postal_codes (
  postal_code text PRIMARY KEY,
  place text NOT NULL,
  municipality_code text NOT NULL,
  category text
);
