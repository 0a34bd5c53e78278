-- Market context from the national statistics bureaus. One row per figure: a
-- municipality's (scope 'municipality', key = municipality code) or a NACE division's (scope
-- 'industry', key = division) latest value of a measure, with the table it came from, its
-- unit and reference year, and its vintage (when it was fetched). `statistics_tables` records
-- each table's id, title, unit, reference year, licence and URL. A bureau's rows are replaced
-- together, in one transaction, only after all its tables were fetched and read.
CREATE TABLE statistics_tables (
  country text NOT NULL,
  scope text NOT NULL,
  measure text NOT NULL,
  table_id text NOT NULL,
  title text NOT NULL,
  unit text NOT NULL,
  ref_year integer NOT NULL,
  source text NOT NULL,
  licence text NOT NULL,
  url text NOT NULL,
  updated text,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (country, scope, measure)
);

CREATE TABLE statistics_figures (
  country text NOT NULL,
  scope text NOT NULL,
  key text NOT NULL,
  measure text NOT NULL,
  value double precision NOT NULL,
  ref_year integer NOT NULL,
  table_id text NOT NULL,
  unit text NOT NULL,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (country, scope, key, measure)
);
