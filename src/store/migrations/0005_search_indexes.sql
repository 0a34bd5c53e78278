-- One index for every search filter and sort of GET /api/companies and /api/updates, and no
-- more: every index costs on the ingest of 1.2M rows. Sorts are keyset-paginated on
-- (sort expression, id); NULL-able sort columns sort by a COALESCE expression so one index
-- serves both directions and the keyset comparison stays a plain row comparison.
-- Names sort and prefix-match in byte order (COLLATE "C"), the same on both engines
-- (PGlite's database is C); æ, ø, å sort after z, as in Norwegian.
CREATE INDEX companies_sort_name ON companies ((name_norm COLLATE "C"), id);          -- sort=name, q prefix (1–2 chars)
CREATE INDEX companies_sort_employees ON companies ((COALESCE(employee_count, -1)), id); -- sort=employeeCount, min/maxEmployees
CREATE INDEX companies_sort_founding ON companies ((COALESCE(founding_date, DATE '0001-01-01')), id); -- sort=foundingDate
-- companies_updated (updated_at, id) from 0002: sort=updatedAt and /api/updates.
-- companies_name_trgm (GIN, from 0002): q substring.
CREATE INDEX companies_nace ON companies (nace_code1 COLLATE "C");                        -- nace code or prefix
CREATE INDEX companies_org_form ON companies (org_form_code);                             -- orgForm
CREATE INDEX companies_municipality ON companies (business_address_muni_no);              -- municipality
CREATE INDEX companies_county ON companies ((left(business_address_muni_no, 2)));        -- county
CREATE INDEX companies_revenue ON companies (latest_revenue) WHERE latest_revenue IS NOT NULL; -- min/maxRevenue
-- Rare flags: small partial indexes ordered like the default sort.
CREATE INDEX companies_bankrupt ON companies ((name_norm COLLATE "C"), id) WHERE is_bankrupt;
CREATE INDEX companies_in_group ON companies ((name_norm COLLATE "C"), id) WHERE is_in_group;
CREATE INDEX companies_ad_pixel ON companies ((name_norm COLLATE "C"), id) WHERE has_ad_pixel;
CREATE INDEX companies_technologies ON companies USING gin (technology_names) WHERE technology_names <> '{}'; -- hasTechnology
-- companies_parent (partial, from 0002): hasParent=true.
