// The demo's Danish companies as CVR Vrvirksomhed search hits, one a line (the structure of
// test/fixtures/cvr/virksomheder.ndjson, with direktion, bestyrelse and EJERREGISTER owners).
import { unreportedLists } from '../cvr/generate.ts';
import { seededRandom } from '../seeded-random.ts';
import { date, DEMO_DK, DK_TOWNS, DK_WORDS, PINNED, TRADES, uniqueName } from './nordic.ts';

const FIRST_DK = [
  'Mette',
  'Henrik',
  'Sofie',
  'Lars',
  'Anne',
  'Jens',
  'Camilla',
  'Søren',
  'Louise',
  'Mads',
  'Ida',
  'Rasmus',
  'Line',
  'Niels',
  'Maja',
  'Kasper',
];
const LAST_DK = [
  'Sørensen',
  'Bach',
  'Krogh',
  'Kyster',
  'Lund',
  'Holm',
  'Dahl',
  'Møller',
  'Skov',
  'Thygesen',
  'Vestergaard',
  'Brandt',
  'Kjær',
  'Friis',
  'Juhl',
  'Bundgaard',
];

const STAMP = '2024-03-14T09:12:44.000+01:00';
const period = (from: string, to: string | null = null) => ({ gyldigFra: from, gyldigTil: to });

/** CVR numbers of the demo's Danish companies, in order (8 digits, mod-11 weights 2765432 1). */
export function danishCvrNumbers(count = DEMO_DK): number[] {
  const weights = [2, 7, 6, 5, 4, 3, 2, 1];
  const out: number[] = [];
  for (let n = 43_100_000; out.length < count; n += 3) {
    const digits = String(n).split('').map(Number);
    if (digits.reduce((a, d, k) => a + d * weights[k], 0) % 11 === 0) out.push(n);
  }
  return out;
}

function dkParticipant(id: number, name: string, cvr: number | null, organisations: object[]) {
  return {
    deltager: {
      enhedsNummer: id,
      enhedstype: cvr === null ? 'PERSON' : 'VIRKSOMHED',
      forretningsnoegle: cvr,
      organisationstype: null,
      sidstIndlaest: STAMP,
      sidstOpdateret: STAMP,
      navne: [{ navn: name, periode: period('2010-01-01'), sidstOpdateret: STAMP }],
      adresseHemmelig: false,
      adresseOpdateret: null,
      beliggenhedsadresse: [],
    },
    kontorsteder: [],
    organisationer: organisations,
  };
}

const attribute = (type: string, vaerditype: string, value: string, from: string) => ({
  sekvensnr: 0,
  type,
  vaerditype,
  vaerdier: [{ vaerdi: value, periode: period(from), sidstOpdateret: STAMP }],
});

const organisation = (hovedtype: string, navn: string, from: string, attributes: object[]) => ({
  enhedsNummerOrganisation: 4_000_000_001,
  hovedtype,
  organisationsNavn: [{ navn, periode: period(from) }],
  attributter: [],
  medlemsData: [{ attributter: attributes }],
});

