// Maps the 11 fields of one Bolagsverket bulk-file row to the shared Nordic record.
import { isValidSwedishOrgNumber } from '../../domain/org-number.ts';
import { parseIsoDate, type NordicCompanyRecord, type NordicCompanyStatus } from '../nordic-record.ts';
import {
  codeOf,
  parseIdentity,
  parseNames,
  parsePendingProcedures,
  parsePostalAddress,
  primaryName,
} from './fields.ts';

export const BOLAGSVERKET_COLUMNS = [
  'organisationsidentitet',
  'namnskyddslopnummer',
  'registreringsland',
  'organisationsnamn',
  'organisationsform',
  'avregistreringsdatum',
  'avregistreringsorsak',
  'pagandeAvvecklingsEllerOmstruktureringsforfarande',
  'registreringsdatum',
  'verksamhetsbeskrivning',
  'postadress',
] as const;

/** Identity types that name an organisation. Everything else identifies a person, or is unknown. */
const ORGANISATION_IDENTITY_TYPES = new Set(['ORGNR', 'GDNR']);
const MERGING_AWAY = new Set(['FUOL', 'DEOL']); // transferring company in a merger / division

export type RowResult =
  | { kind: 'record'; record: NordicCompanyRecord; namnskyddslopnummer: number | null }
  | { kind: 'person' }
  | { kind: 'other-identity'; type: string };

/**
 * Never returns the number of a person: sole traders (`PERSON-IDORG`, samordningsnummer, estates)
 * come back as `{kind: 'person'}` without it, and so does an `ORGNR` whose month digits (3rd–4th)
 * are below 20 — every legal-entity number has them ≥ 20, a personnummer never does.
 * Throws an Error saying what is wrong for a malformed row.
 */
export function mapBolagsverketFields(fields: string[], orgFormLabels: ReadonlyMap<string, string>): RowResult {
  if (fields.length !== BOLAGSVERKET_COLUMNS.length) {
    throw new Error(`expected ${BOLAGSVERKET_COLUMNS.length} fields, got ${fields.length}`);
  }
  const [
    identity,
    seqText,
    ,
    namesText,
    formText,
    deregText,
    deregReasonText,
    pendingText,
    regText,
    descText,
    addrText,
  ] = fields;

  const id = parseIdentity(identity);
  if (id.type === null || !ORGANISATION_IDENTITY_TYPES.has(id.type)) {
    if (id.type === 'PERSON' || id.type === 'SAMORDNR' || id.type === 'DODSBO') return { kind: 'person' };
    if (id.type === null) throw new Error('organisationsidentitet has no type (expected NUMBER$TYPE-IDORG)');
    return { kind: 'other-identity', type: id.type };
  }
  let orgNumber = id.number;
  if (/^16\d{10}$/.test(orgNumber)) orgNumber = orgNumber.slice(2); // "16" century prefix of legal entities
  if (!/^\d{10}$/.test(orgNumber)) {
    // 12 digits under an ORGNR label can only be a personnummer with century: never echo it.
    if (/^\d{12}$/.test(orgNumber)) return { kind: 'person' };
    throw new Error(`organisationsidentitet is not 10 digits`);
  }
  if (Number(orgNumber.slice(2, 4)) < 20) return { kind: 'person' };
  if (!isValidSwedishOrgNumber(orgNumber)) throw new Error(`organisation number ${orgNumber} fails the Luhn check`);

  const seq = seqText.trim();
  if (seq !== '' && !/^\d+$/.test(seq))
    throw new Error(`namnskyddslopnummer ${JSON.stringify(seq.slice(0, 20))} is not a number`);

  const name = primaryName(parseNames(namesText));
  if (!name) throw new Error(`${orgNumber}: organisationsnamn is empty`);

  const date = (field: string, v: string) => {
    try {
      return parseIsoDate(v);
    } catch (err) {
      throw new Error(`${orgNumber}: ${field}: ${(err as Error).message}`, { cause: err });
    }
  };
  const deregistrationDate = date('avregistreringsdatum', deregText);
  const registrationDate = date('registreringsdatum', regText);
  const deregReason = codeOf(deregReasonText.split('$')[0] ?? '');
  const pending = new Set(parsePendingProcedures(pendingText).map((p) => p.code));

  const isDeregistered = deregistrationDate !== null;
  const isBankrupt = pending.has('KK') || deregReason === 'KKAV';
  const inLiquidation = pending.has('LI');
  const mergingAway = [...pending].some((c) => MERGING_AWAY.has(c));
  const status: NordicCompanyStatus = isDeregistered
    ? 'deregistered'
    : pending.has('KK')
      ? 'bankruptcy'
      : inLiquidation
        ? 'liquidation'
        : mergingAway
          ? 'merger'
          : pending.has('FR') || pending.has('AC')
            ? 'restructuring'
            : 'registered';

  const formCode = codeOf(formText);
  const addr = parsePostalAddress(addrText);
  const street = addr
    ? [addr.careOf ? (/^c\/o\b/i.test(addr.careOf) ? addr.careOf : `c/o ${addr.careOf}`) : null, addr.street]
        .filter(Boolean)
        .join(', ') || null
    : null;
  const description = descText.trim();
  return {
    kind: 'record',
    namnskyddslopnummer: seq === '' ? null : Number(seq),
    record: {
      country: 'SE',
      orgNumber,
      name,
      orgFormCode: formCode,
      orgFormDescription: formCode ? (orgFormLabels.get(formCode) ?? null) : null,
      naceCode1: null,
      naceDescription1: null,
      businessAddress: null,
      postalAddress:
        addr && (street || addr.city || addr.postalCode)
          ? {
              street,
              postalCode: addr.postalCode,
              city: addr.city,
              municipalityCode: null,
              countryCode: addr.countryCode,
            }
          : null,
      website: null,
      registrationDate,
      deregistrationDate,
      isDeregistered,
      isBankrupt,
      isBeingDissolved: !isDeregistered && (inLiquidation || mergingAway),
      status,
      description: description === '' ? null : description,
      lastModified: null,
    },
  };
}
