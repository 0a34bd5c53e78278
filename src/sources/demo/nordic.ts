// What the demo's Finnish, Swedish and Danish companies share (finland.ts, sweden.ts, denmark.ts
// write them in each register's own format): trades whose words fit their NACE class (TOL 2008
// and DB07 are both NACE based; the Swedish bulk file carries a description instead), name
// words, towns, and the three companies that own Norwegian demo companies.
import type { SeededRandom } from '../seeded-random.ts';

export const DEMO_FI = 300;
export const DEMO_SE = 300;
export const DEMO_DK = 200;

interface NordicTrade {
  fi: string;
  sv: string;
  da: string;
  en: string;
  /** NACE class (4 digits); TOL adds a digit, DB07 two. */
  nace: string;
  fiText: string;
  daText: string;
  seText: string;
}

export const TRADES: readonly NordicTrade[] = [
  {
    fi: 'Rakennus',
    sv: 'Bygg',
    da: 'Byg',
    en: 'Construction',
    nace: '4120',
    fiText: 'Asuin- ja muiden rakennusten rakentaminen',
    daText: 'Opførelse af bygninger',
    seText: 'Bolaget ska bedriva byggverksamhet samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Ohjelmisto',
    sv: 'Mjukvara',
    da: 'Software',
    en: 'Software',
    nace: '6201',
    fiText: 'Ohjelmistojen suunnittelu ja valmistus',
    daText: 'Computerprogrammering',
    seText: 'Bolaget ska utveckla och sälja programvara samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Ravintola',
    sv: 'Restaurang',
    da: 'Restaurant',
    en: 'Restaurant',
    nace: '5610',
    fiText: 'Ravintolat',
    daText: 'Restauranter',
    seText: 'Bolaget ska bedriva restaurangverksamhet samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Kiinteistöt',
    sv: 'Fastigheter',
    da: 'Ejendomme',
    en: 'Real estate',
    nace: '6820',
    fiText: 'Muiden kiinteistöjen vuokraus ja hallinta',
    daText: 'Udlejning af erhvervsejendomme',
    seText: 'Bolaget har till föremål för sin verksamhet att äga och förvalta fast egendom.',
  },
  {
    fi: 'Kuljetus',
    sv: 'Transport',
    da: 'Transport',
    en: 'Transport',
    nace: '4941',
    fiText: 'Tieliikenteen tavarankuljetus',
    daText: 'Vejgodstransport',
    seText: 'Bolaget ska bedriva godstransporter på väg samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Konsultointi',
    sv: 'Konsult',
    da: 'Rådgivning',
    en: 'Consulting',
    nace: '7022',
    fiText: 'Muu liikkeenjohdon konsultointi',
    daText: 'Virksomhedsrådgivning',
    seText: 'Bolaget ska bedriva konsultverksamhet inom företagsledning samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Sähkö',
    sv: 'El',
    da: 'El',
    en: 'Electrical',
    nace: '4321',
    fiText: 'Sähköasennus',
    daText: 'Elinstallation',
    seText: 'Bolaget ska utföra elinstallationer samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Leipomo',
    sv: 'Bageri',
    da: 'Bageri',
    en: 'Bakery',
    nace: '1071',
    fiText: 'Leipomotuotteiden valmistus',
    daText: 'Fremstilling af brød og friske bageriprodukter',
    seText: 'Bolaget ska bedriva bageri- och konditoriverksamhet samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Sijoitus',
    sv: 'Kapital',
    da: 'Invest',
    en: 'Holding',
    nace: '6420',
    fiText: 'Rahoitusalan holdingyhtiöiden toiminta',
    daText: 'Finansielle holdingselskaber',
    seText: 'Bolaget ska äga och förvalta aktier och andra värdepapper.',
  },
  {
    fi: 'Kampaamo',
    sv: 'Frisör',
    da: 'Frisør',
    en: 'Hairdresser',
    nace: '9602',
    fiText: 'Kampaamot',
    daText: 'Frisører',
    seText: 'Bolaget ska bedriva frisörverksamhet samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Siivous',
    sv: 'Städ',
    da: 'Rengøring',
    en: 'Cleaning',
    nace: '8121',
    fiText: 'Siivous',
    daText: 'Almindelig rengøring i bygninger',
    seText: 'Bolaget ska bedriva lokalvård och städning samt därmed förenlig verksamhet.',
  },
  {
    fi: 'Tilitoimisto',
    sv: 'Redovisning',
    da: 'Revision',
    en: 'Accounting',
    nace: '6920',
    fiText: 'Kirjanpito- ja tilinpäätöspalvelu',
    daText: 'Bogføring og revision',
    seText: 'Bolaget ska bedriva redovisningsverksamhet samt därmed förenlig verksamhet.',
  },
];

