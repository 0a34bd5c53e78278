// Public API of the Swedish Bolagsverket bulk-file source (see README.md for the policies).
export {
  parseBolagsverketText,
  newBolagsverketStats,
  swedishOrgFormLabels,
  type BolagsverketParseOptions,
  type BolagsverketStats,
} from './parse-text.ts';
export { parseBolagsverketZip } from './zip.ts';
export { mapBolagsverketFields, BOLAGSVERKET_COLUMNS, type RowResult } from './map-row.ts';
export {
  splitBolagsverketLine,
  splitComposite,
  parseNames,
  parsePostalAddress,
  parsePendingProcedures,
} from './fields.ts';
export {
  generateBolagsverketText,
  generatedOrgNumber,
  expectedGeneratedCompanies,
  swedishCheckDigit,
} from './generate.ts';
