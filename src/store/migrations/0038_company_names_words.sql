-- Former names are looked up by their words, as current names are (0024), not by trigram
-- similarity (issue 54, BENCHMARKS.md "Former names by their words"). With Finland's register
-- loaded (137 779 other names), each country-unknown probe of a 100-name match batch took the
-- trigram index's ~3 400 near names, rechecked them on ~110 heap blocks and ranked them: ~8.7 ms
-- a probe, so the batch went from 0.28 s on the Norwegian store to 0.87 s. A words lookup takes
-- the names holding the probe's words (or a misspelt word's neighbours), like the current names.
-- The column is generated, so every writer of company_names fills it without knowing.
ALTER TABLE company_names ADD COLUMN words text[] GENERATED ALWAYS AS (company_name_words(name_norm)) STORED;
CREATE INDEX company_names_words ON company_names USING gin (words);
DROP INDEX company_names_trgm;
