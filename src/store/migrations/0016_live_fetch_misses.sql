-- Negative cache of live fetches: numbers a registry answered "not found" (404) or "removed"
-- (410) for, remembered until `until` so repeated lookups and enrich calls of unknown numbers
-- cost no upstream request. Rows past `until` are ignored (nothing prunes them yet).
CREATE TABLE live_fetch_misses (
  source text NOT NULL,
  org_number text NOT NULL,
  until timestamptz NOT NULL,
  PRIMARY KEY (source, org_number)
);
CREATE INDEX live_fetch_misses_until ON live_fetch_misses (until);
