// The demo's Swedish companies as Bolagsverket's bulk text file (every field quoted, `$`-joined
// parts; see test/fixtures/bolagsverket): unique names, a description that fits each.
import { BOLAGSVERKET_COLUMNS } from '../bolagsverket/map-row.ts';
import { swedishCheckDigit } from '../bolagsverket/generate.ts';
import { seededRandom } from '../seeded-random.ts';
import { date, DEMO_SE, PINNED, SE_TOWNS, SE_WORDS, TRADES, uniqueName } from './nordic.ts';

/** Org numbers of the demo's Swedish companies, in order. */
export function swedishOrgNumbers(count = DEMO_SE): string[] {
  return Array.from({ length: count }, (_, i) => {
    const body = String(559_100_000 + i * 7);
    return body + swedishCheckDigit(body);
  });
}

/** Bolagsverket's bulk text for the demo: every field quoted, `$`-joined parts, as the real file. */
export function bolagsverketText(seed: number, count = DEMO_SE): string {
  const r = seededRandom(seed * 17 + 3);
  const taken = new Set<string>();
  const quote = (f: string) => `"${f.replaceAll('"', '""')}"`;
  const rows = swedishOrgNumbers(count).map((org, i) => {
    const trade = i === 0 ? TRADES.find((t) => t.nace === '6420')! : r.pick(TRADES);
    const form = i === 0 || r.chance(0.9) ? 'AB' : 'HB';
    const name = i === 0 ? PINNED.SE : uniqueName(r, taken, SE_WORDS, trade.sv, form);
    taken.add(name.replace(/ \S+$/, '').toUpperCase());
    const registered = date(r, 1975, 2023);
    const deregistered = i > 0 && i % 41 === 0;
    const [town, post, street] = i === 0 ? SE_TOWNS[0] : r.pick(SE_TOWNS);
    return [
      `${org}$ORGNR-IDORG`,
      '',
      'SE-LAND',
      `${name}$FORETAGSNAMN-ORGNAM$${registered}`,
      `${form}-ORGFO`,
      deregistered ? '2024-11-30' : '',
      deregistered ? 'AVREG-AVORG' : '',
      !deregistered && i % 59 === 7 ? 'KK-AVOMFO$2025-03-01' : '',
      registered,
      trade.seText,
      `${street} ${r.int(1, 90)}$$${town}$${post}$SE-LAND`,
    ]
      .map(quote)
      .join(';');
  });
  return `${BOLAGSVERKET_COLUMNS.join(';')}\n${rows.join('\n')}\n`;
}
