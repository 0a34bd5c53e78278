-- Public procurement notices from Doffin and TED (eForms), replacing the placeholder table of
-- 0002 (which no code ever wrote). One row per eForms notice (BT-701 notice id): the same notice
-- fetched from both sources is stored once and remembers both public ids. notice_id is the id
-- the API shows: the Doffin id when known, else the TED publication number.
DROP TABLE procurement_notices;

CREATE TABLE procurement_notices (
  id bigserial PRIMARY KEY,
  eforms_id text NOT NULL UNIQUE,
  doffin_id text,
  ted_id text,
  notice_id text GENERATED ALWAYS AS (COALESCE(doffin_id, ted_id, eforms_id)) STORED,
  -- BT-04: the notices of one procedure (competition, result, cancellation) share it.
  procedure_id text,
  notice_type text NOT NULL CHECK (notice_type IN ('competition', 'result', 'cancellation')),
  notice_type_code text,
  title text NOT NULL,
  -- Lowercased in code (Unicode-aware; the embedded engine's C locale is not) for q.
  title_norm text NOT NULL,
  description text,
  -- The buyer's Norwegian organisation number; NULL when the notice's id is not a valid one.
  org_number text,
  buyer_name text,
  buyer_company_id text,
  country text,
  cpv_codes text[] NOT NULL,
  -- Every prefix (2 to 8 digits) of every CPV code: cpv=<code or prefix> is one GIN lookup.
  cpv_prefixes text[] NOT NULL,
  procedure_type text,
  published_date timestamptz,
  deadline timestamptz,
  estimated_value numeric,
  currency text,
  awarded_value numeric,
  lots jsonb NOT NULL,
  nuts_codes text[] NOT NULL,
  winners jsonb NOT NULL,
  winner_org_numbers text[] NOT NULL,
  language text,
  -- Set from the procedure's other notices at ingest: a result (AWARDED, or CLOSED when no
  -- winner was chosen) or a cancellation. NULL: ACTIVE or CLOSED by the deadline, at read time.
  outcome text CHECK (outcome IN ('AWARDED', 'CLOSED', 'CANCELLED')),
  content_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  synced_at timestamptz NOT NULL DEFAULT now()
);

-- GET /api/procurement/{noticeId} (a Doffin id, a TED publication number or an eForms id).
CREATE INDEX procurement_notice_id ON procurement_notices (notice_id);
CREATE INDEX procurement_doffin_id ON procurement_notices (doffin_id);
CREATE INDEX procurement_ted_id ON procurement_notices (ted_id);
-- Linking a procedure's notices at ingest.
CREATE INDEX procurement_procedure ON procurement_notices (procedure_id);
-- Sorts (keyset on (expression, id)); deadlineAfter and publishedAfter ride on their sort index.
CREATE INDEX procurement_sort_published ON procurement_notices ((COALESCE(published_date, '-infinity'::timestamptz)), id);
CREATE INDEX procurement_sort_deadline ON procurement_notices ((COALESCE(deadline, '-infinity'::timestamptz)), id);
CREATE INDEX procurement_sort_value ON procurement_notices ((COALESCE(estimated_value, awarded_value, -1)), id);
-- orgNumber as buyer, and the company record's tender counts.
CREATE INDEX procurement_buyer ON procurement_notices (org_number, (COALESCE(published_date, '-infinity'::timestamptz)), id);
-- orgNumber as winner.
CREATE INDEX procurement_winners ON procurement_notices USING gin (winner_org_numbers);
CREATE INDEX procurement_cpv ON procurement_notices USING gin (cpv_prefixes);
CREATE INDEX procurement_title_trgm ON procurement_notices USING gin (title_norm gin_trgm_ops);
CREATE INDEX procurement_country ON procurement_notices (country, (COALESCE(published_date, '-infinity'::timestamptz)), id);
-- status=ACTIVE: open competitions by deadline.
CREATE INDEX procurement_open ON procurement_notices ((COALESCE(deadline, '-infinity'::timestamptz)), id) WHERE outcome IS NULL;
