-- The name-ordered walks of a search page check their filters in the index (issue 54,
-- BENCHMARKS.md "Migration 0037"). With Finland and Sweden loaded, an employee range in the
-- default name order walked companies_sort_name and read the heap row of every name it passed
-- (`minEmployees=10&maxEmployees=50`: 38 892 rows, 1.8 s cold), because the live name index
-- (0027) held no employee count; and a country-scoped NACE filter (`nace=62&country=NO`) walked
-- the cross-country live name index past 43 000 other rows (the Swedish "ab …" names sort
-- first), because the country-scoped one (0036) held no NACE code; and `nace=47&municipality=0301`
-- (~100 ms on 6.6 M) had the municipality's name index (0015) read each row's heap for its NACE
-- code and country, so the planner sorted a bitmap of the municipality instead. With the columns
-- in the indexes each walk is index-only. Each index replaces its predecessor, so a company
-- write updates no more indexes than before.
CREATE INDEX companies_name_live_v37 ON companies ((name_norm COLLATE "C"), id)
  INCLUDE (country, nace_code1, employee_count) WHERE NOT is_deleted;
DROP INDEX companies_name_live;
ALTER INDEX companies_name_live_v37 RENAME TO companies_name_live;
CREATE INDEX companies_country_name_live_v37 ON companies (country, (name_norm COLLATE "C"), id)
  INCLUDE (nace_code1, employee_count) WHERE NOT is_deleted;
DROP INDEX companies_country_name_live;
ALTER INDEX companies_country_name_live_v37 RENAME TO companies_country_name_live;
CREATE INDEX companies_municipality_name_live_v37 ON companies (business_address_muni_no, (name_norm COLLATE "C"), id)
  INCLUDE (country, nace_code1, employee_count) WHERE NOT is_deleted;
DROP INDEX companies_municipality_name_live;
ALTER INDEX companies_municipality_name_live_v37 RENAME TO companies_municipality_name_live;
