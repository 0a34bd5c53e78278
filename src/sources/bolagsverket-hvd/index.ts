// Public API of the Bolagsverket high-value-datasets source (see README.md for the mapping rules).
export {
  createBolagsverketApi,
  documentsOf,
  reklamsparrOf,
  type BolagsverketApi,
  type BolagsverketDocument,
} from './client.ts';
export { parseSeIxbrl, IxbrlError, SE_CONCEPTS, type SeKeyFigures } from './ixbrl.ts';
export { ixNumber, IxNumberError } from './ix-number.ts';
export { readReportZip } from './report-zip.ts';
