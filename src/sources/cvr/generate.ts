// Deterministic CVR data for tests and benchmarks: `count` Vrvirksomhed search hits as NDJSON, one
// a line, the input of `ncd sync cvr --file` (see ndjson.ts). Produced lazily, so the 2.2 M
// documents of a Denmark-sized register never sit in memory. The documents keep the structure of
// test/fixtures/cvr (periods, time-versioned lists, deltagerRelation with FUNKTION and
// EJERREGISTER bands, virksomhedMetadata.nyeste*), because the mapper reads exactly that.
import { Readable } from 'node:stream';
import { DK_WORDS, TRADES } from '../demo/nordic.ts';
import { randomDate, seededRng, type Rng } from '../nordic-generate.ts';
import { FIRST_NAMES, LAST_NAMES } from '../seeded-random.ts';

/**
 * The lists of a CVR record (Vrvirksomhed) that neither generator fills: secondary trades beyond
 * the first, status texts, the employment series and attributes. Fresh arrays each call.
 */
export const unreportedLists = () => ({
  bibranche2: [],
  bibranche3: [],
  status: [],
  aarsbeskaeftigelse: [],
  kvartalsbeskaeftigelse: [],
  maanedsbeskaeftigelse: [],
  erstMaanedsbeskaeftigelse: [],
  attributter: [],
});

// Weighted as the register is: sole traders and ApS dominate, A/S and partnerships are few.
const FORMS = [
  ...Array<readonly [number, string, string]>(8).fill([10, 'ENK', 'Enkeltmandsvirksomhed']),
  ...Array<readonly [number, string, string]>(7).fill([80, 'APS', 'Anpartsselskab']),
  [60, 'A/S', 'Aktieselskab'],
  [30, 'I/S', 'Interessentskab'],
  [40, 'K/S', 'Kommanditselskab'],
  [81, 'IVS', 'Iværksætterselskab'],
  [80, 'APS', 'Anpartsselskab'],
] as const;
const SUFFIX: Record<string, string> = { APS: 'ApS', 'A/S': 'A/S', 'I/S': 'I/S', 'K/S': 'K/S', IVS: 'IVS' };
// Kommune codes (DST's three digits) with a post number and district of each.
const TOWNS = [
  [101, 'KØBENHAVN', 1050, 'København K'],
  [147, 'FREDERIKSBERG', 2000, 'Frederiksberg'],
  [157, 'GENTOFTE', 2900, 'Hellerup'],
  [173, 'LYNGBY-TAARBÆK', 2800, 'Kongens Lyngby'],
  [265, 'ROSKILDE', 4000, 'Roskilde'],
  [461, 'ODENSE', 5000, 'Odense C'],
  [561, 'ESBJERG', 6700, 'Esbjerg'],
  [621, 'KOLDING', 6000, 'Kolding'],
  [630, 'VEJLE', 7100, 'Vejle'],
  [657, 'HERNING', 7400, 'Herning'],
  [730, 'RANDERS', 8900, 'Randers C'],
  [751, 'AARHUS', 8000, 'Aarhus C'],
  [791, 'VIBORG', 8800, 'Viborg'],
  [851, 'AALBORG', 9000, 'Aalborg'],
] as const;
const STREETS = ['Vestergade', 'Østergade', 'Nørregade', 'Algade', 'Jernbanegade', 'Industrivej', 'Havnegade'];
const CEASED_AS = ['OPLØST EFTER FRIVILLIG LIKVIDATION', 'OPLØST EFTER KONKURS', 'TVANGSOPLØST', 'OPLØST EFTER FUSION'];

/** The CVR check digit of a 7-digit body (weights 2 7 6 5 4 3 2, then 1); null when it would be 10. */
export function danishCheckDigit(body7: string): number | null {
  const weights = [2, 7, 6, 5, 4, 3, 2];
  const rest = weights.reduce((acc, w, i) => acc + w * Number(body7[i]), 0) % 11;
  const check = (11 - rest) % 11;
  return check === 10 ? null : check;
}

/** Status of document `i`, by its position so tests can count them (see generateCvrNdjson). */
export function generatedStatus(i: number): 'ceased' | 'UNDER KONKURS' | 'UNDER FRIVILLIG LIKVIDATION' | 'NORMAL' {
  if (i % 5 === 1 || i % 5 === 3) return 'ceased';
  if (i % 50 === 7) return 'UNDER KONKURS';
  if (i % 50 === 17) return 'UNDER FRIVILLIG LIKVIDATION';
  return 'NORMAL';
}

