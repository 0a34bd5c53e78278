// Public API of the Danish CVR source (see README.md for the mapping rules).
export { mapVirksomhed, documentOf, employeesOf, type CvrCompany } from './map-company.ts';
export { mapParticipants, ownershipBand, type CvrOwner } from './participants.ts';
export { parseCvrNdjson, newCvrRejectLog } from './ndjson.ts';
export {
  createCvrClient,
  requireCredentials,
  CvrError,
  CVR_COMPANY_INDEX,
  CVR_PUBLICATION_INDEX,
  CVR_DEFAULT_BASE_URL,
  type CvrClient,
  type CvrPage,
} from './client.ts';
export type { Vrvirksomhed } from './types.ts';
export { parseXbrlKeyFigures, toFinancialInput, XbrlError, XBRL_ELEMENTS, type XbrlKeyFigures } from './xbrl.ts';
export { publicationOf, fetchXbrl, type CvrPublication } from './publications.ts';
