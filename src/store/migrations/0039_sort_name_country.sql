-- A match candidate's name reaches its companies index-only (issue 54, BENCHMARKS.md "Match
-- candidates' companies index-only"). The join of company-names.ts (country and name) had only
-- companies_sort_name (name, id, migration 0005) to use, so it read the heap row of every company
-- bearing each ranked name, for its country: on the Norwegian bench store a 4-query statement
-- spent 245 of its 269 ms there (13 names, 1 977 heap blocks). With the country in the index the
-- join reads no heap. Replaces the index under its name, so a company write updates no more
-- indexes than before; sort=name with includeDeleted keeps its walk.
CREATE INDEX companies_sort_name_v39 ON companies ((name_norm COLLATE "C"), id) INCLUDE (country);
DROP INDEX companies_sort_name;
ALTER INDEX companies_sort_name_v39 RENAME TO companies_sort_name;
