// Streaming parser for Skatteetaten's Aksjonærregisteret CSV ("aksjeeierbok").
// Format (FORMATS.md §3): UTF-8 with BOM, `;` separated, NO quoting at all — a `"` is a literal
// character and may be unbalanced — so this splits lines itself instead of using a CSV library
// (which would swallow the rest of the file after an unbalanced quote).
import type { Readable } from 'node:stream';
import { isValidNorwegianOrgNumber } from '../../domain/org-number.ts';
import { readLines } from '../text-lines.ts';

export interface ShareholderRow {
  line: number; // 1-based physical line in the file
  orgNumber: string; // 9 digits (the investee)
  companyName: string;
  shareClass: string;
  holderType: 'company' | 'person' | 'foreign';
  holderName: string | null; // null when blank
  holderOrgNumber: string | null; // 9-digit org number for company holders only
  holderBirthYear: number | null; // persons only (4-digit year)
  postalCode: string | null; // Norwegian "0150" or foreign text before the comma
  postalPlace: string | null;
  countryCode: string | null; // ISO-2 upper case when given
  shareCount: number;
  totalSharesInCompany: number | null;
}

export class ShareholderParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`Aksjonærregisteret CSV line ${line}: ${message}`);
    this.name = 'ShareholderParseError';
  }
}

/** Column names with `Landkode` (files from about 2021 on) and without (older files). */
export const SHAREHOLDER_COLUMNS = [
  'Orgnr',
  'Selskap',
  'Aksjeklasse',
  'Navn aksjonær',
  'Fødselsår/orgnr',
  'Postnr/sted',
  'Landkode',
  'Antall aksjer',
  'Antall aksjer selskap',
] as const;
const COLUMNS_WITHOUT_COUNTRY = SHAREHOLDER_COLUMNS.filter((c) => c !== 'Landkode');
const POSTAL_INDEX = 5; // where surplus `;` from foreign addresses belong

const normaliseHeader = (s: string) => s.trim().normalize('NFC').toLowerCase();

function detectHeader(text: string): boolean {
  const got = text.split(';').map(normaliseHeader);
  const same = (want: readonly string[]) =>
    got.length === want.length && want.every((w, i) => normaliseHeader(w) === got[i]);
  if (same(SHAREHOLDER_COLUMNS)) return true;
  if (same(COLUMNS_WITHOUT_COUNTRY)) return false;
  throw new ShareholderParseError(
    1,
    `unknown header "${text.slice(0, 200)}"; expected "${SHAREHOLDER_COLUMNS.join(';')}" (Landkode optional)`,
  );
}

/**
 * Splits "0150 OSLO" into code and place; foreign values are "code, place" ("08240, Vilnius",
 * "S-51, Tranemo; Sverige") so the text before the first comma is the code.
 */
export function splitPostal(raw: string): { postalCode: string | null; postalPlace: string | null } {
  const s = raw.trim();
  if (s === '') return { postalCode: null, postalPlace: null };
  const comma = s.indexOf(',');
  if (comma >= 0) {
    const code = s.slice(0, comma).trim();
    const place = s.slice(comma + 1).trim();
    return { postalCode: code || null, postalPlace: place || null };
  }
  // "0150 OSLO", or a foreign "10680 STOCKHOLM" without comma: a first token with a digit is a code.
  const m = /^(\S*\d\S*)\s+(.+)$/.exec(s);
  if (m) return { postalCode: m[1], postalPlace: m[2].trim() };
  if (/\d/.test(s)) return { postalCode: s, postalPlace: null };
  return { postalCode: null, postalPlace: s };
}