/** CVR's NDJSON of Vrvirksomhed search hits for the demo. */
export function cvrNdjson(seed: number, count = DEMO_DK): string {
  const r = seededRandom(seed * 19 + 5);
  const taken = new Set<string>();
  const cvrs = danishCvrNumbers(count);
  const lines = cvrs.map((cvr, i) => {
    const trade = i === 0 ? TRADES.find((t) => t.nace === '6420')! : r.pick(TRADES);
    const aps = i === 0 || r.chance(0.75);
    const form = aps
      ? { virksomhedsformkode: 80, kortBeskrivelse: 'APS', langBeskrivelse: 'Anpartsselskab' }
      : { virksomhedsformkode: 60, kortBeskrivelse: 'A/S', langBeskrivelse: 'Aktieselskab' };
    const name = i === 0 ? PINNED.DK : uniqueName(r, taken, DK_WORDS, trade.da, aps ? 'ApS' : 'A/S');
    taken.add(name.replace(/ \S+$/, '').toUpperCase());
    const town = i === 0 ? DK_TOWNS[1] : r.pick(DK_TOWNS);
    const founded = date(r, 1990, 2023);
    const status = i > 0 && i % 31 === 0 ? 'UNDER KONKURS' : 'NORMAL';
    const code = `${trade.nace}${trade.nace === '6420' ? '20' : '00'}`;
    const branche = { branchekode: code, branchetekst: trade.daText, periode: period(founded), sidstOpdateret: STAMP };
    const formEntry = { ...form, ansvarligDataleverandoer: 'E&S', periode: period(founded), sidstOpdateret: STAMP };
    const address = {
      landekode: 'DK',
      fritekst: null,
      vejkode: 100 + i,
      kommune: { kommuneKode: town.code, kommuneNavn: town.name, periode: period('2007-01-01'), sidstOpdateret: STAMP },
      husnummerFra: r.int(1, 120),
      adresseId: null,
      sidstValideret: null,
      husnummerTil: null,
      bogstavFra: null,
      bogstavTil: null,
      etage: null,
      sidedoer: null,
      conavn: null,
      postboks: null,
      vejnavn: town.street,
      bynavn: null,
      postnummer: town.post,
      postdistrikt: town.district,
      periode: period(founded),
      sidstOpdateret: STAMP,
    };
    const personBase = 4_002_100_000 + i * 10;
    const director = `${r.pick(FIRST_DK)} ${r.pick(LAST_DK)}`;
    const chair = `${r.pick(FIRST_DK)} ${r.pick(LAST_DK)}`;
    const ownedByHolding = i > 0 && i % 5 === 0;
    const participants = [
      dkParticipant(personBase + 1, director, null, [
        organisation('LEDELSESORGAN', 'Direktion', founded, [attribute('FUNKTION', 'string', 'DIREKTØR', founded)]),
      ]),
      dkParticipant(personBase + 2, chair, null, [
        organisation('LEDELSESORGAN', 'Bestyrelse', founded, [attribute('FUNKTION', 'string', 'FORMAND', founded)]),
      ]),
      ownedByHolding
        ? dkParticipant(4_001_100_000, PINNED.DK, cvrs[0], [
            organisation('REGISTER', 'EJERREGISTER', founded, [
              attribute('EJERANDEL_PROCENT', 'decimal', '1.0', founded),
              attribute('EJERANDEL_STEMMERET_PROCENT', 'decimal', '1.0', founded),
            ]),
          ])
        : dkParticipant(personBase + 2, chair, null, [
            organisation('REGISTER', 'EJERREGISTER', founded, [
              attribute('EJERANDEL_PROCENT', 'decimal', '0.6667', founded),
              attribute('EJERANDEL_STEMMERET_PROCENT', 'decimal', '0.6667', founded),
            ]),
          ]),
    ];
    const employees = r.int(1, 60);
    const band =
      employees < 5 ? 'ANTAL_1_4' : employees < 10 ? 'ANTAL_5_9' : employees < 20 ? 'ANTAL_10_19' : 'ANTAL_20_49';
    const v = {
      cvrNummer: cvr,
      regNummer: [],
      brancheAnsvarskode: null,
      reklamebeskyttet: false,
      enhedsNummer: 4_001_100_000 + i,
      enhedstype: 'VIRKSOMHED',
      dataAdgang: 0,
      samtId: i + 1,
      sidstIndlaest: STAMP,
      sidstOpdateret: STAMP,
      binavne: [],
      postadresse: [],
      telefonNummer: [],
      telefaxNummer: [],
      elektroniskPost: [],
      hjemmeside: [],
      obligatoriskEmail: [],
      bibranche1: [],
      ...unreportedLists(),
      penheder: [{ pNummer: 1_030_000_000 + i, periode: period(founded), sidstOpdateret: STAMP }],
      deltagerRelation: participants,
      fusioner: [],
      spaltninger: [],
      navne: [{ navn: name, periode: period(founded), sidstOpdateret: STAMP }],
      beliggenhedsadresse: [address],
      livsforloeb: [{ periode: period(founded), sidstOpdateret: STAMP }],
      hovedbranche: [branche],
      virksomhedsstatus: [{ status, periode: period(founded), sidstOpdateret: STAMP }],
      virksomhedsform: [formEntry],
      virksomhedMetadata: {
        nyesteNavn: { navn: name, periode: period(founded), sidstOpdateret: STAMP },
        nyesteBeliggenhedsadresse: address,
        nyesteHovedbranche: branche,
        nyesteVirksomhedsform: formEntry,
        nyesteErstMaanedsbeskaeftigelse: null,
        nyesteKvartalsbeskaeftigelse: null,
        nyesteAarsbeskaeftigelse: {
          aar: 2024,
          antalAnsatte: null,
          antalAarsvaerk: null,
          antalInklusivEjere: null,
          intervalKodeAntalAnsatte: band,
          intervalKodeAntalAarsvaerk: band,
          intervalKodeAntalInklusivEjere: band,
          sidstOpdateret: STAMP,
        },
        nyesteKontaktoplysninger: [],
        sammensatStatus: status === 'NORMAL' ? 'Normal' : 'Under konkurs',
        stiftelsesDato: founded,
        virkningsDato: founded,
      },
    };
    return JSON.stringify({
      _index: 'cvr-v-20220630',
      _type: '_doc',
      _id: String(v.enhedsNummer),
      _source: { Vrvirksomhed: v },
    });
  });
  return `${lines.join('\n')}\n`;
}