const period = (gyldigFra: string, gyldigTil: string | null = null) => ({ gyldigFra, gyldigTil });
const stamp = (day: string) => `${day}T10:00:00.000+01:00`;
const dated = <T extends object>(value: T, from: string, to: string | null = null) => ({
  ...value,
  periode: period(from, to),
  sidstOpdateret: stamp(to ?? from),
});
const attribute = (type: string, vaerditype: string, vaerdi: string, from: string, to: string | null = null) => ({
  sekvensnr: 0,
  type,
  vaerditype,
  vaerdier: [dated({ vaerdi }, from, to)],
});
const body = (hovedtype: string, navn: string, from: string, attributter: object[]) => ({
  enhedsNummerOrganisation: 4_000_000_001,
  hovedtype,
  organisationsNavn: [{ navn, periode: period(from) }],
  attributter: [],
  medlemsData: [{ attributter }],
});

/** Keeps the running ids (P-numbers, person enhedsNumre) of one generated file. */
class Ids {
  private pUnit = 1_000_000_000;
  private unit = 4_100_000_000;
  nextPUnit = () => this.pUnit++;
  nextUnit = () => this.unit++;
}

function participant(ids: Ids, name: string, cvr: number | null, organisationer: object[], from: string) {
  return {
    deltager: {
      enhedsNummer: ids.nextUnit(),
      enhedstype: cvr === null ? 'PERSON' : 'VIRKSOMHED',
      forretningsnoegle: cvr,
      organisationstype: null,
      sidstIndlaest: stamp(from),
      sidstOpdateret: stamp(from),
      navne: [dated({ navn: name }, from)],
      adresseHemmelig: false,
      adresseOpdateret: null,
      beliggenhedsadresse: [],
    },
    kontorsteder: [],
    organisationer,
  };
}

