// Deterministic generator of Aksjonærregisteret CSV in the real upstream layout (BOM, `;`, no
// quoting) for demo data and benchmarks. It reproduces the real quirks the parser must survive:
// " " as "no number", blank names, `;` inside foreign addresses, unbalanced quotes in names and
// several share classes per company.
import { Readable } from 'node:stream';
import { FIRST_NAMES, LAST_NAMES, POSTAL_PLACES, seededRandom, type SeededRandom } from '../seeded-random.ts';
import { SHAREHOLDER_COLUMNS } from './parse.ts';

interface ShareholderGenerateOptions {
  /** Investee companies; company holders are drawn from the same list. */
  companies: readonly { orgNumber: string; name: string }[];
  seed: number;
  /** Write the `Landkode` column (files from about 2021 on). Default true. */
  withCountryColumn?: boolean;
  /** Holders per share class are drawn from 1..max. Default 6. */
  maxHoldersPerClass?: number;
}

// Foreign holders as they appear in real files: "code, place", sometimes with `;` in the place.
const FOREIGN_HOLDERS = [
  { name: 'NORDISK KAPITAL AB', postal: '114 35, STOCKHOLM', country: 'SE' },
  { name: 'PARIR AB', postal: 'S-51, Tranemo; Sverige', country: 'SE' },
  { name: 'UAB "BALTIC HOLD', postal: '08240, Vilnius', country: 'LT' },
  { name: 'DANSK EJENDOM APS', postal: '2100, KØBENHAVN Ø', country: 'DK' },
  { name: 'FJORD CAPITAL LTD', postal: 'EC2V 7HH, LONDON; UNITED KINGDOM', country: 'GB' },
  { name: 'SUOMI SIJOITUS OY', postal: '00100, HELSINKI', country: 'FI' },
] as const;

const TOTALS = [100, 1_000, 3_000, 30_000, 100_000, 1_000_000, 25_000_000] as const;

// The file has no quoting, so a `;` or line break in a name would corrupt the row.
const clean = (s: string) => s.replace(/[;\r\n]/g, ' ');

/** Splits `total` into `parts` positive integers (total >= parts), in random proportions. */
function split(total: number, parts: number, rnd: SeededRandom): number[] {
  const weights = Array.from({ length: parts }, () => 1 + rnd.int(0, 99));
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.max(1, Math.floor((total * w) / sum)));
  const diff = total - out.reduce((a, b) => a + b, 0);
  out[0] += diff; // keep the sum exact: ownership adds up to 100 %
  if (out[0] < 1) return [total, ...Array(parts - 1).fill(0)].filter((n) => n > 0);
  return out;
}

function* companyLines(
  company: { orgNumber: string; name: string },
  opts: Required<Omit<ShareholderGenerateOptions, 'seed'>>,
  rnd: SeededRandom,
): Generator<string> {
  const classes = rnd.chance(0.15) ? ['A-aksjer', 'B-aksjer'] : ['Ordinære aksjer'];
  for (const cls of classes) {
    const total = rnd.pick(TOTALS);
    const holders = Math.min(total, rnd.int(1, opts.maxHoldersPerClass));
    for (const count of split(total, holders, rnd)) {
      let name: string;
      let id: string;
      let postal: string;
      let country: string;
      const kind = rnd.next();
      if (kind < 0.45 && opts.companies.length > 1) {
        // Any other company of the list (index shifted past the investee itself).
        let i = rnd.int(0, opts.companies.length - 1);
        if (opts.companies[i].orgNumber === company.orgNumber) i = (i + 1) % opts.companies.length;
        const holder = opts.companies[i];
        const place = rnd.pick(POSTAL_PLACES);
        [name, id, postal, country] = [
          holder.name.toUpperCase(),
          holder.orgNumber,
          `${place.code} ${place.place}`,
          'NO',
        ];
      } else if (kind < 0.9) {
        const place = rnd.pick(POSTAL_PLACES);
        // About 1 in 100 person rows has a blank name, as in the real files.
        const full = `${rnd.pick(FIRST_NAMES)} ${rnd.pick(LAST_NAMES)}`.toLocaleUpperCase('nb');
        name = rnd.chance(0.01) ? ' ' : full;
        [id, postal, country] = [String(rnd.int(1935, 2005)), `${place.code} ${place.place}`, 'NO'];
      } else {
        const f = rnd.pick(FOREIGN_HOLDERS);
        [name, id, postal, country] = [f.name, ' ', f.postal, f.country];
      }
      const fields = [company.orgNumber, clean(company.name), cls, clean(name), id, postal];
      if (opts.withCountryColumn) fields.push(country);
      fields.push(String(count), String(total));
      yield fields.join(';');
    }
  }
}

/**
 * Returns the CSV as a byte stream: UTF-8 with BOM, CRLF line ends (so consumers' CRLF handling
 * is exercised). Generated lazily, company by company, so a million companies stream fine.
 * Same options and seed → same bytes.
 */
export function generateShareholderCsv(options: ShareholderGenerateOptions): Readable {
  const opts = {
    companies: options.companies,
    withCountryColumn: options.withCountryColumn ?? true,
    maxHoldersPerClass: options.maxHoldersPerClass ?? 6,
  };
  const rnd = seededRandom(options.seed);
  const header = opts.withCountryColumn ? SHAREHOLDER_COLUMNS : SHAREHOLDER_COLUMNS.filter((c) => c !== 'Landkode');
  async function* chunks() {
    yield Buffer.from(`\uFEFF${header.join(';')}\r\n`, 'utf8');
    for (const company of opts.companies) {
      const lines = [...companyLines(company, opts, rnd)];
      yield Buffer.from(lines.map((l) => `${l}\r\n`).join(''), 'utf8');
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
