// Deterministic generator of Norwegian companies in brreg's real formats (Enhet, Underenhet,
// roller, regnskap), for the demo dataset, the fake upstream in tests and benchmarks. The same
// (index, seed) always gives the same company; numbers carry valid mod-11 check digits, and
// municipalities, postal codes and NACE codes are real (reference/).
import { isValidNorwegianOrgNumber } from '../../domain/org-number.ts';
import { readMunicipalities, readNace, readPostalCodes } from '../reference/files.ts';
import { FIRST_NAMES, LAST_NAMES, seededRandom, type SeededRandom } from '../seeded-random.ts';
import type { BrregEnhet, BrregRegnskap, BrregRoller, BrregUnderenhet } from './types.ts';

export interface GeneratedCompany {
  enhet: BrregEnhet;
  roller: BrregRoller;
  regnskap: BrregRegnskap[];
  underenheter: BrregUnderenhet[];
}

const PREFIXES = [
  'Fjord',
  'Nordlys',
  'Vestland',
  'Bjørke',
  'Sjø',
  'Fjell',
  'Østlandet',
  'Midtnorsk',
  'Solberg',
  'Lyngdal',
  'Ås',
  'Høgda',
  'Skog',
  'Havbris',
  'Nordkapp',
  'Trøndelag',
  'Kyst',
  'Elvebakken',
  'Måkeskjær',
  'Grønn',
  'Blåbær',
  'Tindved',
  'Polar',
  'Lofot',
  'Sør',
  'Vik',
  'Dal',
  'Berg',
  'Furu',
  'Ørn',
];
const TRADES: Record<string, string[]> = {
  A: ['Gård', 'Skogdrift', 'Fiskeoppdrett', 'Landbruk'],
  C: ['Mekaniske', 'Bryggeri', 'Bakeri', 'Snekkerverksted', 'Industri'],
  F: ['Bygg', 'Rør', 'Elektro', 'Maler', 'Entreprenør', 'Tak'],
  G: ['Handel', 'Sport', 'Blomster', 'Interiør', 'Bil'],
  H: ['Transport', 'Frakt', 'Logistikk', 'Taxi'],
  I: ['Kafé', 'Bistro', 'Restaurant', 'Pizza', 'Hotell'],
  J: ['Data', 'Digital', 'Media', 'Programvare'],
  K: ['Finans', 'Invest', 'Kapital'],
  L: ['Eiendom', 'Utleie', 'Boligutvikling'],
  M: ['Konsult', 'Regnskap', 'Arkitekter', 'Advokatfirma', 'Ingeniør'],
  N: ['Renhold', 'Bemanning', 'Vakt'],
  Q: ['Tannlege', 'Fysioterapi', 'Helse'],
  S: ['Frisør', 'Velvære', 'Skomaker'],
};
const DEFAULT_TRADES = ['Service', 'Tjenester', 'Gruppen', 'Partner'];

// Weighted organisation forms (roughly brreg's mix among active units).
const FORMS: [string, string, number][] = [
  ['AS', 'Aksjeselskap', 52],
  ['ENK', 'Enkeltpersonforetak', 30],
  ['ANS', 'Ansvarlig selskap med solidarisk ansvar', 2],
  ['DA', 'Selskap med delt ansvar', 2],
  ['NUF', 'Norskregistrert utenlandsk foretak', 3],
  ['SA', 'Samvirkeforetak', 1],
  ['STI', 'Stiftelse', 2],
  ['FLI', 'Forening/lag/innretning', 6],
  ['ASA', 'Allmennaksjeselskap', 1],
  ['BRL', 'Borettslag', 1],
];
const FORM_TOTAL = FORMS.reduce((a, f) => a + f[2], 0);

interface Reference {
  nace: { code: string; name: string; section: string }[];
  postal: { code: string; place: string; municipalityNo: string }[];
  municipalities: Map<string, string>;
}

let reference: Reference | undefined;
function ref(): Reference {
  if (!reference) {
    const nace = readNace('SN2007')
      .rows.filter((n) => n.level === 5 && n.code !== '00.000')
      .map((n) => ({ code: n.code, name: n.name, section: n.section ?? '' }));
    const municipalities = new Map(readMunicipalities().rows.map((m) => [m.code, m.name]));
    const postal = readPostalCodes()
      .rows.filter((p) => (p.category === 'G' || p.category === 'B') && municipalities.has(p.municipality_code))
      .map((p) => ({ code: p.postal_code, place: p.place, municipalityNo: p.municipality_code }));
    reference = { nace, postal, municipalities };
  }
  return reference;
}

