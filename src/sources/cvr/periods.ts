// Reading CVR's time-versioned lists: each fact is a list of entries with a validity period, the
// current entry has `gyldigTil: null`. Shared by the company mapper and the participant mapper.
import { parseIsoDate, text } from '../nordic-record.ts';
import type { CvrAdresse, CvrDated } from './types.ts';
import type { Address } from '../../domain/company.ts';

export const list = <T>(v: T[] | null | undefined): T[] =>
  Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : [];

export const isCurrent = (x: CvrDated): boolean => !text(x.periode?.gyldigTil);

const from = (x: CvrDated) => text(x.periode?.gyldigFra) ?? '';

/** The entry valid now (latest start), else — for a ceased company — the last one that was. */
export function currentOrLast<T extends CvrDated>(items: T[] | null | undefined): T | null {
  const all = list(items);
  const byStart = [...all].sort((a, b) => from(b).localeCompare(from(a)));
  return byStart.find(isCurrent) ?? byStart[0] ?? null;
}

/** The entry valid now, or null. */
export function current<T extends CvrDated>(items: T[] | null | undefined): T | null {
  const c = currentOrLast(items);
  return c && isCurrent(c) ? c : null;
}

/** A date field ("YYYY-MM-DD"); throws naming the field when it is not a calendar date. */
export function dateOf(cvr: string, field: string, v: unknown): string | null {
  if (v !== undefined && v !== null && typeof v !== 'string') throw new Error(`CVR ${cvr}: ${field} is not a string`);
  try {
    return parseIsoDate(v as string | null | undefined);
  } catch (err) {
    throw new Error(`CVR ${cvr}: ${field}: ${(err as Error).message}`, { cause: err });
  }
}

const str = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? String(v) : text(v));

/** "Vejnavn 12A-14, 3. tv" from the address parts CVR stores separately. */
function streetOf(a: CvrAdresse): string | null {
  const vej = text(a.vejnavn);
  let street: string | null;
  if (vej) {
    const nr = [str(a.husnummerFra), str(a.husnummerTil)].filter(Boolean).join('-');
    const letter = [text(a.bogstavFra), text(a.bogstavTil)].filter(Boolean).join('-');
    const floor = [text(a.etage) ? `${text(a.etage)}.` : null, text(a.sidedoer)].filter(Boolean).join(' ');
    street = [[vej, `${nr}${letter}`].filter(Boolean).join(' '), floor].filter(Boolean).join(', ');
  } else if (text(a.postboks)) street = `Postboks ${text(a.postboks)}`;
  else street = text(a.fritekst);
  const co = text(a.conavn);
  if (co) street = [/^c\/o\b/i.test(co) ? co : `c/o ${co}`, street].filter(Boolean).join(', ');
  return street;
}

/** CVR address → ours; the kommune code is zero-padded to DST's three digits ("101"). */
export function addressOf(a: CvrAdresse | null): Address | null {
  if (!a) return null;
  const code = str(a.kommune?.kommuneKode);
  const postal = str(a.postnummer);
  const out: Address = {
    street: streetOf(a),
    postalCode: postal && /^\d{1,4}$/.test(postal) ? postal.padStart(4, '0') : postal,
    city: text(a.postdistrikt) ?? text(a.bynavn),
    municipality: text(a.kommune?.kommuneNavn),
    municipalityNumber: code && /^\d{1,3}$/.test(code) ? code.padStart(3, '0') : code,
    countryCode: text(a.landekode)?.toUpperCase() ?? null,
  };
  return Object.values(out).some((v) => v !== null) ? out : null;
}
