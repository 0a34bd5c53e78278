// The demo's Finnish companies as PRH/YTJ v3 all_companies JSON (the shape of
// test/fixtures/prh and src/sources/prh/generate.ts): unique names, TOL 2008 codes that fit them.
import { seededRandom } from '../seeded-random.ts';
import { finnishCheckDigit } from '../prh/generate.ts';
import { date, DEMO_FI, FI_TOWNS, FI_WORDS, PINNED, TRADES, uniqueName } from './nordic.ts';

const FI_FORMS = [
  { type: '16', fi: 'Osakeyhtiö', sv: 'Aktiebolag', en: 'Limited company', suffix: 'Oy' },
  { type: '13', fi: 'Kommandiittiyhtiö', sv: 'Kommanditbolag', en: 'Limited partnership', suffix: 'Ky' },
] as const;
const descs = (d: { fi: string; sv: string; en: string }) => [
  { languageCode: '1', description: d.fi },
  { languageCode: '2', description: d.sv },
  { languageCode: '3', description: d.en },
];

/** Business IDs of the demo's Finnish companies, in order. */
export function finnishIds(count = DEMO_FI): string[] {
  const out: string[] = [];
  for (let body = 3_100_000; out.length < count; body++) {
    const check = finnishCheckDigit(String(body));
    if (check !== null) out.push(`${body}-${check}`);
  }
  return out;
}

/** PRH's all_companies JSON array for the demo. */
export function prhJson(seed: number, count = DEMO_FI): string {
  const r = seededRandom(seed * 13 + 1);
  const taken = new Set<string>();
  const ids = finnishIds(count);
  const items = ids.map((id, i) => {
    const trade = i === 0 ? TRADES.find((t) => t.nace === '6420')! : r.pick(TRADES);
    const form = i === 0 || r.chance(0.85) ? FI_FORMS[0] : FI_FORMS[1];
    const name = i === 0 ? PINNED.FI : uniqueName(r, taken, FI_WORDS, trade.fi, form.suffix);
    taken.add(name.replace(/ \S+$/, '').toUpperCase());
    const town = i === 0 ? FI_TOWNS[0] : r.pick(FI_TOWNS);
    const registered = date(r, 1985, 2023);
    const ceased = i > 0 && i % 37 === 0;
    const bankrupt = !ceased && i % 53 === 0 && i > 0;
    const postOffices = [
      { city: town.fi, languageCode: '1', municipalityCode: town.code },
      { city: town.sv, languageCode: '2', municipalityCode: town.code },
    ];
    return {
      businessId: { value: id, registrationDate: registered, source: '3' },
      names: [{ name, type: '1', registrationDate: registered, version: 1, source: '1' }],
      companyForms: [
        { type: form.type, descriptions: descs(form), registrationDate: registered, version: 1, source: '1' },
      ],
      ...(bankrupt ? { companySituations: [{ type: 'KONK', registrationDate: '2025-06-01', source: '1' }] } : {}),
      addresses: [
        {
          type: 1,
          street: town.street,
          buildingNumber: String(r.int(1, 80)),
          postCode: town.post,
          postOffices,
          registrationDate: registered,
          source: '0',
        },
      ],
      mainBusinessLine: {
        type: `${trade.nace}${trade.nace === '5610' ? '1' : '0'}`,
        descriptions: descs({ fi: trade.fiText, sv: trade.sv, en: trade.en }),
        typeCodeSet: 'TOIMI4',
        registrationDate: registered,
        source: '2',
      },
      ...(r.chance(0.4)
        ? {
            website: {
              url: `www.${name.split(' ')[0].toLowerCase().replace(/ä/g, 'a').replace(/ö/g, 'o')}${i}.fi`,
              registrationDate: registered,
              source: '1',
            },
          }
        : {}),
      tradeRegisterStatus: ceased ? '4' : '1',
      registrationDate: registered,
      ...(ceased ? { endDate: '2024-12-31' } : {}),
      lastModified: '2026-01-02T07:49:26',
    };
  });
  return `[\n${items.map((x) => JSON.stringify(x)).join(',\n')}\n]\n`;
}
