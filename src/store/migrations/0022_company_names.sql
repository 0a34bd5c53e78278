-- Name history of companies, for name -> organisation number matching: the names a
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

-- Candidate retrieval for name matching on a Norway-size store. A pg_trgm `%` lookup on
-- companies.name_norm was measured at 1.2–4.5 s per name on the generated 1.2M store (tens of
-- thousands of index hits rechecked on the heap), far too slow for 100 names per call. Instead,
-- names are looked up by their words: the GIN index holds each name's words, folded so that
-- Nordic letters and their ASCII spellings meet (æ/ae -> e, ø/oe -> o, å/aa -> a, ä -> a, ö -> o,
-- accents dropped), and a query finds the names holding all of its words (`@>`), or all but one
-- (store/company-names.ts). The same function folds the query's words, so both sides agree.
CREATE FUNCTION company_name_words(name text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT string_to_array(
    btrim(regexp_replace(
      translate(
        regexp_replace(regexp_replace(regexp_replace(lower(name), 'aa', 'a', 'g'), 'ae', 'e', 'g'), 'oe', 'o', 'g'),
        'æøåäöüéèêëáàâíìîóòôúùûç',
        'eoaaoueeeeaaaiiiooouuuc'),
      '[^a-z0-9]+', ' ', 'g')),
    ' ')
$$;
CREATE INDEX companies_name_words ON companies USING gin (company_name_words(name_norm));
