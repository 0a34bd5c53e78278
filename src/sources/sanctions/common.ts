// Helpers shared by the sanctions parsers: the error type, partial birth dates, country codes.
import type { SanctionSchema } from '../../domain/screening/types.ts';

export class SanctionsParseError extends Error {
  constructor(
    /** Where: "entities.ftm.json line 12", "EU FSF sanctionEntity #3 (line 40)". */
    readonly location: string,
    message: string,
  ) {
    super(`${location}: ${message}`);
    this.name = 'SanctionsParseError';
  }
}

const SCREENED_SCHEMATA: ReadonlySet<string> = new Set<SanctionSchema>([
  'Person',
  'Organization',
  'Company',
  'LegalEntity',
]);

export const isScreenedSchema = (s: unknown): s is SanctionSchema => typeof s === 'string' && SCREENED_SCHEMATA.has(s);

const PARTIAL_DATE = /^(\d{4})(?:-(\d{2}))?/;

/**
 * 'YYYY' or 'YYYY-MM' from an upstream date ('1965', '1965-03', '1965-03-23', '1965-03-23T…').
 * The day is dropped on purpose: the service stores no full birth dates, and screening only
 * compares years. Returns null for anything that does not start like a date.
 */
export function partialBirthDate(value: string): string | null {
  const m = PARTIAL_DATE.exec(value.trim());
  if (!m || m[1] === '0000') return null;
  const month = m[2] && m[2] !== '00' && Number(m[2]) <= 12 ? m[2] : undefined;
  return month ? `${m[1]}-${month}` : m[1];
}

/** ISO-2 lower case, or null (FtM also uses codes such as 'suhh' or 'zz-unk' for historic/unknown). */
export function iso2(code: string | undefined | null): string | null {
  const c = (code ?? '').trim().toLowerCase();
  return /^[a-z]{2}$/.test(c) && c !== 'zz' && c !== 'xx' && c !== '00' ? c : null;
}

/** Trimmed, non-empty, first occurrence kept, in order. */
export function uniqueStrings(values: Iterable<string | null | undefined>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const v of values) {
    const t = (v ?? '').replace(/\s+/g, ' ').trim();
    if (t && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  }
  return out;
}

// Upstream lists contain stray punctuation as "names" (a weak alias ":" in OpenSanctions).
const hasLetterOrDigit = (s: string) => /[\p{L}\p{N}]/u.test(s);

/** Aliases without the primary name and without duplicates; weak ones without strong ones. */
export function splitNames(primary: string, strong: Iterable<string>, weak: Iterable<string>) {
  const aliases = uniqueStrings(strong).filter((n) => n !== primary && hasLetterOrDigit(n));
  const known = new Set([primary, ...aliases]);
  const weakAliases = uniqueStrings(weak).filter((n) => !known.has(n) && hasLetterOrDigit(n));
  return { aliases, weakAliases };
}
