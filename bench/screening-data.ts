// Deterministic data for the screening benchmark: an OpenSanctions-style FtM entities file
// (NDJSON, target and support entities, names from several naming traditions with
// transliteration variants, Cyrillic aliases, partial and full birth dates, PEP and sanction
// topics) and Norwegian companies with 10 screening subjects each (name, 5 role holders,
// 4 shareholders), some of whom are on the generated list under another spelling.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { FIRST_NAMES, LAST_NAMES, seededRandom, type SeededRandom } from '../src/sources/seeded-random.ts';

const RU_FIRST = [
  'Aleksandr',
  'Sergei',
  'Vladimir',
  'Dmitry',
  'Andrei',
  'Aleksei',
  'Igor',
  'Yevgeny',
  'Nikolai',
  'Mikhail',
  'Oleg',
  'Viktor',
  'Yuri',
  'Pavel',
  'Roman',
  'Konstantin',
  'Boris',
  'Gennady',
  'Anatoly',
  'Vasily',
  'Tatiana',
  'Olga',
  'Elena',
  'Natalia',
  'Irina',
  'Svetlana',
  'Marina',
  'Lyudmila',
  'Galina',
  'Anna',
];
const RU_LAST = [
  'Ivanov',
  'Petrov',
  'Sidorov',
  'Smirnov',
  'Kuznetsov',
  'Popov',
  'Volkov',
  'Sokolov',
  'Lebedev',
  'Kozlov',
  'Novikov',
  'Morozov',
  'Pavlov',
  'Semenov',
  'Golubev',
  'Vinogradov',
  'Bogdanov',
  'Vorobyov',
  'Fedorov',
  'Mikhailov',
  'Belyaev',
  'Tarasov',
  'Belov',
  'Komarov',
  'Orlov',
  'Kiselev',
  'Makarov',
  'Andreev',
  'Kovalenko',
  'Shevchenko',
  'Bondarenko',
  'Tkachenko',
  'Kravchenko',
  'Lukashenko',
  'Zhuravlev',
  'Gerasimov',
  'Timchenko',
  'Rotenberg',
  'Deripaska',
  'Abramovich',
];
const AR_FIRST = [
  'Mohammed',
  'Ahmed',
  'Ali',
  'Hassan',
  'Hussein',
  'Abdullah',
  'Omar',
  'Khalid',
  'Yusuf',
  'Ibrahim',
  'Mahmoud',
  'Mustafa',
  'Abdul Rahman',
  'Said',
  'Karim',
  'Tariq',
  'Faisal',
  'Hamza',
  'Bilal',
  'Salim',
  'Fatima',
  'Aisha',
  'Maryam',
  'Zainab',
];
const AR_LAST = [
  'Al-Hashimi',
  'Al-Tikriti',
  'Haddad',
  'Khalil',
  'Nasser',
  'Mansour',
  'Saleh',
  'Haidar',
  'Al-Masri',
  'Al-Zawahiri',
  'Qasim',
  'Hamdan',
  'Al-Assad',
  'Makhlouf',
  'Suleiman',
  'Abbas',
  'Darwish',
  'Jaber',
  'Aziz',
  'Rahman',
  'Al-Qahtani',
  'Al-Shami',
  'Barakat',
  'Hijazi',
];
const AR_VARIANTS: Record<string, string[]> = {
  Mohammed: ['Muhammad', 'Mohamed', 'Mohamad'],
  Ahmed: ['Ahmad'],
  Hussein: ['Husayn', 'Hussain'],
  Yusuf: ['Yousef', 'Youssef'],
  Omar: ['Umar'],
  Khalid: ['Khaled'],
  Mustafa: ['Mostafa'],
  Said: ['Saeed'],
  'Abdul Rahman': ['Abdulrahman', 'Abd al-Rahman'],
};
const ZH_LAST = [
  'Wang',
  'Li',
  'Zhang',
  'Liu',
  'Chen',
  'Yang',
  'Huang',
  'Zhao',
  'Wu',
  'Zhou',
  'Xu',
  'Sun',
  'Ma',
  'Zhu',
  'Hu',
  'Guo',
  'He',
  'Lin',
  'Gao',
  'Luo',
];
const ZH_FIRST = [
  'Wei',
  'Jun',
  'Lei',
  'Ming',
  'Hua',
  'Xiaoming',
  'Jianguo',
  'Yong',
  'Jie',
  'Tao',
  'Bin',
  'Hong',
  'Xin',
  'Yan',
  'Ling',
  'Fang',
  'Qiang',
  'Peng',
  'Hui',
  'Jing',
];
const FA_FIRST = [
  'Reza',
  'Mehdi',
  'Hossein',
  'Ali Akbar',
  'Mahmoud',
  'Javad',
  'Hamid',
  'Majid',
  'Saeed',
  'Mohsen',
  'Abbas',
  'Qasem',
];
const FA_LAST = [
  'Ahmadinejad',
  'Rezaei',
  'Mohammadi',
  'Hosseini',
  'Karimi',
  'Jafari',
  'Sadeghi',
  'Rahimi',
  'Moradi',
  'Soleimani',
  'Zarif',
  'Larijani',
];
const KO = ['Kim Jong', 'Kim Yong', 'Ri Su', 'Pak Myong', 'Choe Ryong', 'Jang Song', 'O Kuk', 'Kim Kyong'];
const KO_END = ['Un', 'Chol', 'Nam', 'Hae', 'Il', 'Su', 'Thaek', 'Hui', 'Ryol', 'Ho'];
const WEST_FIRST = [
  'John',
  'Michael',
  'David',
  'James',
  'Robert',
  'Carlos',
  'José',
  'Juan',
  'Pierre',
  'Jean',
  'Hans',
  'Klaus',
  'Marco',
  'Giuseppe',
  'Maria',
  'Ana',
  'Sophie',
  'Laura',
];
const WEST_LAST = [
  'Smith',
  'Johnson',
  'Brown',
  'García',
  'Rodríguez',
  'Martínez',
  'López',
  'Dubois',
  'Martin',
  'Müller',
  'Schmidt',
  'Schneider',
  'Rossi',
  'Russo',
  'Bianchi',
  'Fernández',
  'González',
  'Silva',
];
const SYLLABLES = [
  'ka',
  'ro',
  'mi',
  'tel',
  'zan',
  'vor',
  'lin',
  'dar',
  'sho',
  'pre',
  'nek',
  'bul',
  'tor',
  'gas',
  'ral',
  'sen',
  'ter',
  'mak',
  'ost',
  'vin',
  'ba',
  'lo',
  'ne',
  'ri',
  'su',
  'han',
  'dov',
  'kin',
  'mar',
  'zet',
];
const ORG_WORDS = [
  'Trans',
  'Neft',
  'Gaz',
  'Invest',
  'Bank',
  'Trading',
  'Shipping',
  'Industrial',
  'Holding',
  'Group',
  'Energy',
  'Metals',
  'Capital',
  'Logistics',
  'Export',
  'Import',
  'Technologies',
  'Defense',
  'Aviation',
  'Marine',
  'Mining',
  'Chemical',
  'Construction',
  'Development',
];
const ORG_FORMS = ['LLC', 'JSC', 'PJSC', 'OOO', 'AO', 'Ltd', 'Co. Ltd', 'GmbH', 'FZE', 'Inc', 'S.A.', 'AS', 'AB', ''];
const COUNTRIES = [
  'ru',
  'by',
  'ir',
  'sy',
  'kp',
  'cn',
  've',
  'iq',
  'lb',
  'ye',
  'ua',
  'af',
  'mm',
  'cu',
  'ae',
  'tr',
  'us',
  'gb',
  'de',
  'no',
  'se',
  'fi',
];
const CYR: Record<string, string> = {
  a: 'а',
  b: 'б',
  v: 'в',
  g: 'г',
  d: 'д',
  e: 'е',
  z: 'з',
  i: 'и',
  y: 'й',
  k: 'к',
  l: 'л',
  m: 'м',
  n: 'н',
  o: 'о',
  p: 'п',
  r: 'р',
  s: 'с',
  t: 'т',
  u: 'у',
  f: 'ф',
  h: 'х',
  c: 'ц',
};

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const word = (r: SeededRandom, min: number, max: number) =>
  cap(Array.from({ length: r.int(min, max) }, () => r.pick(SYLLABLES)).join(''));