/** A valid organisation number for index i (distinct for distinct i within one range). */
export function orgNumberFor(i: number, range = 81_000_000): string {
  for (const base of [range + i * 2, range + i * 2 + 1, range + 9_000_000 + i * 2, range + 9_000_000 + i * 2 + 1]) {
    for (let d = 0; d <= 9; d++) {
      const candidate = `${base}${d}`;
      if (isValidNorwegianOrgNumber(candidate)) return candidate;
    }
  }
  throw new Error(`no valid organisation number for index ${i}`);
}

function pickForm(r: SeededRandom): [string, string] {
  let x = r.int(1, FORM_TOTAL);
  for (const [code, desc, w] of FORMS) {
    if ((x -= w) <= 0) return [code, desc];
  }
  return ['AS', 'Aksjeselskap'];
}

/** Employees: most units have none or a few, a long tail has many. */
function employees(r: SeededRandom, form: string): number | undefined {
  if (form === 'ENK' && r.chance(0.8)) return undefined;
  const x = r.next();
  if (x < 0.35) return undefined;
  // Sole traders, associations and housing co-ops stay small.
  const cap = ({ ENK: 15, FLI: 30, BRL: 2, STI: 50 } as Record<string, number>)[form] ?? Infinity;
  let n: number;
  if (x < 0.75) n = r.int(1, 9);
  else if (x < 0.93) n = r.int(10, 49);
  else if (x < 0.99) n = r.int(50, 249);
  else n = r.int(250, form === 'ASA' ? 25_000 : 3000);
  return Math.min(n, cap);
}

/** A name in the style of the form (AS names end in AS, associations are "… forening" …). */
function companyName(r: SeededRandom, form: string, trade: string): string {
  const region = r.chance(0.3) ? ` ${r.pick(['Vest', 'Nord', 'Øst', 'Sør', 'Norge', 'Holding', 'Gruppen'])}` : '';
  switch (form) {
    case 'ENK':
      return `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)} ${trade}`;
    case 'FLI':
      return `${r.pick(PREFIXES)} ${r.pick(['Idrettslag', 'Velforening', 'Musikkforening', 'Historielag', 'Bondelag'])}`;
    case 'STI':
      return `Stiftelsen ${r.pick(PREFIXES)}${r.pick(['tunet', 'heimen', 'huset', 'fondet'])}`;
    case 'BRL':
      return `${r.pick(PREFIXES)} Borettslag`;
    default:
      return `${r.pick(PREFIXES)} ${trade}${region} ${form}`;
  }
}

