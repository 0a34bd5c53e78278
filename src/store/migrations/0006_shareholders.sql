-- Aksjonærregisteret (Skatteetaten's annual shareholder register), one row per line of the file:
-- (investee, share class, holder). Rows are written tagged with the sync run that loaded them
-- and become visible only when shareholder_years points the year at that run, so re-importing a
-- year swaps it atomically while the new file streams in, and a failed import changes nothing.
CREATE TABLE shareholdings (
  run_id bigint NOT NULL,               -- sync_runs.id of the import that wrote the row
  year integer NOT NULL,
  org_number text NOT NULL,             -- the investee (9 digits)
  company_name text NOT NULL,           -- as the file names it (the company may not be stored)
  share_class text NOT NULL,
  holder_type text NOT NULL CHECK (holder_type IN ('company', 'person', 'foreign')),
  holder_name text,
  holder_org_number text,               -- company holders only
  holder_birth_year integer,            -- persons only; never a full birth date or national id
  postal_code text,                     -- entity holders only (not kept for persons)
  postal_place text,
  country_code text,
  share_count bigint NOT NULL,
  total_shares bigint                   -- per share class, as the file states it; may be missing
);
-- Reads join shareholder_years (one visible run per year), so run_id leads both indexes; the
-- same index serves discarding a run. Two indexes only: every one slows the bulk load.
CREATE INDEX shareholdings_investee ON shareholdings (run_id, org_number);
CREATE INDEX shareholdings_holder ON shareholdings (run_id, holder_org_number) WHERE holder_org_number IS NOT NULL;

-- The visible import of each year.
CREATE TABLE shareholder_years (
  year integer PRIMARY KEY,
  run_id bigint NOT NULL,
  row_count integer NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now()
);
