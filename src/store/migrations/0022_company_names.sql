-- Name history of companies, for name -> organisation number matching (issue 28): the names a
-- registry keeps beside the current one (PRH names[] with end dates; CVR's name history is
-- written through the same repository, store/company-names.ts). The current name stays on
-- companies.name / name_norm; this table holds the others. name_norm is lower-cased in code,
-- like companies.name_norm, and carries a trigram index for candidate retrieval.
CREATE TABLE company_names (
  id bigserial PRIMARY KEY,
  country text NOT NULL,
  org_number text NOT NULL,
  name text NOT NULL,
  name_norm text NOT NULL,
  kind text NOT NULL,            -- former | parallel | auxiliary
  valid_from date,
  valid_to date,
  source text NOT NULL,
  UNIQUE (country, org_number, source, kind, name_norm)
);
CREATE INDEX company_names_company ON company_names (country, org_number);
CREATE INDEX company_names_trgm ON company_names USING gin (name_norm gin_trgm_ops);
