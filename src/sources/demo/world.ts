// The demo world, decided once from a fixed seed: the Norwegian companies (unique names whose
// trade word fits their NACE code, real municipalities and postal codes), the generated people
// on their boards, the ownership groups (person -> holding -> sub-holding -> operating company
// -> subsidiary, foreign owners at the top of some), and the changes of the second round. The
// file writers (brreg.ts, shareholders.ts, nordic.ts, ...) only render this world in each
// upstream's format, so every file agrees with every other.
import { isValidNorwegianOrgNumber } from '../../domain/org-number.ts';
import { readMunicipalities, readNace, readPostalCodes } from '../reference/files.ts';
import { seededRandom, type SeededRandom } from '../seeded-random.ts';
import { PERSON_FIRST, PERSON_LAST, PREFIXES, QUALIFIERS, TRADES, type Trade } from './vocabulary.ts';

export const DEMO_SEED = 2024;
export const DEMO_NO_COMPANIES = 3000;

export interface DemoPerson {
  id: number;
  firstName: string;
  lastName: string;
  /** Full date as brreg's roles carry it; the shareholder register shows the year only. */
  birthDate: string;
}

export interface DemoAddress {
  street: string;
  postalCode: string;
  place: string;
  municipalityNo: string;
  municipality: string;
}

export interface DemoCompany {
  index: number;
  orgNumber: string;
  name: string;
  form: string;
  formName: string;
  trade: Trade;
  nace: { code: string; name: string };
  address: DemoAddress;
  employees: number | null;
  founded: string;
  website: string | null;
  ceo: DemoPerson | null;
  chair: DemoPerson;
  members: DemoPerson[];
  /** The sole trader (ENK). */
  proprietor: DemoPerson | null;
  /** Years of filed accounts (newest 2024), 0 for none. */
  accountYears: number;
  /** Majority owner within the demo (a holding or a parent company), with its share in per cent. */
  parent: { orgNumber: string; percent: number } | null;
}

/** What changes between the first and the second round of the registry files. */
export interface DemoChanges {
  newCeo: Map<string, DemoPerson>;
  moved: Map<string, DemoAddress>;
  bankrupt: Set<string>;
  deleted: Set<string>;
}

export interface DemoWorld {
  companies: DemoCompany[];
  byOrg: Map<string, DemoCompany>;
  people: DemoPerson[];
  changes: DemoChanges;
}

const FORMS: [string, string, number][] = [
  ['AS', 'Aksjeselskap', 66],
  ['ENK', 'Enkeltpersonforetak', 22],
  ['ANS', 'Ansvarlig selskap med solidarisk ansvar', 2],
  ['DA', 'Selskap med delt ansvar', 2],
  ['NUF', 'Norskregistrert utenlandsk foretak', 3],
  ['SA', 'Samvirkeforetak', 1],
  ['ASA', 'Allmennaksjeselskap', 1],
];
const FORM_TOTAL = FORMS.reduce((a, f) => a + f[2], 0);
const TRADE_TOTAL = TRADES.reduce((a, t) => a + t.weight, 0);

/** Where the demo companies are: a dozen real municipalities, Oslo the largest. */
export const DEMO_MUNICIPALITIES: readonly [string, number][] = [
  ['0301', 30],
  ['4601', 12],
  ['5001', 10],
  ['1103', 8],
  ['4204', 6],
  ['3301', 5],
  ['5501', 5],
  ['1804', 4],
  ['3403', 3],
  ['3907', 3],
  ['1506', 3],
  ['5603', 2],
];
const MUNI_TOTAL = DEMO_MUNICIPALITIES.reduce((a, m) => a + m[1], 0);

/** Companies the README, the setup page and the docs name: fixed index -> fixed identity. */
export const SHOWCASE: Record<number, { name: string; form: string; trade: string; municipality: string }> = {
  1: { name: 'SOLBERG FYSIOTERAPI AS', form: 'AS', trade: 'Fysioterapi', municipality: '0301' },
  3: { name: 'ØSTLANDET INTERIØR AS', form: 'AS', trade: 'Interiør', municipality: '0301' },
  5: { name: 'NORDKAPP INDUSTRIER AS', form: 'AS', trade: 'Industrier', municipality: '5603' },
  7: { name: 'FJORD HOLDING AS', form: 'AS', trade: 'Holding', municipality: '4601' },
  9: { name: 'HAVBRIS RESTAURANT AS', form: 'AS', trade: 'Restaurant', municipality: '0301' },
};

