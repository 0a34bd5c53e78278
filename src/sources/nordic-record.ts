// The one record shape that the Finnish (PRH/YTJ) and Swedish (Bolagsverket) parsers map to, so
// the store and sync jobs above them handle both countries with the same code. Plus the two small
// helpers both parsers share: strict calendar dates and a bounded log of rejected records.

export interface NordicAddress {
  street: string | null;
  postalCode: string | null;
  city: string | null;
  municipalityCode: string | null;
  countryCode: string | null;
}

export interface NordicCompanyRecord {
  country: 'FI' | 'SE';
  /** FI "NNNNNNN-N", SE 10 digits. */
  orgNumber: string;
  name: string;
  /** FI: PRH company form code e.g. "16"; SE: "AB" (from "AB-ORGFO"). */
  orgFormCode: string | null;
  orgFormDescription: string | null;
  /** FI mainBusinessLine.type (TOIMI4 / TOL 2008); SE: null (SCB overlay is not in the bulk file). */
  naceCode1: string | null;
  naceDescription1: string | null;
  businessAddress: NordicAddress | null;
  postalAddress: NordicAddress | null;
  website: string | null;
  /** YYYY-MM-DD */
  registrationDate: string | null;
  /** YYYY-MM-DD */
  deregistrationDate: string | null;
  isDeregistered: boolean;
  isBankrupt: boolean;
  /** Liquidation, or being absorbed in a merger/division. */
  isBeingDissolved: boolean;
  status: NordicCompanyStatus;
  /** SE verksamhetsbeskrivning. */
  description: string | null;
  /** ISO timestamp when upstream gives one (PRH lastModified). */
  lastModified: string | null;
  /** Names beside the current one, where the source keeps them (PRH names[]); absent otherwise. */
  otherNames?: NordicOtherName[];
}

/** A former name (with the date it ended) or a parallel/auxiliary name of a company. */
export interface NordicOtherName {
  name: string;
  kind: 'former' | 'parallel' | 'auxiliary';
  /** YYYY-MM-DD */
  validFrom: string | null;
  /** YYYY-MM-DD */
  validTo: string | null;
}

/**
 * Most severe situation wins: deregistered > bankruptcy > liquidation > merger > restructuring >
 * registered. "merger" = the company is the transferring party of a merger or division, so it will
 * cease; "restructuring" = reorganisation (FI saneeraus, SE företagsrekonstruktion), it goes on.
 */
export type NordicCompanyStatus =
  'registered' | 'deregistered' | 'bankruptcy' | 'liquidation' | 'merger' | 'restructuring';

/**
 * A calendar date "YYYY-MM-DD" (leading/trailing blanks ignored). Empty → null. Anything else,
 * including impossible dates like 2023-02-30, throws so the caller can reject the record by name.
 */
export function parseIsoDate(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const s = value.trim();
  if (s === '') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    // Date.UTC rolls 02-30 over to 03-02; comparing back catches impossible days and months.
    const t = new Date(Date.UTC(y, mo - 1, d));
    if (y >= 1000 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d) return s;
  }
  throw new Error(`invalid date ${JSON.stringify(s.slice(0, 40))} (expected YYYY-MM-DD)`);
}

/**
 * Counts records a bulk parser could not map and keeps the first few reasons. A handful of bad
 * rows among millions must not throw away a whole sync, but a file that is mostly bad is the
 * wrong file: past `maxRejected` the parser aborts with the samples in the message.
 */
export class RejectLog {
  rejected = 0;
  readonly samples: string[] = [];

  constructor(
    readonly source: string,
    readonly maxRejected = 10_000,
    readonly maxSamples = 10,
  ) {}

  add(where: string, reason: string): void {
    this.rejected++;
    if (this.samples.length < this.maxSamples) this.samples.push(`${where}: ${reason}`);
    if (this.rejected > this.maxRejected) {
      throw new Error(
        `${this.source}: more than ${this.maxRejected} rejected records, giving up; first: ${this.samples.join(' | ')}`,
      );
    }
  }
}

/** Trimmed string, or null when absent/blank. Upstream JSON is untyped, so accept anything. */
export function text(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return s === '' ? null : s;
}
