// The categories of the nightly completeness snapshot (GET /api/coverage), one row per country
// and category. Shared by the store that counts them and the contract that lists them.
export const COVERAGE_CATEGORIES = [
  'companies',
  'financials',
  'roles',
  'subUnits',
  'shareholders',
  'licenses',
  'inspections',
  'domains',
  'technologies',
  'screeningLists',
  'procurement',
] as const;
export type CoverageCategory = (typeof COVERAGE_CATEGORIES)[number];
