// Deterministic generator of Mattilsynet smilefjes `tilsyn` CSV in the upstream layout (BOM, `;`,
// header, quoting only where needed), for demo data and benchmarks. Includes the upstream quirks
// the parser handles: exact duplicate rows, blank total_karakter, blank org numbers, 4/5 grades.
import { Readable } from 'node:stream';
import { POSTAL_PLACES, seededRandom, type SeededRandom } from '../seeded-random.ts';
import { INSPECTION_COLUMNS } from './parse.ts';

interface InspectionGenerateOptions {
  /** Venues to inspect; orgNumber null gives the blank orgnummer seen upstream. */
  venues: readonly { orgNumber: string | null; name: string }[];
  seed: number;
  /** Visits per venue are drawn from 1..max. Default 3. */
  maxInspectionsPerVenue?: number;
  /** Inclusive date range, YYYY-MM-DD. Default 2022-01-01 … 2024-12-31. */
  from?: string;
  to?: string;
  /** Share of rows written twice, as upstream sometimes does. Default 0.02. */
  duplicateRate?: number;
}

const THEMES = [
  ['Rutiner og ledelse', 'Rutinar og leiing'],
  ['Lokaler og utstyr', 'Lokale og utstyr'],
  ['Mathåndtering og tilberedning', 'Mathandtering og tilbereiing'],
  ['Merking og sporbarhet', 'Merking og sporbarheit'],
] as const; // nynorsk names are our own rendering, not copied from upstream

const STREETS = [
  'Storgata',
  'Kongens gate',
  'Bryggen',
  'Søndre gate',
  'Torget',
  'Strandveien',
  'Kirkegata',
  'Fjordgata',
];
const ID_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Mattilsynet-style ids: "Z" + 19 digits + 5 capitals (+ a type suffix). */
function upstreamId(rnd: SeededRandom): string {
  let s = 'Z';
  for (let i = 0; i < 19; i++) s += String(rnd.int(0, 9));
  for (let i = 0; i < 5; i++) s += ID_LETTERS[rnd.int(0, 25)];
  return s;
}

/** Quotes a field only when it must be (`;`, `"` or a line break), doubling inner quotes. */
const csvField = (s: string) => (/[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

function grade(rnd: SeededRandom, theme: number): number {
  const x = rnd.next();
  if (theme === 4 && x < 0.15) return 4; // labelling is often not relevant (ikke aktuelt)
  if (x < 0.02) return 5;
  if (x < 0.55) return 0;
  if (x < 0.85) return 1;
  return x < 0.96 ? 2 : 3;
}

function ddmmyyyy(epochDay: number): string {
  const d = new Date(epochDay * 86_400_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}${p(d.getUTCMonth() + 1)}${d.getUTCFullYear()}`;
}

function venueRows(
  venue: InspectionGenerateOptions['venues'][number],
  opts: Required<Omit<InspectionGenerateOptions, 'venues' | 'seed'>>,
  rnd: SeededRandom,
): string[] {
  const place = rnd.pick(POSTAL_PLACES);
  const venueId = `${upstreamId(rnd)}_Tilsynsobjekt`;
  const street = `${rnd.pick(STREETS)} ${rnd.int(1, 120)}`;
  const extra = rnd.chance(0.1) ? `${rnd.int(1, 4)}. etasje` : '';
  const first = Math.floor(Date.parse(`${opts.from}T00:00:00Z`) / 86_400_000);
  const last = Math.floor(Date.parse(`${opts.to}T00:00:00Z`) / 86_400_000);
  const rows: string[] = [];
  const visits = rnd.int(1, opts.maxInspectionsPerVenue);
  for (let v = 0; v < visits; v++) {
    const grades = [1, 2, 3, 4].map((t) => grade(rnd, t));
    const real = grades.filter((g) => g <= 3);
    const worst = real.length ? Math.max(...real) : 0;
    // Upstream sometimes leaves total_karakter blank; the parser derives it then.
    const total = rnd.chance(0.03) && real.length ? '' : String(worst);
    const fields = [
      venueId,
      venue.orgNumber ?? '',
      venue.name,
      street,
      extra,
      place.code,
      place.place,
      `${upstreamId(rnd)}_TilsynAvtale`,
      `${rnd.int(2019, 2024)}/${String(rnd.int(1, 99999)).padStart(5, '0')}`,
      '0',
      ddmmyyyy(rnd.int(first, last)),
      total,
      v > 0 && rnd.chance(0.2) ? '1' : '0',
      ...THEMES.flatMap(([no, nn], i) => [no, nn, String(grades[i])]),
    ];
    const row = fields.map(csvField).join(';');
    rows.push(row);
    if (rnd.chance(opts.duplicateRate)) rows.push(row);
  }
  return rows;
}

/** Returns the CSV as a UTF-8 byte stream with BOM and `\n` line ends. Same options → same bytes. */
export function generateInspectionsCsv(options: InspectionGenerateOptions): Readable {
  const opts = {
    maxInspectionsPerVenue: options.maxInspectionsPerVenue ?? 3,
    from: options.from ?? '2022-01-01',
    to: options.to ?? '2024-12-31',
    duplicateRate: options.duplicateRate ?? 0.02,
  };
  if (Number.isNaN(Date.parse(opts.from)) || Number.isNaN(Date.parse(opts.to)) || opts.from > opts.to) {
    throw new Error(`invalid date range ${opts.from} … ${opts.to}`);
  }
  const rnd = seededRandom(options.seed);
  async function* chunks() {
    yield Buffer.from(`\uFEFF${INSPECTION_COLUMNS.join(';')}\n`, 'utf8');
    for (const venue of options.venues)
      yield Buffer.from(
        venueRows(venue, opts, rnd)
          .map((r) => `${r}\n`)
          .join(''),
        'utf8',
      );
  }
  return Readable.from(chunks(), { objectMode: false });
}