function isoDate(r: SeededRandom, fromYear: number, toYear: number): string {
  const y = r.int(fromYear, toYear);
  const m = r.int(1, 12);
  const d = r.int(1, 28);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function address(r: SeededRandom) {
  const p = r.pick(ref().postal);
  const muni = ref().municipalities.get(p.municipalityNo)!;
  return {
    land: 'Norge',
    landkode: 'NO',
    postnummer: p.code,
    poststed: p.place,
    adresse: [
      `${r.pick(['Storgata', 'Kirkegata', 'Fjordveien', 'Industriveien', 'Strandgata', 'Skolegata', 'Bjørkeveien', 'Havnegata'])} ${r.int(1, 120)}`,
    ],
    kommune: muni.toUpperCase(),
    kommunenummer: p.municipalityNo,
  };
}

function person(r: SeededRandom) {
  return {
    fodselsdato: isoDate(r, 1945, 2000),
    navn: { fornavn: r.pick(FIRST_NAMES), etternavn: r.pick(LAST_NAMES) },
    erDoed: false,
  };
}

function rolle(code: string, beskrivelse: string, who: object, order: number) {
  return { type: { kode: code, beskrivelse }, ...who, avregistrert: false, rekkefolge: order };
}

function roller(r: SeededRandom, form: string, orgnr: string, emp: number): BrregRoller {
  if (form === 'ENK')
    return {
      rollegrupper: [
        {
          type: { kode: 'INNH', beskrivelse: 'Innehaver' },
          roller: [rolle('INNH', 'Innehaver', { person: person(r) }, 0)],
        },
      ],
    };
  const groups: NonNullable<BrregRoller['rollegrupper']> = [];
  if (['AS', 'ASA', 'NUF', 'SA'].includes(form))
    groups.push({
      type: { kode: 'DAGL', beskrivelse: 'Daglig leder/ adm.direktør' },
      roller: [rolle('DAGL', 'Daglig leder', { person: person(r) }, 0)],
    });
  const board = [rolle('LEDE', 'Styrets leder', { person: person(r) }, 0)];
  const members = emp > 20 ? r.int(2, 5) : r.int(0, 2);
  for (let i = 0; i < members; i++) board.push(rolle('MEDL', 'Styremedlem', { person: person(r) }, i + 1));
  if (r.chance(0.4)) board.push(rolle('VARA', 'Varamedlem', { person: person(r) }, members + 1));
  groups.push({ type: { kode: 'STYR', beskrivelse: 'Styre' }, roller: board });
  if (['ANS', 'DA'].includes(form)) {
    const share = form === 'ANS' ? {} : { ansvarsandel: '50%' };
    groups.push({
      type: { kode: 'DELT', beskrivelse: 'Deltakere' },
      roller: [
        rolle('DTPR', 'Deltaker med delt ansvar', { person: person(r), ...share }, 0),
        rolle('DTPR', 'Deltaker med delt ansvar', { person: person(r), ...share }, 1),
      ],
    });
  }
  if (form === 'AS' || form === 'ASA') {
    const auditor = orgNumberFor(Number(orgnr.slice(3, 7)) % 500, 89_000_000);
    groups.push({
      type: { kode: 'REVI', beskrivelse: 'Revisor' },
      roller: [
        rolle(
          'REVI',
          'Revisor',
          { enhet: { organisasjonsnummer: auditor, navn: [`${r.pick(PREFIXES)} Revisjon AS`], erSlettet: false } },
          0,
        ),
      ],
    });
  }
  return { rollegrupper: groups };
}

function regnskap(r: SeededRandom, orgnr: string, form: string, emp: number, years: number): BrregRegnskap[] {
  const base = Math.max(1, emp) * r.int(600_000, 2_500_000);
  const out: BrregRegnskap[] = [];
  for (let k = 0; k < years; k++) {
    const year = 2024 - k;
    const revenue = Math.round(base * (1 - k * r.next() * 0.15));
    const operating = Math.round(revenue * (r.next() * 0.25 - 0.05));
    const net = Math.round(operating * 0.78);
    const assets = Math.round(revenue * (0.4 + r.next()));
    const equity = Math.round(assets * (r.next() * 0.6 - 0.05));
    out.push({
      id: Number(orgnr.slice(1)) * 10 + k,
      journalnr: `${year + 1}${String(r.int(1, 999999)).padStart(6, '0')}`,
      regnskapstype: 'SELSKAP',
      virksomhet: { organisasjonsnummer: orgnr, organisasjonsform: form, morselskap: false },
      regnskapsperiode: { fraDato: `${year}-01-01`, tilDato: `${year}-12-31` },
      valuta: 'NOK',
      egenkapitalGjeld: {
        sumEgenkapitalGjeld: assets,
        egenkapital: { sumEgenkapital: equity },
        gjeldOversikt: { sumGjeld: assets - equity },
      },
      eiendeler: { sumEiendeler: assets },
      resultatregnskapResultat: {
        aarsresultat: net,
        driftsresultat: { driftsresultat: operating, driftsinntekter: { sumDriftsinntekter: revenue } },
      },
    });
  }
  return out;
}

export function generateCompany(i: number, seed = 1): GeneratedCompany {
  const r = seededRandom(seed * 1_000_003 + i);
  const orgnr = orgNumberFor(i);
  const [form, formDesc] = pickForm(r);
  const nace = r.pick(ref().nace);
  const trade = r.pick(TRADES[nace.section] ?? DEFAULT_TRADES);
  const name = companyName(r, form, trade);
  const emp = employees(r, form);
  const founded = isoDate(r, 1950, 2025);
  const deleted = r.chance(0.01);
  const bankrupt = !deleted && r.chance(0.015);
  const filesAccounts = ['AS', 'ASA', 'NUF', 'SA', 'ANS', 'DA'].includes(form) && !deleted && r.chance(0.9);
  const accountYears = filesAccounts ? r.int(1, 3) : 0;
  const slug = name
    .toLowerCase()
    .replace(/(^| )(as|asa|ans|da|nuf|sa)( |$)/g, ' ')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/å/g, 'a')
    .replace(/[^a-z0-9]+/g, '');
  const enhet: BrregEnhet = deleted
    ? {
        organisasjonsnummer: orgnr,
        navn: name.toUpperCase(),
        organisasjonsform: { kode: form, beskrivelse: formDesc },
        slettedato: isoDate(r, 2015, 2025),
      }
    : {
        organisasjonsnummer: orgnr,
        navn: name.toUpperCase(),
        organisasjonsform: { kode: form, beskrivelse: formDesc },
        forretningsadresse: address(r),
        ...(r.chance(0.3) ? { postadresse: address(r) } : {}),
        registreringsdatoEnhetsregisteret: founded,
        registrertIMvaregisteret: r.chance(0.7),
        naeringskode1: { kode: nace.code, beskrivelse: nace.name },
        ...(r.chance(0.1)
          ? {
              naeringskode2: (() => {
                const n2 = r.pick(ref().nace);
                return { kode: n2.code, beskrivelse: n2.name };
              })(),
            }
          : {}),
        ...(emp !== undefined ? { antallAnsatte: emp } : {}),
        harRegistrertAntallAnsatte: emp !== undefined,
        stiftelsesdato: founded,
        registrertIForetaksregisteret: form !== 'FLI' && form !== 'STI',
        registrertIStiftelsesregisteret: form === 'STI',
        registrertIFrivillighetsregisteret: form === 'FLI' && r.chance(0.5),
        konkurs: bankrupt,
        underAvvikling: !bankrupt && r.chance(0.01),
        underTvangsavviklingEllerTvangsopplosning: false,
        maalform: r.chance(0.88) ? 'Bokmål' : 'Nynorsk',
        ...(r.chance(0.45) ? { hjemmeside: `www.${slug}.no` } : {}),
        ...(r.chance(0.35) ? { epostadresse: `post@${slug}.no` } : {}),
        ...(r.chance(0.5) ? { telefon: `${r.int(22, 99)} ${r.int(10, 99)} ${r.int(10, 99)} ${r.int(10, 99)}` } : {}),
        ...(accountYears ? { sisteInnsendteAarsregnskap: '2024' } : {}),
        vedtektsfestetFormaal: [`${trade} og annen virksomhet i forbindelse med dette.`],
      };
  const subCount = !deleted && (emp ?? 0) >= 5 ? r.int(1, (emp ?? 0) > 100 ? 4 : 2) : 0;
  const underenheter: BrregUnderenhet[] = [];
  for (let k = 0; k < subCount; k++) {
    underenheter.push({
      organisasjonsnummer: orgNumberFor(i * 4 + k, 60_000_000),
      navn: k === 0 ? enhet.navn : `${enhet.navn} AVD ${r.pick(['SENTRUM', 'NORD', 'SØR', 'VEST', 'ØST'])}`,
      organisasjonsform: { kode: 'BEDR', beskrivelse: 'Underenhet til næringsdrivende og offentlig forvaltning' },
      overordnetEnhet: orgnr,
      beliggenhetsadresse: k === 0 ? enhet.forretningsadresse : address(r),
      registreringsdatoEnhetsregisteret: founded,
      registrertIMvaregisteret: false,
      naeringskode1: enhet.naeringskode1,
      antallAnsatte: Math.max(1, Math.round((emp ?? 1) / subCount)),
      harRegistrertAntallAnsatte: true,
      oppstartsdato: founded,
    });
  }
  return {
    enhet,
    roller: deleted ? { rollegrupper: [] } : roller(r, form, orgnr, emp ?? 0),
    regnskap: regnskap(r, orgnr, form, emp ?? 0, accountYears),
    underenheter,
  };
}

export function* generateCompanies(count: number, seed = 1, start = 0): Generator<GeneratedCompany> {
  for (let i = start; i < start + count; i++) yield generateCompany(i, seed);
}
