// Public API of the PRH open XBRL source (see README.md for the mapping rules).
export { createPrhXbrlClient, filingsOf, PRH_LISTING_START, type PrhFiling, type PrhXbrlClient } from './client.ts';
export { parsePrhXbrl, PrhXbrlError, PRH_LINE_ITEMS, type PrhKeyFigures } from './xbrl.ts';
