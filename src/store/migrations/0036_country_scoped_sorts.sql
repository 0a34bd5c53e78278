-- Sorted search pages scoped to one country, and to one organisation form, on a store holding
-- all four registers (issue 54, BENCHMARKS.md "How cost grows"). On the 6.6 M Nordic store the
-- name and updatedAt sort indexes hold every country's rows in one order: `country=NO&sort=updatedAt`
-- walked 5.46 M Danish and Swedish rows (loaded after Norway) before its first Norwegian one
-- (9.4 s cold), and `orgForm=AS` in name order skipped 214 000 Swedish "AB …" and Danish names
-- first. With the country (or the form) leading, the walk starts at the first matching row.
CREATE INDEX companies_country_name_live ON companies (country, name_norm COLLATE "C", id) WHERE NOT is_deleted;
CREATE INDEX companies_country_updated ON companies (country, updated_at, id);
CREATE INDEX companies_org_form_name_live ON companies (org_form_code, name_norm COLLATE "C", id) WHERE NOT is_deleted;