export const FI_WORDS = [
  'Pohjola',
  'Lumi',
  'Kivi',
  'Tuuli',
  'Meri',
  'Sampo',
  'Revontuli',
  'Koivu',
  'Järvi',
  'Ilves',
  'Aalto',
  'Kataja',
  'Saimaa',
  'Honka',
  'Kaleva',
  'Ahti',
  'Tapio',
  'Lakka',
  'Kuusi',
  'Vuokko',
  'Laine',
  'Routa',
  'Virta',
  'Kallio',
  'Hirvi',
];
export const SE_WORDS = [
  'Norrsken',
  'Fjäll',
  'Älv',
  'Skogs',
  'Havs',
  'Sten',
  'Björk',
  'Lövö',
  'Kust',
  'Dal',
  'Granit',
  'Ek',
  'Lind',
  'Mälar',
  'Vättern',
  'Solvik',
  'Bergs',
  'Hägg',
  'Sjö',
  'Ängs',
  'Ljung',
  'Tall',
  'Rönn',
  'Strand',
  'Udd',
];
export const DK_WORDS = [
  'Kyst',
  'Nordlys',
  'Bøge',
  'Klit',
  'Fjord',
  'Hede',
  'Mose',
  'Strand',
  'Eg',
  'Lyng',
  'Havn',
  'Sund',
  'Bakke',
  'Vestkyst',
  'Skov',
  'Marsk',
  'Ager',
  'Bølge',
  'Rav',
  'Limfjord',
  'Enge',
  'Holm',
  'Næs',
  'Vig',
  'Dal',
];

export const FI_TOWNS = [
  { fi: 'HELSINKI', sv: 'HELSINGFORS', code: '091', post: '00100', street: 'Mannerheimintie' },
  { fi: 'ESPOO', sv: 'ESBO', code: '049', post: '02100', street: 'Tapiontori' },
  { fi: 'TAMPERE', sv: 'TAMMERFORS', code: '837', post: '33100', street: 'Hämeenkatu' },
  { fi: 'TURKU', sv: 'ÅBO', code: '853', post: '20100', street: 'Aurakatu' },
  { fi: 'OULU', sv: 'ULEÅBORG', code: '564', post: '90100', street: 'Kauppurienkatu' },
];
export const SE_TOWNS = [
  ['STOCKHOLM', '11122', 'Drottninggatan'],
  ['GÖTEBORG', '41101', 'Kungsgatan'],
  ['MALMÖ', '21120', 'Södergatan'],
  ['UPPSALA', '75320', 'Svartbäcksgatan'],
  ['ÖSTERSUND', '83130', 'Storgatan'],
] as const;
export const DK_TOWNS = [
  { code: 101, name: 'KØBENHAVN', post: 1050, district: 'København K', street: 'Bredgade' },
  { code: 157, name: 'GENTOFTE', post: 2900, district: 'Hellerup', street: 'Strandvejen' },
  { code: 751, name: 'AARHUS', post: 8000, district: 'Aarhus C', street: 'Søndergade' },
  { code: 461, name: 'ODENSE', post: 5000, district: 'Odense C', street: 'Vestergade' },
  { code: 851, name: 'AALBORG', post: 9000, district: 'Aalborg', street: 'Boulevarden' },
];

/** The foreign owners of the Norwegian register that are demo companies of these registers. */
export const PINNED = { FI: 'Pohjola Sijoitus Oy', SE: 'Norrsken Kapital AB', DK: 'Kystholm Invest ApS' } as const;

export const pad = (n: number) => String(n).padStart(2, '0');
export const date = (r: SeededRandom, from: number, to: number) =>
  `${r.int(from, to)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`;

export function uniqueName(
  r: SeededRandom,
  taken: Set<string>,
  words: readonly string[],
  word: string,
  suffix: string,
): string {
  for (let attempt = 0; ; attempt++) {
    const w2 = attempt > 8 ? ` ${r.pick(words)}` : '';
    // Unique without the legal form: "X Bygg AB" and "X Bygg HB" would be one name to a user.
    const base = `${r.pick(words)}${w2} ${word}`;
    if (!taken.has(base.toUpperCase())) {
      taken.add(base.toUpperCase());
      return `${base} ${suffix}`;
    }
  }
}
