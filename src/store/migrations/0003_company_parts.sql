-- Change detection per part of a company record: the core hash lives in content_hash; roles
-- and the sub-unit list have their own, so an ingest that supplies only some parts (a bulk
-- dump has no roles) never mistakes a missing part for a change. Financial rows are compared
-- row by row (years accumulate; an ingest may carry only the latest).
ALTER TABLE companies ADD COLUMN roles_hash text;
ALTER TABLE companies ADD COLUMN sub_units_hash text;
-- When the record was last fetched from its registry (live lookups refresh stale copies).
ALTER TABLE companies ADD COLUMN fetched_at timestamptz;
CREATE INDEX financials_company_period ON financials (company_id, period_to DESC);
