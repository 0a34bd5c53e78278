// Deterministic Bolagsverket bulk-file text for tests and benchmarks, produced lazily (a 3 M-row
// file never sits in memory). Quirks of the real file are included on purpose: quoted fields with
// `""` escapes and stray quotes, several names, c/o addresses, sole traders, very long names.
import { Readable } from 'node:stream';
import { randomDate, seededRng, type Rng } from '../nordic-generate.ts';
import { BOLAGSVERKET_COLUMNS } from './map-row.ts';

interface GenerateBolagsverketOptions {
  /** Wrap every field in quotes as the real file does (default true). */
  quoted?: boolean;
}

const FORMS = ['AB', 'AB', 'AB', 'AB', 'HB', 'KB', 'EK', 'BRF', 'I', 'S'];
const WORDS = ['Norrsken', 'Fjäll', 'Älv', 'Skog', 'Hav', 'Sten', 'Björk', 'Lövö', 'Kust', 'Dal', 'Ö', 'Granit'];
const TOWNS = [
  ['STOCKHOLM', '11122'],
  ['GÖTEBORG', '41101'],
  ['MALMÖ', '21120'],
  ['UPPSALA', '75320'],
  ['ÖSTERSUND', '83130'],
];
const DESCRIPTIONS = [
  'Bolaget ska bedriva konsultverksamhet inom IT samt därmed förenlig verksamhet.',
  'Föreningen har till ändamål att främja medlemmarnas ekonomiska intressen genom "bostäder".',
  'Handel med skärmar om 24" och tillbehör; import och export.',
  'Bolaget har till föremål för sin verksamhet att äga och förvalta fast egendom.',
  '',
];

/** Luhn check digit for a 9-digit body, as Swedish org numbers use. */
export function swedishCheckDigit(body9: string): number {
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let d = Number(body9[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** The org number of generated row `i` (unique for i < 400 M). */
export function generatedOrgNumber(i: number): string {
  const body = String(556_000_000 + i);
  return body + swedishCheckDigit(body);
}

function row(rng: Rng, i: number, previousOrg: string): string[] {
  const registered = randomDate(rng, 1960, 2025);
  if (i % 10 === 9) {
    // Sole trader under a (synthetic) personnummer: the parser must skip it.
    const pnr = `19${rng.int(40, 99)}${String(rng.int(1, 12)).padStart(2, '0')}${String(rng.int(1, 28)).padStart(2, '0')}${rng.int(1000, 9999)}`;
    const [town, post] = rng.pick(TOWNS);
    return [
      `${pnr}$PERSON-IDORG`,
      '1',
      'SE-LAND',
      `Firma ${rng.pick(WORDS)}$FORETAGSNAMN-ORGNAM$${registered}`,
      'E-ORGFO',
      '',
      '',
      '',
      registered,
      'Hantverk.',
      `Gatan 1$$${town}$${post}$SE-LAND`,
    ];
  }
  const duplicate = i % 100 === 51;
  const org = duplicate ? previousOrg : generatedOrgNumber(i);
  const form = rng.pick(FORMS);
  const suffix = form === 'AB' ? ' AB' : form === 'HB' ? ' HB' : form === 'KB' ? ' KB' : '';
  let name = `${rng.pick(WORDS)} ${rng.pick(WORDS)}${suffix}`;
  if (i % 1000 === 500) name = `${name} ${'Mycket långt namn '.repeat(1200)}`.trim(); // ~23 k chars, as in the real file
  let names = `${name}$FORETAGSNAMN-ORGNAM$${registered}`;
  if (i % 7 === 3) names = `${rng.pick(WORDS)} Ltd$FORNAMN_FRSPRAK-ORGNAM$${registered}|${names}`;
  const deregistered = i % 20 === 3;
  const dereg = deregistered ? randomDate(rng, 2000, 2025) : '';
  const reason = deregistered ? rng.pick(['AVREG-AVORG', 'KKAV-AVORG', 'FUAV-AVORG', 'LIAV-AVORG']) : '';
  const pending =
    !deregistered && i % 50 === 7
      ? 'KK-AVOMFO$2025-01-01'
      : !deregistered && i % 50 === 17
        ? 'LI-AVOMFO$2025-02-01'
        : '';
  const [town, post] = rng.pick(TOWNS);
  const co = rng.chance(0.1) ? `c/o ${rng.pick(WORDS)} Redovisning` : '';
  const address = rng.chance(0.05) ? '' : `${rng.pick(WORDS)}gatan ${rng.int(1, 99)}$${co}$${town}$${post}$SE-LAND`;
  return [
    `${org}$ORGNR-IDORG`,
    duplicate ? '1' : '',
    'SE-LAND',
    names,
    `${form}-ORGFO`,
    dereg,
    reason,
    pending,
    registered,
    rng.pick(DESCRIPTIONS),
    address,
  ];
}

// The real file leaves some quotes unescaped inside quoted values (inch marks); so do we.
const quote = (f: string) => (f.includes('24"') ? `"${f}"` : `"${f.replaceAll('"', '""')}"`);
// Without quoting a ';' inside a value would split it, so the unquoted variant avoids them.
const bare = (f: string) => f.replaceAll(';', ',');

/**
 * `count` data rows after the header. Deterministic per seed. Row i is a sole trader when
 * i % 10 === 9 (skipped by the parser) and repeats the previous org number with
 * namnskyddslöpnummer 1 when i % 100 === 51 (dropped as a duplicate); every other row is a
 * distinct organisation, number `generatedOrgNumber(i)`.
 */
export function generateBolagsverketText(
  count: number,
  seed: number,
  options: GenerateBolagsverketOptions = {},
): Readable {
  const quoted = options.quoted ?? true;
  const rng = seededRng(seed);
  async function* chunks(): AsyncGenerator<string> {
    yield `${BOLAGSVERKET_COLUMNS.join(';')}\n`;
    let batch = '';
    let previousOrg = generatedOrgNumber(0);
    for (let i = 0; i < count; i++) {
      const fields = row(rng, i, previousOrg);
      if (i % 10 !== 9) previousOrg = fields[0].split('$')[0];
      batch += fields.map(quoted ? quote : bare).join(';') + '\n';
      if (batch.length > 64 * 1024) {
        yield batch;
        batch = '';
      }
    }
    if (batch) yield batch;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Rows of `generateBolagsverketText(count, …)` that the parser emits as companies. */
export function expectedGeneratedCompanies(count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) if (i % 10 !== 9 && i % 100 !== 51) n++;
  return n;
}
