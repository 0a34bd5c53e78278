-- Market context, round 2. A figure names the level it was published at: a municipality, a
-- NACE division, a NACE section, or the bureau's own grouping (Statistics Denmark's DB07
-- 10-grouping), with the bureau's label of that section or grouping; a startup survival rate
-- names the cohort (the year the firms started). A table record whose metadata check failed (a
-- row the evidence could not confirm) says why in `unavailable` and has no reference year.
ALTER TABLE statistics_figures ADD COLUMN level text NOT NULL DEFAULT 'division';
ALTER TABLE statistics_figures ADD COLUMN label text;
ALTER TABLE statistics_figures ADD COLUMN cohort integer;
UPDATE statistics_figures SET level = 'municipality' WHERE scope = 'municipality';
ALTER TABLE statistics_tables ALTER COLUMN ref_year DROP NOT NULL;
ALTER TABLE statistics_tables ADD COLUMN unavailable text;
