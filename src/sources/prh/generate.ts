// Deterministic PRH/YTJ v3 data for tests and benchmarks: `count` companies in the shape of the
// all_companies JSON array, produced lazily so a million companies never sit in memory.
import { Readable } from 'node:stream';
import { randomDate, seededRng, type Rng } from '../nordic-generate.ts';

const FORMS = [
  { type: '16', fi: 'Osakeyhtiö', sv: 'Aktiebolag', en: 'Limited company', suffix: 'Oy' },
  { type: '16', fi: 'Osakeyhtiö', sv: 'Aktiebolag', en: 'Limited company', suffix: 'Oy' },
  { type: '16', fi: 'Osakeyhtiö', sv: 'Aktiebolag', en: 'Limited company', suffix: 'Oy' },
  { type: '17', fi: 'Julkinen osakeyhtiö', sv: 'Publikt aktiebolag', en: 'Public limited company', suffix: 'Oyj' },
  { type: '13', fi: 'Kommandiittiyhtiö', sv: 'Kommanditbolag', en: 'Limited partnership', suffix: 'Ky' },
  { type: '5', fi: 'Avoin yhtiö', sv: 'Öppet bolag', en: 'General partnership', suffix: 'Ay' },
  { type: '14', fi: 'Osuuskunta', sv: 'Andelslag', en: 'Co-operative', suffix: 'Osk' },
  { type: '2', fi: 'Asunto-osakeyhtiö', sv: 'Bostadsaktiebolag', en: 'Housing company', suffix: 'As Oy' },
];
const LINES = [
  {
    type: '62010',
    fi: 'Ohjelmistojen suunnittelu ja valmistus',
    sv: 'Programvaruproduktion',
    en: 'Computer programming activities',
  },
  {
    type: '41200',
    fi: 'Asuin- ja muiden rakennusten rakentaminen',
    sv: 'Byggande av bostadshus och andra byggnader',
    en: 'Construction of buildings',
  },
  { type: '56101', fi: 'Ravintolat', sv: 'Restauranger', en: 'Restaurants' },
  {
    type: '96999',
    fi: 'Muu muualla luokittelematon palvelutoiminta',
    sv: 'Diverse övriga konsumenttjänster',
    en: 'Other personal service activities n.e.c.',
  },
  {
    type: '68202',
    fi: 'Asuntojen ja asuinkiinteistöjen hallinta',
    sv: 'Förvaltning av bostäder',
    en: 'Management of dwellings',
  },
];
const TOWNS = [
  { fi: 'HELSINKI', sv: 'HELSINGFORS', code: '091', post: '00100' },
  { fi: 'ESPOO', sv: 'ESBO', code: '049', post: '02100' },
  { fi: 'TAMPERE', sv: 'TAMMERFORS', code: '837', post: '33100' },
  { fi: 'TURKU', sv: 'ÅBO', code: '853', post: '20100' },
  { fi: 'OULU', sv: 'ULEÅBORG', code: '564', post: '90100' },
];
const WORDS = [
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
];
const STREETS = [
  'Mannerheimintie',
  'Hämeenkatu',
  'Aleksanterinkatu',
  'Pohjoinen Rautatiekatu',
  'Kauppakatu',
  'Satamakatu',
];

/** Business ID check digit (weights 7 9 10 5 8 4 2, mod 11); null when the body cannot have one. */
export function finnishCheckDigit(body7: string): number | null {
  const weights = [7, 9, 10, 5, 8, 4, 2];
  const rest = weights.reduce((acc, w, i) => acc + w * Number(body7[i]), 0) % 11;
  if (rest === 1) return null;
  return rest === 0 ? 0 : 11 - rest;
}

const descs = (d: { fi: string; sv: string; en: string }) => [
  { languageCode: '1', description: d.fi },
  { languageCode: '2', description: d.sv },
  { languageCode: '3', description: d.en },
];

function company(rng: Rng, businessId: string, i: number): object {
  const form = rng.pick(FORMS);
  const line = rng.pick(LINES);
  const town = rng.pick(TOWNS);
  const registered = randomDate(rng, 1980, 2025);
  const name = `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${form.suffix}`;
  const names: object[] = [{ name, type: '1', registrationDate: registered, version: 1, source: '1' }];
  if (rng.chance(0.2)) {
    names.push({
      name: `${rng.pick(WORDS)} Trading ${form.suffix}`,
      type: '1',
      registrationDate: '1979-01-01',
      endDate: registered,
      version: 2,
      source: '1',
    });
  }
  if (rng.chance(0.1))
    names.push({
      name: `${rng.pick(WORDS)} Services`,
      type: '3',
      registrationDate: registered,
      version: 1,
      source: '1',
    });
  const postOffices = [
    { city: town.fi, languageCode: '1', municipalityCode: town.code },
    { city: town.sv, languageCode: '2', municipalityCode: town.code },
  ];
  const addresses: object[] = [
    {
      type: 1,
      street: rng.pick(STREETS),
      buildingNumber: String(rng.int(1, 120)),
      postCode: town.post,
      postOffices,
      registrationDate: registered,
      source: '0',
    },
  ];
  if (rng.chance(0.3))
    addresses.push({
      type: 2,
      postOfficeBox: String(rng.int(1, 999)),
      postCode: town.post,
      postOffices,
      registrationDate: registered,
      source: '0',
    });
  const ceased = i % 20 === 19;
  const situation = !ceased && i % 50 === 7 ? 'KONK' : !ceased && i % 50 === 13 ? 'SELTILA' : null;
  return {
    businessId: { value: businessId, registrationDate: registered, source: '3' },
    names,
    companyForms: [
      { type: form.type, descriptions: descs(form), registrationDate: registered, version: 1, source: '1' },
    ],
    ...(situation ? { companySituations: [{ type: situation, registrationDate: '2025-06-01', source: '1' }] } : {}),
    addresses,
    mainBusinessLine: {
      type: line.type,
      descriptions: descs(line),
      typeCodeSet: 'TOIMI4',
      registrationDate: registered,
      source: '2',
    },
    ...(rng.chance(0.4)
      ? {
          website: { url: `www.${name.split(' ')[0].toLowerCase()}${i}.fi`, registrationDate: registered, source: '1' },
        }
      : {}),
    tradeRegisterStatus: ceased ? '4' : '1',
    registrationDate: registered,
    ...(ceased ? { endDate: '2024-12-31' } : {}),
    lastModified: '2026-01-02T07:49:26',
  };
}

/**
 * A JSON array of `count` companies with valid, unique business IDs. Every 20th company (i % 20
 * === 19) has ceased, i % 50 === 7 is bankrupt and i % 50 === 13 in liquidation.
 */
export function generatePrhJsonArray(count: number, seed: number): Readable {
  const rng = seededRng(seed);
  async function* chunks(): AsyncGenerator<string> {
    yield '[\n';
    let body = 1_000_000;
    for (let i = 0; i < count; i++) {
      let check: number | null;
      while ((check = finnishCheckDigit(String(body))) === null) body++;
      const id = `${body}-${check}`;
      body++;
      yield (i === 0 ? '' : ',\n') + JSON.stringify(company(rng, id, i));
    }
    yield '\n]\n';
  }
  return Readable.from(chunks(), { objectMode: false });
}
