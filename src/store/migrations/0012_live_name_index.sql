-- Name search (q, 3+ characters) on a Norway-size store. The trigram index finds every match,
-- but a frequent substring ("fjord": 27 807 of 1.2M names) then fetches and sorts every match
-- (≈ 350 ms); walking the name-sorted btree instead visits the heap for every name it passes
-- (1.4 s when the matches sit late in the alphabet). This covering partial index lets that walk
-- be an index-only scan: the LIKE, the country and the live-row condition are checked on index
-- tuples and only the page's rows are read from the heap (≈ 35 ms). The keyset query selects ids
-- first so the planner can use it (store/keyset.ts); sync runs VACUUM so the visibility map is
-- set after a load.
CREATE INDEX companies_name_live ON companies ((name_norm COLLATE "C"), id) INCLUDE (country) WHERE NOT is_deleted;