/** Public buyers of the procurement notices (inter-municipal companies), after the companies. */
export const DEMO_BUYERS = [
  { name: 'VESTLANDSKYSTEN INNKJØP IKS', municipality: '4601' },
  { name: 'OSLOFJORDEN BYGG OG EIENDOM IKS', municipality: '0301' },
  { name: 'TRØNDERSK RENOVASJON IKS', municipality: '5001' },
  { name: 'NORDLANDSKYSTEN HAVN IKS', municipality: '1804' },
] as const;

/** A valid organisation number for index i (distinct for distinct i within one range). */
export function demoOrgNumber(i: number, range = 81_000_000): string {
  for (const base of [range + i * 2, range + i * 2 + 1, range + 9_000_000 + i * 2, range + 9_000_000 + i * 2 + 1]) {
    for (let d = 0; d <= 9; d++) {
      const candidate = `${base}${d}`;
      if (isValidNorwegianOrgNumber(candidate)) return candidate;
    }
  }
  throw new Error(`no valid organisation number for index ${i}`);
}

interface Reference {
  nace: Map<string, string>;
  postal: Map<string, { code: string; place: string; municipality: string }[]>;
}

let reference: Reference | undefined;
function ref(): Reference {
  if (reference) return reference;
  const nace = new Map(
    readNace('SN2007')
      .rows.filter((n) => n.level === 5)
      .map((n) => [n.code, n.name]),
  );
  for (const t of TRADES) if (!nace.has(t.nace)) throw new Error(`demo trade ${t.word}: no SN2007 code ${t.nace}`);
  const postal = new Map<string, { code: string; place: string; municipality: string }[]>();
  const wanted = new Set(DEMO_MUNICIPALITIES.map((m) => m[0]));
  const muniNames = new Map(readMunicipalities().rows.map((m) => [m.code, m.name]));
  for (const p of readPostalCodes().rows) {
    if (!wanted.has(p.municipality_code) || p.category !== 'G') continue;
    const list = postal.get(p.municipality_code) ?? [];
    list.push({ code: p.postal_code, place: p.place, municipality: muniNames.get(p.municipality_code) ?? p.place });
    postal.set(p.municipality_code, list);
  }
  for (const code of wanted)
    if (!postal.get(code)?.length) throw new Error(`demo municipality ${code}: no street postal codes`);
  reference = { nace, postal };
  return reference;
}

const STREETS = [
  'Storgata',
  'Kirkegata',
  'Fjordveien',
  'Industriveien',
  'Strandgata',
  'Skolegata',
  'Bjørkeveien',
  'Havnegata',
  'Sjøgata',
  'Parkveien',
  'Kongens gate',
  'Elvegata',
];

function weighted<T>(r: SeededRandom, items: readonly T[], weight: (t: T) => number, total: number): T {
  let x = r.next() * total;
  for (const item of items) if ((x -= weight(item)) < 0) return item;
  return items[items.length - 1];
}

