-- Search mix on a Norway-size store (BENCHMARKS.md). A municipality or NACE filter
-- with the default name order used to read every matching row from the heap and sort them:
-- municipality 5610 (2 486 companies) 10–16 ms warm and 120 ms cold, NACE 62 (5 789) 12 ms warm
-- and 80 ms cold. The municipality index hands rows out already in name order (the LIMIT stops
-- after one page: 0.2 ms); the NACE index covers the name and id, so a prefix range is sorted
-- from index tuples alone without touching the heap (1.7 ms). Both hold live rows only, as the
-- API's default does; first loads drop and rebuild them with the others (deferred-indexes.ts).
CREATE INDEX companies_municipality_name_live ON companies (business_address_muni_no, (name_norm COLLATE "C"), id) WHERE NOT is_deleted;
CREATE INDEX companies_nace_live ON companies ((nace_code1 COLLATE "C")) INCLUDE (name_norm, id) WHERE NOT is_deleted;