const toCyrillic = (s: string) =>
  s
    .replace(/zh/gi, 'ж')
    .replace(/kh/gi, 'х')
    .replace(/sh/gi, 'ш')
    .replace(/ch/gi, 'ч')
    .replace(/yu/gi, 'ю')
    .replace(/ya/gi, 'я')
    .split('')
    .map((ch) =>
      CYR[ch.toLowerCase()]
        ? ch === ch.toUpperCase()
          ? CYR[ch.toLowerCase()].toUpperCase()
          : CYR[ch.toLowerCase()]
        : ch,
    )
    .join('');
const patronymic = (first: string, female: boolean) => first.replace(/[aiy]$/, '') + (female ? 'ovna' : 'ovich');

interface Person {
  first: string;
  last: string;
  aliases: string[];
  country: string;
}

function person(r: SeededRandom, nordicShare: number): Person {
  const roll = r.next();
  if (roll < nordicShare) {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    return {
      first,
      last,
      aliases: r.chance(0.3) ? [`${last.toUpperCase()}, ${first}`] : [],
      country: r.pick(['no', 'se', 'dk']),
    };
  }
  const kind = r.int(0, 9);
  if (kind <= 2) {
    const female = r.chance(0.2);
    const first = female ? r.pick(RU_FIRST.slice(20)) : r.pick(RU_FIRST.slice(0, 20));
    const last =
      (r.chance(0.4) ? word(r, 2, 3) + r.pick(['ov', 'enko', 'in', 'sky']) : r.pick(RU_LAST)) + (female ? 'a' : '');
    const mid = patronymic(r.pick(RU_FIRST.slice(0, 20)), female);
    return {
      first: `${first} ${mid}`,
      last: last.toUpperCase(),
      aliases: [`${first} ${last}`, toCyrillic(`${first} ${mid} ${last}`)],
      country: r.pick(['ru', 'by', 'ua']),
    };
  }
  if (kind <= 5) {
    const first = r.pick(AR_FIRST);
    const last = r.chance(0.4) ? `Al-${word(r, 2, 3)}` : r.pick(AR_LAST);
    const aliases = (AR_VARIANTS[first] ?? []).slice(0, r.int(0, 2)).map((v) => `${v} ${last}`);
    return { first, last, aliases, country: r.pick(['sy', 'iq', 'ir', 'lb', 'ye', 'ly', 'sd']) };
  }
  if (kind === 6)
    return {
      first: r.pick(ZH_FIRST) + (r.chance(0.5) ? r.pick(['', 'hua', 'ping', 'guo']) : ''),
      last: r.pick(ZH_LAST),
      aliases: [],
      country: r.pick(['cn', 'hk']),
    };
  if (kind === 7)
    return {
      first: r.pick(FA_FIRST),
      last: r.chance(0.5) ? word(r, 2, 4) + r.pick(['i', 'ian', 'zadeh']) : r.pick(FA_LAST),
      aliases: [],
      country: 'ir',
    };
  if (kind === 8)
    return {
      first: `${r.pick(KO)} ${r.pick(KO_END)}`.split(' ').slice(1).join(' '),
      last: r.pick(KO).split(' ')[0],
      aliases: [],
      country: 'kp',
    };
  return {
    first: r.pick(WEST_FIRST),
    last: r.chance(0.5) ? word(r, 2, 3) + r.pick(['son', 'er', 'ez', 'i']) : r.pick(WEST_LAST),
    aliases: [],
    country: r.pick(['us', 'gb', 'de', 'es', 'mx', 'co', 've', 'it']),
  };
}

