// Deterministic generator of licence import files (docs/licenses-import-format.md) for demo data
// and benchmarks: CSV by default, or NDJSON / a JSON array with the same records.
import { Readable } from 'node:stream';
import { POSTAL_PLACES, seededRandom, type SeededRandom } from '../seeded-random.ts';
import { LICENSE_FIELDS, type LicenseField } from './license-types.ts';

interface LicenseGenerateOptions {
  /** Licence holders; a venue is usually the holder's own sub-unit-like place. */
  companies: readonly { orgNumber: string; name: string }[];
  seed: number;
  /** Licences per company are drawn from 0..max. Default 2. */
  maxLicensesPerCompany?: number;
  /** Validity starts are drawn from this year range (inclusive). Default 2016–2024. */
  fromYear?: number;
  toYear?: number;
}

type Row = Record<LicenseField, string | string[] | null>;

const VENUE_KINDS = ['Bar', 'Restaurant', 'Kafé', 'Pub', 'Bistro', 'Kiosk', 'Dagligvare'] as const;
const STREETS = ['Storgata', 'Kongens gate', 'Torggata', 'Sjøgata', 'Dronningens gate', 'Øvre Slottsgate'] as const;

interface Kind {
  registerType: 'Alkoholsbevilling' | 'Tobakksbevilling';
  code: string;
  groups: readonly (readonly string[])[];
  byMunicipality: boolean; // issued by the municipality (else by Helsedirektoratet)
  weight: number;
}

/** The licence kinds we generate, with the product groups they cover. */
const KINDS: readonly Kind[] = [
  {
    registerType: 'Alkoholsbevilling',
    code: '01SKJE',
    groups: [['GRP1'], ['GRP1', 'GRP2'], ['GRP1', 'GRP2', 'GRP3']],
    byMunicipality: true,
    weight: 0.7,
  },
  {
    registerType: 'Alkoholsbevilling',
    code: '11ENGR',
    groups: [['GRP1', 'GRP2', 'GRP3']],
    byMunicipality: false,
    weight: 0.1,
  },
  { registerType: 'Tobakksbevilling', code: '18TBIM', groups: [['TROY', 'TINN']], byMunicipality: false, weight: 0.1 },
  {
    registerType: 'Tobakksbevilling',
    code: '19TBEK',
    groups: [['TROY'], ['TINN'], ['TROY', 'TINN']],
    byMunicipality: false,
    weight: 0.1,
  },
];

function pickKind(rnd: SeededRandom) {
  let x = rnd.next();
  for (const k of KINDS) {
    if (x < k.weight) return k;
    x -= k.weight;
  }
  return KINDS[0];
}

function makeRows(
  company: { orgNumber: string; name: string },
  opts: Required<Omit<LicenseGenerateOptions, 'companies' | 'seed'>>,
  rnd: SeededRandom,
  next: () => number,
): Row[] {
  const rows: Row[] = [];
  const count = rnd.int(0, opts.maxLicensesPerCompany);
  for (let i = 0; i < count; i++) {
    const kind = pickKind(rnd);
    const place = rnd.pick(POSTAL_PLACES);
    const year = rnd.int(opts.fromYear, opts.toYear);
    const month = String(rnd.int(1, 12)).padStart(2, '0');
    // Skjenkebevillinger usually run until 30 September of the year after a municipal election
    // (alkoholloven § 1-6): …2020, 2024, 2028.
    const endYear = kind.code === '01SKJE' ? year + 4 - ((year - 2024 + 400) % 4) : year + rnd.int(1, 10);
    rows.push({
      licenseNumber: String(next()),
      registerType: kind.registerType,
      licenseTypeCode: kind.code,
      licenseTypeDescription: null, // filled by the parser's code table
      orgNumber: company.orgNumber,
      holderName: company.name,
      venueName:
        kind.code === '01SKJE'
          ? `${rnd.pick(VENUE_KINDS)} ${company.name.replace(/\s+(AS|ASA|ANS|DA)$/i, '')}`
          : company.name,
      venueOrgNumber: null,
      productGroups: [...rnd.pick(kind.groups)],
      address: `${rnd.pick(STREETS)} ${rnd.int(1, 80)}`,
      postnr: place.code,
      poststed: place.place,
      municipality: place.municipality,
      municipalityNo: place.municipalityNo,
      issuingAuthority: kind.byMunicipality ? `${place.municipality} kommune` : 'Helsedirektoratet',
      validFrom: `${year}-${month}-01`,
      validTo: `${endYear}-09-30`,
    });
  }
  return rows;
}

const csvField = (v: string | string[] | null) => {
  const s = v === null ? '' : Array.isArray(v) ? v.join('|') : v;
  return /[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * Returns licence records as a UTF-8 byte stream: `csv` (default; with BOM and header), `ndjson`,
 * or `json` (one array). Same options and seed → same bytes.
 */
export function generateLicensesCsv(
  options: LicenseGenerateOptions,
  format: 'csv' | 'ndjson' | 'json' = 'csv',
): Readable {
  const opts = {
    maxLicensesPerCompany: options.maxLicensesPerCompany ?? 2,
    fromYear: options.fromYear ?? 2016,
    toYear: options.toYear ?? 2024,
  };
  const rnd = seededRandom(options.seed);
  let serial = 100_000 + rnd.int(0, 99_999);
  const next = () => serial++;
  async function* chunks() {
    if (format === 'csv') yield `\uFEFF${LICENSE_FIELDS.join(';')}\n`;
    if (format === 'json') yield '[';
    let first = true;
    for (const company of options.companies) {
      const rows = makeRows(company, opts, rnd, next);
      if (rows.length === 0) continue;
      if (format === 'csv') yield rows.map((r) => `${LICENSE_FIELDS.map((f) => csvField(r[f])).join(';')}\n`).join('');
      else if (format === 'ndjson') yield rows.map((r) => `${JSON.stringify(r)}\n`).join('');
      else {
        yield `${first ? '\n' : ',\n'}${rows.map((r) => JSON.stringify(r)).join(',\n')}`;
        first = false;
      }
    }
    if (format === 'json') yield '\n]\n';
  }
  async function* bytes() {
    for await (const s of chunks()) yield Buffer.from(s, 'utf8');
  }
  return Readable.from(bytes(), { objectMode: false });
}
