// Public API of the Finnish PRH/YTJ v3 source (see README.md for the mapping rules).
export { parsePrhCompany, pickDescription } from './map-company.ts';
export { parsePrhAllCompaniesZip, parsePrhJsonArray, newPrhRejectLog, type PrhParseOptions } from './all-companies.ts';
export {
  fetchPrhPage,
  iteratePrhCompanies,
  prhCompaniesUrl,
  PrhHttpError,
  PRH_DEFAULT_BASE_URL,
  type FetchLike,
  type PrhPagingOptions,
  type PrhQuery,
} from './client.ts';
export { generatePrhJsonArray, finnishCheckDigit } from './generate.ts';
export type { PrhCompany, PrhCompaniesPage } from './types.ts';
