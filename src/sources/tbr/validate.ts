// Turns one record of the licence import format (a CSV row or a JSON object, already keyed by
// field name) into a LicenseRecord, validating strictly: the format is ours, so anything
// unexpected is an error in the export, and it is better to stop than to load half-wrong data.
import { isValidNorwegianOrgNumber } from '../../domain/org-number.ts';
import {
  describeLicenseType,
  isProductGroup,
  LICENSE_FIELD_ALIASES,
  LICENSE_FIELDS,
  REGISTER_TYPES,
  REQUIRED_LICENSE_FIELDS,
  type LicenseField,
  type ProductGroup,
  type RegisterType,
} from './license-types.ts';

export interface LicenseRecord {
  line: number; // line (CSV/NDJSON) or array index + 1 (JSON array)
  licenseNumber: string;
  registerType: RegisterType;
  orgNumber: string | null; // holder, 9 digits
  holderName: string | null;
  venueName: string | null;
  venueOrgNumber: string | null;
  licenseTypeCode: string; // opaque, e.g. 01SKJE, 11ENGR, 18TBIM, 19TBEK
  licenseTypeDescription: string | null;
  productGroups: ProductGroup[];
  address: string | null;
  postnr: string | null;
  poststed: string | null;
  municipality: string | null;
  municipalityNo: string | null; // 4 digits
  issuingAuthority: string | null;
  validFrom: string | null; // ISO 8601 timestamp (UTC, as Date#toISOString gives)
  validTo: string | null;
}

export class LicenseParseError extends Error {
  constructor(
    readonly line: number,
    /** The offending field, or null for errors about the whole record or file. */
    readonly field: string | null,
    message: string,
  ) {
    super(`Licence import line ${line}${field ? `, field ${field}` : ''}: ${message}`);
    this.name = 'LicenseParseError';
  }
}

const MAX_TEXT = 500;

/** Resolves a CSV header name or JSON key to a field, or null when unknown. */
export function resolveField(name: string): LicenseField | null {
  if ((LICENSE_FIELDS as readonly string[]).includes(name)) return name as LicenseField;
  return Object.hasOwn(LICENSE_FIELD_ALIASES, name) ? LICENSE_FIELD_ALIASES[name] : null;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** `YYYY-MM-DD` (read as midnight UTC) or a full ISO timestamp with zone → `toISOString()`. */
export function parseLicenseDate(raw: string): string | null {
  const m = DATE_RE.exec(raw);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d))
    return null;
  if (h === undefined) return day.toISOString();
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return null;
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 18 || Number(offset.slice(4)) > 59)) return null;
  const ms = (frac ?? '').padEnd(3, '0').slice(0, 3);
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}.${ms}${offset}`).toISOString();
}

class Fields {
  constructor(
    private readonly raw: Partial<Record<LicenseField, unknown>>,
    private readonly line: number,
  ) {}

  fail(field: LicenseField, message: string): never {
    throw new LicenseParseError(this.line, field, message);
  }

  /** Trimmed text, or null when absent/blank. Only strings (and null) are accepted. */
  text(field: LicenseField): string | null {
    const v = this.raw[field];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') this.fail(field, `must be a string, got ${JSON.stringify(v)}`);
    const t = v.trim();
    if (t.length > MAX_TEXT) this.fail(field, `is longer than ${MAX_TEXT} characters`);
    return t === '' ? null : t;
  }

  required(field: LicenseField): string {
    return this.text(field) ?? this.fail(field, 'is required');
  }

  matching(field: LicenseField, re: RegExp, what: string): string | null {
    const t = this.text(field);
    if (t !== null && !re.test(t)) this.fail(field, `must be ${what}, got "${t}"`);
    return t;
  }

  orgNumber(field: LicenseField): string | null {
    const t = this.text(field);
    if (t !== null && !isValidNorwegianOrgNumber(t))
      this.fail(field, `must be a 9-digit organisation number with a valid check digit, got "${t}"`);
    return t;
  }

  date(field: LicenseField): string | null {
    const t = this.text(field);
    if (t === null) return null;
    return parseLicenseDate(t) ?? this.fail(field, `must be YYYY-MM-DD or an ISO 8601 timestamp with zone, got "${t}"`);
  }

  productGroups(): ProductGroup[] {
    const v = this.raw.productGroups;
    let items: unknown[];
    if (v === undefined || v === null) items = [];
    else if (typeof v === 'string')
      items = v.split('|'); // CSV
    else if (Array.isArray(v))
      items = v; // JSON
    else this.fail('productGroups', 'must be a list of codes');
    const out: ProductGroup[] = [];
    for (const item of items) {
      if (typeof item !== 'string') this.fail('productGroups', `has a non-text entry ${JSON.stringify(item)}`);
      const code = item.trim().toUpperCase();
      if (code === '' && typeof v === 'string') continue; // "" or "GRP1||GRP2" from CSV
      if (!isProductGroup(code))
        this.fail('productGroups', `unknown product group "${item}" (known: GRP1, GRP2, GRP3, TROY, TINN)`);
      if (!out.includes(code)) out.push(code);
    }
    return out;
  }
}

/** Validates one record keyed by field name (aliases already resolved). */
export function toLicenseRecord(raw: Partial<Record<LicenseField, unknown>>, line: number): LicenseRecord {
  // Orakel stores the number as an int; accept JSON integers and keep the text form.
  const n = raw.licenseNumber;
  const f = new Fields(
    typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? { ...raw, licenseNumber: String(n) } : raw,
    line,
  );
  for (const field of REQUIRED_LICENSE_FIELDS) f.required(field);
  const licenseNumber = f.matching(
    'licenseNumber',
    /^[0-9A-Za-z][0-9A-Za-z._/-]{0,39}$/,
    'letters, digits and . _ / - (at most 40)',
  )!;

  const registerType = f.required('registerType');
  if (!(REGISTER_TYPES as readonly string[]).includes(registerType)) {
    f.fail('registerType', `must be ${REGISTER_TYPES.join(' or ')}, got "${registerType}"`);
  }
  const licenseTypeCode = f.matching('licenseTypeCode', /^[0-9A-Za-z]{1,16}$/, 'a code of letters and digits')!;
  const validFrom = f.date('validFrom');
  const validTo = f.date('validTo');
  if (validFrom !== null && validTo !== null && validFrom > validTo) {
    f.fail('validTo', `is before validFrom (${validFrom} > ${validTo})`);
  }

  return {
    line,
    licenseNumber,
    registerType: registerType as RegisterType,
    orgNumber: f.orgNumber('orgNumber'),
    holderName: f.text('holderName'),
    venueName: f.text('venueName'),
    venueOrgNumber: f.orgNumber('venueOrgNumber'),
    licenseTypeCode,
    licenseTypeDescription: f.text('licenseTypeDescription') ?? describeLicenseType(licenseTypeCode),
    productGroups: f.productGroups(),
    address: f.text('address'),
    postnr: f.matching('postnr', /^\d{4}$/, 'a 4-digit postal code'),
    poststed: f.text('poststed'),
    municipality: f.text('municipality'),
    municipalityNo: f.matching('municipalityNo', /^\d{4}$/, 'a 4-digit municipality number'),
    issuingAuthority: f.text('issuingAuthority'),
    validFrom,
    validTo,
  };
}
