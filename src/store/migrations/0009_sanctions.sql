-- PEP/sanctions lists for screening (ncd sync sanctions, GET /api/screening).
-- An import writes its rows tagged with its sync run id (invisible to readers); publishing points
-- the list at that run in one statement, so a reader sees the old list or the new one, never a
-- mix, and a failed import is discarded without touching the list. A delta stages its rows the
-- same way and is applied to the list's run in one transaction.

-- The visible import of each list.
CREATE TABLE sanction_lists (
  name text PRIMARY KEY,                -- 'opensanctions-default', 'eu-fsf', 'un-sc', or --list NAME
  run_id bigint NOT NULL,               -- sync_runs.id of the full import whose rows are visible
  format text NOT NULL,                 -- ftm | targets-csv | eu-fsf-xml | un-xml
  version text,                         -- upstream version (OpenSanctions run id, XML generation date …)
  entity_count integer NOT NULL,
  synced_at timestamptz NOT NULL DEFAULT now()  -- last successful full import or delta
);

-- One screened target (Person / Organization / Company / LegalEntity) per row.
CREATE TABLE sanction_entities (
  run_id bigint NOT NULL,
  entity_id text NOT NULL,              -- upstream id (FtM id, eu-fsf-<logicalId>, un-<DATAID>)
  written_by bigint NOT NULL,           -- run that wrote this version (a delta's rows move to the list's run)
  schema text NOT NULL,
  name text NOT NULL,
  aliases text[] NOT NULL,
  weak_aliases text[] NOT NULL,         -- shown, never matched
  birth_dates text[] NOT NULL,          -- 'YYYY' or 'YYYY-MM' only: no full birth dates are stored
  countries text[] NOT NULL,            -- ISO-2 lower case
  topics text[] NOT NULL,
  datasets text[] NOT NULL,
  last_change text,
  PRIMARY KEY (run_id, entity_id)
);

-- Candidate retrieval: one row per distinct key set of a listed name (primary and strong
-- aliases) and kind; a LegalEntity has rows for both kinds. match_keys are exact lookup keys
-- (store/sanction-keys.ts: the domain's phonetic pairs plus spelling and joined-token keys),
-- so a subject's candidates are one GIN lookup `match_keys && $keys`, never a scan of the list.
-- (A pg_trgm `%` lookup on trigram_key was measured at 10–120 ms per subject on 300 k entities:
-- too slow for ten subjects per request. trigram_key only orders the few candidates found.)
CREATE TABLE sanction_names (
  run_id bigint NOT NULL,
  entity_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('person', 'organisation')),
  trigram_key text NOT NULL,            -- sorted spelling-folded tokens
  match_keys text[] NOT NULL
);
CREATE INDEX sanction_names_keys ON sanction_names USING gin (match_keys);
-- Discarding a run and applying a delta remove the names of given entities.
CREATE INDEX sanction_names_entity ON sanction_names (run_id, entity_id);

-- The entity ids a staged delta touches (ADD, MOD and DEL alike: the list's current version of
-- each is removed when the delta is applied, and the staged version, if any, takes its place).
CREATE TABLE sanction_delta_ids (
  run_id bigint NOT NULL,
  entity_id text NOT NULL,
  PRIMARY KEY (run_id, entity_id)
);