function addressIn(r: SeededRandom, municipalityNo: string): DemoAddress {
  const p = r.pick(ref().postal.get(municipalityNo)!);
  return {
    street: `${r.pick(STREETS)} ${r.int(1, 120)}`,
    postalCode: p.code,
    place: p.place,
    municipalityNo,
    municipality: p.municipality.toUpperCase(),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A name without its legal form, the key names are unique on. */
const baseName = (name: string) => name.replace(/ (AS|ASA|ANS|DA|NUF|SA|IKS)$/, '');

function makePeople(r: SeededRandom): DemoPerson[] {
  // Every combination once, in a seeded order: no two generated people share a full name.
  const all: [string, string][] = [];
  for (const f of PERSON_FIRST) for (const l of PERSON_LAST) all.push([f, l]);
  for (let i = all.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.map(([firstName, lastName], id) => ({
    id,
    firstName,
    lastName,
    birthDate: `${r.int(1948, 1999)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`,
  }));
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/(^| )(as|asa|ans|da|nuf|sa|iks)( |$)/g, ' ')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/å/g, 'a')
    .replace(/é/g, 'e')
    .replace(/[^a-z0-9]+/g, '');

function employeesFor(r: SeededRandom, form: string, trade: Trade): number | null {
  if (trade.kind === 'holding') return r.chance(0.7) ? null : r.int(1, 3);
  if (form === 'ENK') return r.chance(0.7) ? null : r.int(1, 4);
  const x = r.next();
  if (x < 0.2) return null;
  if (x < 0.7) return r.int(1, 9);
  if (x < 0.92) return r.int(10, 49);
  if (x < 0.99) return r.int(50, 249);
  return r.int(250, form === 'ASA' ? 4000 : 1200);
}

/** Builds the world; the same seed gives the same world. */
export function buildDemoWorld(count = DEMO_NO_COMPANIES, seed = DEMO_SEED): DemoWorld {
  const r = seededRandom(seed);
  const people = makePeople(r);
  let nextPerson = 0;
  // Most people sit on one board; a person is taken again only after everyone has one seat.
  const person = () => people[nextPerson++ % people.length];
  // Unique without the legal form too: "X AS" and "X NUF" would be one name to a user.
  const names = new Set<string>(Object.values(SHOWCASE).map((s) => baseName(s.name)));
  for (const b of DEMO_BUYERS) names.add(baseName(b.name));
  const companies: DemoCompany[] = [];
  for (let i = 0; i < count; i++) {
    const show = SHOWCASE[i];
    const [form, formName] = show
      ? (FORMS.find((f) => f[0] === show.form)! as unknown as [string, string])
      : weighted(r, FORMS, (f) => f[2], FORM_TOTAL);
    let trade = show ? TRADES.find((t) => t.word === show.trade)! : weighted(r, TRADES, (t) => t.weight, TRADE_TOTAL);
    // Sole traders and partnerships are not holdings.
    while (!show && trade.kind === 'holding' && !['AS', 'ASA'].includes(form))
      trade = weighted(r, TRADES, (t) => t.weight, TRADE_TOTAL);
    const municipalityNo = show?.municipality ?? weighted(r, DEMO_MUNICIPALITIES, (m) => m[1], MUNI_TOTAL)[0];
    const proprietor = form === 'ENK' ? person() : null;
    let name = show?.name ?? '';
    for (let attempt = 0; !name; attempt++) {
      // A taken name draws a new trade as well as a new prefix, so the trade mix stays close to its
      // weights; a region word is added only when many draws failed.
      if (attempt > 0 && !show && form !== 'ENK' && attempt % 2 === 0)
        trade = weighted(r, TRADES, (t) => t.weight, TRADE_TOTAL);
      while (trade.kind === 'holding' && !['AS', 'ASA'].includes(form))
        trade = weighted(r, TRADES, (t) => t.weight, TRADE_TOTAL);
      const candidate = (
        form === 'ENK'
          ? `${proprietor!.firstName} ${proprietor!.lastName} ${trade.word}${attempt ? ` ${r.pick(QUALIFIERS)}` : ''}`
          : `${r.pick(PREFIXES)} ${trade.word}${attempt > 30 ? ` ${r.pick(QUALIFIERS)}` : ''} ${form}`
      ).toLocaleUpperCase('nb');
      if (!names.has(baseName(candidate))) name = candidate;
    }
    names.add(baseName(name));
    const employees = employeesFor(r, form, trade);
    const founded = `${r.int(1970, 2023)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`;
    const hasBoard = form !== 'ENK';
    const memberCount = !hasBoard ? 0 : (employees ?? 0) > 20 ? r.int(2, 4) : r.int(0, 2);
    const filesAccounts = ['AS', 'ASA', 'NUF', 'SA', 'ANS', 'DA'].includes(form);
    companies.push({
      index: i,
      orgNumber: demoOrgNumber(i),
      name,
      form,
      formName,
      trade,
      nace: { code: trade.nace, name: ref().nace.get(trade.nace)! },
      address: addressIn(r, municipalityNo),
      employees,
      founded,
      website: (show || r.chance(0.45)) && form !== 'ENK' ? `www.${slug(name)}.no` : null,
      ceo: ['AS', 'ASA', 'NUF', 'SA'].includes(form) ? person() : null,
      chair: proprietor ?? person(),
      members: Array.from({ length: memberCount }, person),
      proprietor,
      accountYears: filesAccounts ? (show ? 3 : r.int(0, 3)) : 0,
      parent: null,
    });
  }
  const byOrg = new Map(companies.map((c) => [c.orgNumber, c]));
  buildGroups(r, companies);
  return { companies, byOrg, people, changes: buildChanges(r, companies, person) };
}

/**
 * Ownership groups: a third of the holdings are top holdings (owned by people or, for some, a
 * foreign company), the rest sub-holdings under a top holding; about half the operating limited
 * companies belong to a holding, and some of those own a subsidiary, so chains run four layers
 * below the people at the top. A group's chair chairs its members' boards too.
 */
function buildGroups(r: SeededRandom, companies: DemoCompany[]): void {
  const limited = companies.filter((c) => c.form === 'AS' || c.form === 'ASA');
  const holdings = limited.filter((c) => c.trade.kind === 'holding');
  const operating = limited.filter((c) => c.trade.kind !== 'holding');
  const tops = holdings.filter((_, k) => k % 3 === 0);
  const subs = holdings.filter((_, k) => k % 3 !== 0);
  const setParent = (child: DemoCompany, parent: DemoCompany, percent: number) => {
    child.parent = { orgNumber: parent.orgNumber, percent };
    if (r.chance(0.7)) child.chair = parent.chair;
  };
  for (const s of subs) setParent(s, r.pick(tops.filter((t) => t.index !== 7)), r.pick([100, 100, 80, 66, 51]));
  // The showcase: FJORD HOLDING AS (a top holding, owned from Denmark) holds SOLBERG FYSIOTERAPI
  // AS directly and ØSTLANDET INTERIØR AS through a sub-holding: chains the README can show.
  const fjord = companies[7];
  fjord.parent = null;
  const sub = subs.find((s) => s.index > 7) ?? subs[0];
  setParent(sub, fjord, 100);
  setParent(companies[1], fjord, 60);
  setParent(companies[3], sub, 100);
  const owned: DemoCompany[] = [companies[3]];
  for (const c of operating) {
    if (SHOWCASE[c.index]) continue;
    if (r.chance(0.5)) {
      if (owned.length > 10 && r.chance(0.15)) setParent(c, r.pick(owned), r.pick([100, 90, 60]));
      else {
        setParent(c, r.chance(0.7) ? r.pick(subs) : r.pick(tops), r.pick([100, 100, 75, 60, 51, 34]));
        owned.push(c);
      }
    }
  }
}

function buildChanges(r: SeededRandom, companies: DemoCompany[], person: () => DemoPerson): DemoChanges {
  const live = companies.filter((c) => c.form === 'AS' && !SHOWCASE[c.index]);
  const take = (n: number, offset: number) => live.filter((_, k) => k % 97 === offset).slice(0, n);
  const changes: DemoChanges = { newCeo: new Map(), moved: new Map(), bankrupt: new Set(), deleted: new Set() };
  // The showcase company gets a new CEO and moves, so the README's event examples show both.
  const solberg = companies[1];
  changes.newCeo.set(solberg.orgNumber, person());
  changes.moved.set(solberg.orgNumber, addressIn(r, '0301'));
  for (const c of take(12, 5)) changes.newCeo.set(c.orgNumber, person());
  for (const c of take(12, 17)) changes.moved.set(c.orgNumber, addressIn(r, c.address.municipalityNo));
  for (const c of take(6, 29)) changes.bankrupt.add(c.orgNumber);
  for (const c of take(4, 41)) if (!c.parent) changes.deleted.add(c.orgNumber);
  return changes;
}
