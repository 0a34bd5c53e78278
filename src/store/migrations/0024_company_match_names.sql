-- Name matching on a Norway-size store (issue 28, speed). The word lookup of migration 0022 found
-- the right names through a GIN index on companies, but ranking them by trigram similarity read
-- every company row holding a query's words: hundreds of scattered ~500-byte rows per common
-- word pair, most not in shared buffers, which made a 100-name batch cost ~0.9 s at p95.
-- company_match_names holds only what the lookup reads (the current name and its folded words),
-- one narrow row per company, so those visits touch few pages that stay cached, and the words
-- are stored rather than recomputed. store/company-writes.ts keeps it in step with companies
-- (the same transaction as the write; a purge cascades).
CREATE TABLE company_match_names (
  company_id bigint PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  country text NOT NULL,
  name_norm text NOT NULL,
  words text[] NOT NULL
);
INSERT INTO company_match_names (company_id, country, name_norm, words)
SELECT id, country, name_norm, company_name_words(name_norm) FROM companies;
CREATE INDEX company_match_names_words ON company_match_names USING gin (words);
-- Replaced by the index above; companies no longer pays for it on every write.
DROP INDEX companies_name_words;