function parseCount(value: string, line: number, column: string, optional: boolean): number | null {
  const s = value.trim();
  if (s === '' && optional) return null;
  if (!/^\d+$/.test(s)) throw new ShareholderParseError(line, `${column} must be a whole number, got "${value}"`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new ShareholderParseError(line, `${column} is too large: "${value}"`);
  return n;
}

function parseCountry(value: string, line: number): string | null {
  const s = value.trim().toUpperCase();
  if (s === '') return null;
  if (!/^[A-Z]{2}$/.test(s))
    throw new ShareholderParseError(line, `Landkode must be a two-letter ISO code, got "${value}"`);
  return s;
}

/** Turns the split fields of one data line (already folded to the expected count) into a row. */
function toRow(f: string[], hasCountry: boolean, line: number): ShareholderRow {
  const [orgnr, company, shareClass, name, idField, postal] = f;
  const countryField = hasCountry ? f[6] : '';
  const [sharesField, totalField] = hasCountry ? [f[7], f[8]] : [f[6], f[7]];

  const orgNumber = orgnr.trim();
  if (!isValidNorwegianOrgNumber(orgNumber)) {
    throw new ShareholderParseError(
      line,
      `Orgnr must be a 9-digit organisation number with a valid check digit, got "${orgnr}"`,
    );
  }
  const companyName = company.trim();
  if (companyName === '') throw new ShareholderParseError(line, 'Selskap (company name) is blank');
  const cls = shareClass.trim();
  if (cls === '') throw new ShareholderParseError(line, 'Aksjeklasse (share class) is blank');

  const countryCode = parseCountry(countryField, line);
  const id = idField.trim(); // " " (one space) is the register's way of saying "none"
  let holderType: ShareholderRow['holderType'];
  let holderOrgNumber: string | null = null;
  let holderBirthYear: number | null = null;
  if (/^\d{9}$/.test(id)) {
    if (!isValidNorwegianOrgNumber(id)) {
      throw new ShareholderParseError(line, `Fødselsår/orgnr "${id}" has 9 digits but an invalid check digit`);
    }
    holderType = 'company';
    holderOrgNumber = id;
  } else if (/^\d{4}$/.test(id)) {
    holderType = 'person';
    holderBirthYear = Number(id);
  } else if (id === '') {
    // Norwegian holders are identified by birth year (Folkeregisteret) or org number
    // (Enhetsregisteret), and every Norwegian company has an org number. So a blank number with
    // Landkode NO is most likely a natural person whose birth year is missing: call it a person,
    // which also errs on the side of privacy (persons are hidden by default). A blank number with
    // another Landkode, or in an old file without Landkode, is the register's foreign holder.
    holderType = countryCode === 'NO' ? 'person' : 'foreign';
  } else {
    throw new ShareholderParseError(
      line,
      `Fødselsår/orgnr must be a 4-digit year, a 9-digit org number or blank, got "${idField}"`,
    );
  }

  const { postalCode, postalPlace } = splitPostal(postal);
  const shareCount = parseCount(sharesField, line, 'Antall aksjer', false)!;
  const totalSharesInCompany = parseCount(totalField, line, 'Antall aksjer selskap', true);
  const holderName = name.trim() || null;

  // Data minimisation: a person row carries name, birth year, postal code/place and country
  // only — which is all the file has besides the holding itself. No org number for persons.
  return {
    line,
    orgNumber,
    companyName,
    shareClass: cls,
    holderType,
    holderName,
    holderOrgNumber,
    holderBirthYear,
    postalCode,
    postalPlace,
    countryCode,
    shareCount,
    totalSharesInCompany,
  };
}

/** Splits a data line on `;` and folds surplus fields (from `;` in foreign addresses) into Postnr/sted. */
function splitShareholderLine(text: string, expected: number): string[] | null {
  const parts = text.split(';');
  if (parts.length < expected) return null;
  if (parts.length === expected) return parts;
  const surplus = parts.length - expected;
  const postal = parts.slice(POSTAL_INDEX, POSTAL_INDEX + surplus + 1).join(';');
  return [...parts.slice(0, POSTAL_INDEX), postal, ...parts.slice(POSTAL_INDEX + surplus + 1)];
}

/**
 * Streams the rows of an Aksjonærregisteret CSV. Blank lines are skipped; any malformed line
 * throws ShareholderParseError naming the line (an incomplete import is worse than none).
 */
export async function* parseShareholderCsv(input: Readable): AsyncGenerator<ShareholderRow> {
  let hasCountry: boolean | undefined;
  let expected = 0;
  for await (const { line, text } of readLines(input)) {
    if (hasCountry === undefined) {
      hasCountry = detectHeader(text);
      expected = hasCountry ? SHAREHOLDER_COLUMNS.length : COLUMNS_WITHOUT_COUNTRY.length;
      continue;
    }
    if (text.trim() === '') continue;
    const fields = splitShareholderLine(text, expected);
    if (!fields) {
      throw new ShareholderParseError(
        line,
        `expected ${expected} fields separated by ";", got ${text.split(';').length}`,
      );
    }
    yield toRow(fields, hasCountry, line);
  }
  if (hasCountry === undefined) throw new ShareholderParseError(1, 'file is empty (no header line)');
}