const personName = (rng: Rng) => `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
const fn = (value: string, from: string, to: string | null = null) => attribute('FUNKTION', 'string', value, from, to);
const share = (fraction: string, from: string) => [
  attribute('EJERANDEL_PROCENT', 'decimal', fraction, from),
  attribute('EJERANDEL_STEMMERET_PROCENT', 'decimal', fraction, from),
];

/** deltagerRelation of one company: who holds it, runs it and owns it, by its legal form. */
function relations(rng: Rng, ids: Ids, form: string, owner: string, founded: string, holding: number) {
  const p = (name: string, cvr: number | null, orgs: object[]) => participant(ids, name, cvr, orgs, founded);
  if (form === 'ENK' || form === 'I/S') {
    const liable = body('FULDT_ANSVARLIG_DELTAGERE', 'Fuldt ansvarlige deltagere', founded, [
      fn('FULDT ANSVARLIG DELTAGER', founded),
    ]);
    return form === 'ENK' ? [p(owner, null, [liable])] : [p(owner, null, [liable]), p(personName(rng), null, [liable])];
  }
  if (form === 'K/S')
    return [
      p(`${owner} Komplementar ApS`, holding, [
        body('LEDELSESORGAN', 'Direktion', founded, [fn('KOMPLEMENTAR', founded)]),
      ]),
    ];
  const out = [
    p(owner, null, [
      body('LEDELSESORGAN', 'Direktion', founded, [fn(form === 'A/S' ? 'ADM. DIR.' : 'DIREKTØR', founded)]),
    ]),
  ];
  const board = form === 'A/S' || rng.chance(0.1);
  if (board) {
    const left = randomDate(rng, Number(founded.slice(0, 4)) + 1, 2025);
    out.push(p(personName(rng), null, [body('LEDELSESORGAN', 'Bestyrelse', founded, [fn('FORMAND', founded)])]));
    for (let k = rng.int(1, 4); k > 0; k--)
      out.push(
        p(personName(rng), null, [body('LEDELSESORGAN', 'Bestyrelse', founded, [fn('BESTYRELSESMEDLEM', founded)])]),
      );
    // A member who left: the membership stays in the document with its function ended.
    if (rng.chance(0.3))
      out.push(
        p(personName(rng), null, [
          body('LEDELSESORGAN', 'Bestyrelse', founded, [fn('BESTYRELSESMEDLEM', founded, left)]),
        ]),
      );
  }
  if (form === 'A/S')
    out.push(p(`${rng.pick(LAST_NAMES)} Revision`, holding, [body('REVISION', 'Revision', founded, [])]));
  const register = (fraction: string) => [body('REGISTER', 'EJERREGISTER', founded, share(fraction, founded))];
  if (rng.chance(0.3)) out.push(p(`${owner} Holding ApS`, holding, register('1.0')));
  else {
    out.push(p(owner, null, register(rng.pick(['1.0', '0.6667', '0.5']))));
    if (rng.chance(0.4)) out.push(p(personName(rng), null, register(rng.pick(['0.25', '0.3333', '0.1']))));
  }
  // Beneficial owners are in the real documents; the mapper skips them.
  out.push(p(owner, null, [body('REGISTER', 'Reelle ejere', founded, [fn('Reel ejer', founded)])]));
  if (rng.chance(0.3)) out.push(p(owner, null, [body('STIFTERE', 'Stiftere', founded, [])]));
  return out;
}

function address(rng: Rng, from: string, to: string | null = null) {
  const [kommuneKode, kommuneNavn, postnummer, postdistrikt] = rng.pick(TOWNS);
  const flat = rng.chance(0.2);
  return dated(
    {
      landekode: 'DK',
      fritekst: null,
      vejkode: rng.int(1, 9999),
      kommune: { kommuneKode, kommuneNavn, periode: period('2007-01-01'), sidstOpdateret: stamp('2006-11-13') },
      husnummerFra: rng.int(1, 180),
      adresseId: null,
      sidstValideret: null,
      husnummerTil: null,
      bogstavFra: rng.chance(0.1) ? rng.pick(['A', 'B', 'C']) : null,
      bogstavTil: null,
      etage: flat ? String(rng.int(1, 5)) : null,
      sidedoer: flat ? rng.pick(['th', 'tv', 'mf']) : null,
      conavn: rng.chance(0.05) ? `${rng.pick(LAST_NAMES)} Advokater` : null,
      postboks: null,
      vejnavn: rng.pick(STREETS),
      bynavn: null,
      postnummer,
      postdistrikt,
    },
    from,
    to,
  );
}

const employeeBand = (n: number) =>
  n < 2
    ? 'ANTAL_1_1'
    : n < 5
      ? 'ANTAL_2_4'
      : n < 10
        ? 'ANTAL_5_9'
        : n < 20
          ? 'ANTAL_10_19'
          : n < 50
            ? 'ANTAL_20_49'
            : 'ANTAL_50_99';

/** One search hit: company `i` with number `cvr`; `holding` is an earlier company's number. */
function hit(rng: Rng, ids: Ids, i: number, cvr: number, holding: number): object {
  const [code, form, formText] = rng.pick(FORMS);
  const trade = rng.pick(TRADES);
  const founded = randomDate(rng, 1950, 2024);
  const state = generatedStatus(i);
  const ceasedOn = state === 'ceased' ? randomDate(rng, Number(founded.slice(0, 4)) + 1, 2025) : null;
  const owner = personName(rng);
  const word = `${rng.pick(DK_WORDS)}${rng.pick(DK_WORDS).toLowerCase()}`;
  const name = form === 'ENK' ? `${word} ${trade.da} v/${owner}` : `${word} ${trade.da} ${SUFFIX[form]}`;
  const renamed = rng.chance(0.15) ? randomDate(rng, Number(founded.slice(0, 4)) + 1, 2025) : null;
  const navne = renamed
    ? [dated({ navn: `${rng.pick(DK_WORDS)} ${trade.da}` }, founded, renamed), dated({ navn: name }, renamed)]
    : [dated({ navn: name }, founded, ceasedOn)];
  const moved = rng.chance(0.2) ? randomDate(rng, Number(founded.slice(0, 4)) + 1, 2025) : null;
  const addresses = moved ? [address(rng, founded, moved), address(rng, moved)] : [address(rng, founded)];
  const branche = dated({ branchekode: `${trade.nace}00`, branchetekst: trade.daText }, founded);
  const side = rng.chance(0.15) ? rng.pick(TRADES) : null;
  const formEntry = dated(
    { virksomhedsformkode: code, kortBeskrivelse: form, langBeskrivelse: formText, ansvarligDataleverandoer: 'E&S' },
    founded,
  );
  const statuses =
    form === 'ENK' && state === 'NORMAL'
      ? []
      : state === 'ceased'
        ? [dated({ status: 'NORMAL' }, founded, ceasedOn), dated({ status: rng.pick(CEASED_AS) }, ceasedOn!, ceasedOn)]
        : state === 'NORMAL'
          ? [dated({ status: 'NORMAL' }, founded)]
          : [dated({ status: 'NORMAL' }, founded, '2025-03-31'), dated({ status: state }, '2025-04-01')];
  const employees = form === 'ENK' && rng.chance(0.7) ? 0 : rng.int(1, form === 'A/S' ? 400 : 60);
  const units = form === 'A/S' ? rng.int(1, 8) : rng.chance(0.1) ? rng.int(2, 3) : 1;
  const penheder = Array.from({ length: units }, () => dated({ pNummer: ids.nextPUnit() }, founded, ceasedOn));
  const updated = stamp(ceasedOn ?? randomDate(rng, 2023, 2025));
  const web = rng.chance(0.25)
    ? [dated({ kontaktoplysning: `www.${word.toLowerCase()}${i}.dk`, hemmelig: false }, founded)]
    : [];
  const contact = (k: string) => (rng.chance(0.3) ? [dated({ kontaktoplysning: k, hemmelig: false }, founded)] : []);
  const v = {
    cvrNummer: cvr,
    regNummer: [],
    brancheAnsvarskode: null,
    reklamebeskyttet: form === 'ENK' ? rng.chance(0.25) : false,
    enhedsNummer: 4_000_000_000 + i,
    enhedstype: 'VIRKSOMHED',
    dataAdgang: 0,
    samtId: i + 1,
    sidstIndlaest: updated,
    sidstOpdateret: updated,
    binavne: [],
    postadresse: rng.chance(0.05)
      ? [
          dated(
            {
              landekode: 'DK',
              postboks: String(rng.int(1, 999)),
              postnummer: addresses.at(-1)!.postnummer,
              postdistrikt: addresses.at(-1)!.postdistrikt,
            },
            founded,
          ),
        ]
      : [],
    telefonNummer: contact(String(rng.int(20_000_000, 99_999_999))),
    telefaxNummer: [],
    elektroniskPost: contact(`kontakt@${word.toLowerCase()}.dk`),
    hjemmeside: web,
    obligatoriskEmail: [],
    bibranche1: side ? [dated({ branchekode: `${side.nace}00`, branchetekst: side.daText }, founded)] : [],
    ...unreportedLists(),
    penheder,
    deltagerRelation: relations(rng, ids, form, owner, founded, holding),
    fusioner: [],
    spaltninger: [],
    navne,
    beliggenhedsadresse: addresses,
    livsforloeb: [dated({}, founded, ceasedOn)],
    hovedbranche: [branche],
    virksomhedsstatus: statuses,
    virksomhedsform: [formEntry],
    virksomhedMetadata: {
      nyesteNavn: navne.at(-1),
      nyesteBeliggenhedsadresse: addresses.at(-1),
      nyesteHovedbranche: branche,
      nyesteVirksomhedsform: formEntry,
      // A/S report monthly exact counts; the others a yearly interval (or none without staff).
      nyesteErstMaanedsbeskaeftigelse:
        form === 'A/S' ? { aar: 2025, maaned: 9, antalAnsatte: employees, sidstOpdateret: updated } : null,
      nyesteKvartalsbeskaeftigelse: null,
      nyesteAarsbeskaeftigelse:
        form !== 'A/S' && employees > 0
          ? {
              aar: 2024,
              antalAnsatte: null,
              intervalKodeAntalAnsatte: employeeBand(employees),
              sidstOpdateret: updated,
            }
          : null,
      nyesteKontaktoplysninger: [],
      sammensatStatus:
        state === 'ceased' ? 'Ophørt' : state === 'NORMAL' ? (form === 'ENK' ? 'Aktiv' : 'Normal') : state,
      stiftelsesDato: founded,
      virkningsDato: founded,
    },
  };
  return { _index: 'cvr-v-20220630', _type: '_doc', _id: String(v.enhedsNummer), _source: { Vrvirksomhed: v } };
}

/**
 * `count` documents, one JSON line each, with valid, unique CVR numbers (ascending from
 * 20000004). Deterministic per seed. Document i has ceased (life span ended, status OPLØST …)
 * when i % 5 is 1 or 3, is under bankruptcy when i % 50 === 7 and in liquidation when
 * i % 50 === 17 (`generatedStatus`); every other one is normal.
 */
export function generateCvrNdjson(count: number, seed: number): Readable {
  const rng = seededRng(seed);
  const ids = new Ids();
  async function* chunks(): AsyncGenerator<string> {
    let batch = '';
    let base = 2_000_000;
    let previous = 0;
    for (let i = 0; i < count; i++) {
      let check: number | null;
      while ((check = danishCheckDigit(String(base))) === null) base++;
      const cvr = base * 10 + check;
      base++;
      batch += `${JSON.stringify(hit(rng, ids, i, cvr, previous || cvr))}\n`;
      previous = cvr;
      // Chunks of ~64 KB: one string per document would cost a stream turn per line.
      if (batch.length > 64 * 1024) {
        yield batch;
        batch = '';
      }
    }
    if (batch) yield batch;
  }
  return Readable.from(chunks(), { objectMode: false });
}
