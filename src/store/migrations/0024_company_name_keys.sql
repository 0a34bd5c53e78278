-- Name matching on a Norway-size store (speed). The word lookup of migration 0022 found
-- the right names through a GIN index on companies, but ranking them by trigram similarity read
-- every company row holding a query's words: thousands of scattered ~500-byte rows for a common
-- word pair, which made a 100-name batch cost ~0.9 s at p95 on a quiet machine.
-- company_name_keys holds each distinct current name of a country once, with its folded words
-- (company_name_words, stored rather than recomputed): a lookup ranks these narrow rows and
-- reaches the companies of its best names through companies_sort_name (name_norm, migration
-- 0005). Many companies share a name (the generated 1.2M store has 64 497 distinct names), so
-- a common word pair ranks far fewer rows than companies. store/company-names.ts adds the names
-- of every company write in the same transaction; a name no company holds any more (after a
-- rename or purge) stays as a key and finds no company.
CREATE TABLE company_name_keys (
  country text NOT NULL,
  name_norm text NOT NULL,
  words text[] NOT NULL,
  PRIMARY KEY (country, name_norm)
);
INSERT INTO company_name_keys (country, name_norm, words)
SELECT country, name_norm, company_name_words(name_norm) FROM (SELECT DISTINCT country, name_norm FROM companies) n;
CREATE INDEX company_name_keys_words ON company_name_keys USING gin (words);
ANALYZE company_name_keys;
-- Replaced by the index above; companies no longer pays for it on every write.
DROP INDEX IF EXISTS companies_name_words;