function orgName(r: SeededRandom): { name: string; aliases: string[] } {
  const core = [word(r, 2, 3), r.chance(0.6) ? r.pick(ORG_WORDS) : word(r, 2, 3)];
  if (r.chance(0.3)) core.push(r.pick(ORG_WORDS));
  const form = r.pick(ORG_FORMS);
  const name = [...core, form].filter(Boolean).join(' ');
  const aliases = r.chance(0.4) ? [`${form ? form + ' ' : ''}"${core.join(' ')}"`, toCyrillic(core.join(' '))] : [];
  return { name, aliases };
}

const date = (r: SeededRandom, from: number, to: number) =>
  `${r.int(from, to)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;

/** The FtM line of target entity `i` (same i and seed: same line). */
export function ftmEntity(i: number, seed: number): Record<string, unknown> {
  const r = seededRandom(seed * 1_000_003 + i);
  const roll = r.next();
  const topics = r.chance(0.3) ? ['sanction'] : r.chance(0.85) ? ['role.pep'] : ['role.rca'];
  const datasets =
    topics[0] === 'sanction'
      ? [r.pick(['eu_fsf', 'us_ofac_sdn', 'un_sc_sanctions', 'gb_hmt_sanctions', 'ch_seco_sanctions'])]
      : [r.pick(['wd_peps', 'everypolitician', 'ru_rupep', 'wd_categories'])];
  const common = {
    id: `NK-bench-${seed}-${i}`,
    datasets,
    first_seen: '2023-04-20T18:00:25',
    last_seen: '2025-03-01T10:57:03',
    last_change: date(r, 2022, 2025) + 'T12:00:00',
    target: true,
    referents: [],
  };
  if (roll < 0.75) {
    const p = person(r, 0.03);
    const caption = `${p.first} ${p.last}`;
    const birth = r.chance(0.75) ? [r.chance(0.6) ? date(r, 1935, 1995) : String(r.int(1935, 1995))] : [];
    return {
      ...common,
      caption,
      schema: 'Person',
      properties: {
        name: [caption],
        alias: p.aliases,
        ...(r.chance(0.1) ? { weakAlias: [p.first.split(' ')[0]] } : {}),
        birthDate: birth,
        nationality: [p.country],
        gender: [r.chance(0.8) ? 'male' : 'female'],
        topics,
        ...(topics[0] !== 'sanction'
          ? { position: [r.pick(['Member of Parliament', 'Deputy Minister', 'Governor', 'Ambassador', 'Mayor'])] }
          : {}),
      },
    };
  }
  const o = orgName(r);
  return {
    ...common,
    caption: o.name,
    schema: roll < 0.95 ? r.pick(['Organization', 'Company']) : 'LegalEntity',
    properties: {
      name: [o.name],
      alias: o.aliases,
      country: [r.pick(COUNTRIES)],
      topics: topics[0] === 'role.pep' ? ['sanction'] : topics,
      registrationNumber: [String(r.int(1e8, 1e9))],
    },
  };
}

/**
 * Writes `count` target entities, with a support entity (Address / Sanction, target:false) after
 * every third, as NDJSON (gzipped when the file name ends in .gz). Returns the lines written.
 */
export async function writeFtmFile(file: string, count: number, seed: number): Promise<number> {
  const out = createWriteStream(file);
  const sink = file.endsWith('.gz') ? createGzip({ level: 1 }) : null;
  if (sink) sink.pipe(out);
  const target = sink ?? out;
  let lines = 0;
  const write = async (v: unknown) => {
    lines++;
    if (!target.write(JSON.stringify(v) + '\n')) await once(target, 'drain');
  };
  for (let i = 0; i < count; i++) {
    await write(ftmEntity(i, seed));
    if (i % 3 === 0) {
      await write(
        i % 2 === 0
          ? {
              id: `addr-bench-${i}`,
              caption: 'Address',
              schema: 'Address',
              properties: { full: [`${i} Main Street`], country: ['ru'] },
              datasets: ['eu_fsf'],
              target: false,
            }
          : {
              id: `san-bench-${i}`,
              caption: 'Sanction',
              schema: 'Sanction',
              properties: { entity: [`NK-bench-${seed}-${i}`], authority: ['EU'], program: ['RUSSIA'] },
              datasets: ['eu_fsf'],
              target: false,
            },
      );
    }
  }
  target.end();
  await once(out, 'finish');
  return lines;
}

/** A listed person of the file as a Norwegian register would spell them (for planted hits). */
export function listedPerson(i: number, seed: number): { name: string; birthYear: number | null } | null {
  const e = ftmEntity(i, seed) as { schema: string; caption: string; properties: { birthDate?: string[] } };
  if (e.schema !== 'Person') return null;
  const year = e.properties.birthDate?.[0] ? Number(e.properties.birthDate[0].slice(0, 4)) : null;
  // Registers write given names first, no patronymic, Nordic romanisation (sh → sj, zh → zj).
  const parts = e.caption.split(' ');
  const name = [parts[0], parts[parts.length - 1]]
    .map((p) => cap(p.toLowerCase()).replace(/sh/g, 'sj').replace(/zh/g, 'zj'))
    .join(' ');
  return { name, birthYear: year };
}

export { FIRST_NAMES, LAST_NAMES, seededRandom };
