// The demo world's Norwegian companies in brreg's bulk formats (Enhet, Underenhet, the roles
// totalbestand, Regnskapsregisteret records), for round 1 and, with the world's changes applied
// (new CEO, moved address, bankruptcy, deleted units absent from the dump), round 2.
import { seededRandom, type SeededRandom } from '../seeded-random.ts';
import type { BrregEnhet, BrregRegnskap, BrregRoller, BrregUnderenhet } from '../brreg/types.ts';
import {
  DEMO_BUYERS,
  demoOrgNumber,
  type DemoAddress,
  type DemoCompany,
  type DemoPerson,
  type DemoWorld,
} from './world.ts';

export interface BrregRound {
  enheter: BrregEnhet[];
  underenheter: BrregUnderenhet[];
  roller: (BrregRoller & { organisasjonsnummer: string })[];
  regnskap: BrregRegnskap[];
}

const address = (a: DemoAddress) => ({
  land: 'Norge',
  landkode: 'NO',
  postnummer: a.postalCode,
  poststed: a.place,
  adresse: [a.street],
  kommune: a.municipality,
  kommunenummer: a.municipalityNo,
});

const personOf = (p: DemoPerson) => ({
  fodselsdato: p.birthDate,
  navn: { fornavn: p.firstName, etternavn: p.lastName },
  erDoed: false,
});

function rolle(code: string, beskrivelse: string, p: DemoPerson, order: number) {
  return { type: { kode: code, beskrivelse }, person: personOf(p), avregistrert: false, rekkefolge: order };
}

function roller(c: DemoCompany, ceo: DemoPerson | null, auditor: DemoCompany | undefined): BrregRoller {
  if (c.proprietor)
    return {
      rollegrupper: [
        { type: { kode: 'INNH', beskrivelse: 'Innehaver' }, roller: [rolle('INNH', 'Innehaver', c.proprietor, 0)] },
      ],
    };
  const groups: NonNullable<BrregRoller['rollegrupper']> = [];
  if (ceo)
    groups.push({
      type: { kode: 'DAGL', beskrivelse: 'Daglig leder/ adm.direktør' },
      roller: [rolle('DAGL', 'Daglig leder', ceo, 0)],
    });
  groups.push({
    type: { kode: 'STYR', beskrivelse: 'Styre' },
    roller: [
      rolle('LEDE', 'Styrets leder', c.chair, 0),
      ...c.members.map((m, k) => rolle('MEDL', 'Styremedlem', m, k + 1)),
    ],
  });
  if (['ANS', 'DA'].includes(c.form))
    groups.push({
      type: { kode: 'DELT', beskrivelse: 'Deltakere' },
      roller: [c.chair, ...c.members.slice(0, 1)].map((p, k) => ({
        ...rolle('DTPR', 'Deltaker med delt ansvar', p, k),
        ...(c.form === 'DA' ? { ansvarsandel: '50%' } : {}),
      })),
    });
  if (auditor && (c.form === 'AS' || c.form === 'ASA'))
    groups.push({
      type: { kode: 'REVI', beskrivelse: 'Revisor' },
      roller: [
        {
          type: { kode: 'REVI', beskrivelse: 'Revisor' },
          enhet: { organisasjonsnummer: auditor.orgNumber, navn: [auditor.name], erSlettet: false },
          avregistrert: false,
          rekkefolge: 0,
        },
      ],
    });
  return { rollegrupper: groups };
}

function accounts(r: SeededRandom, c: DemoCompany): BrregRegnskap[] {
  const out: BrregRegnskap[] = [];
  const holding = c.trade.kind === 'holding';
  const base = holding ? r.int(200_000, 40_000_000) : Math.max(1, c.employees ?? 1) * r.int(700_000, 2_200_000);
  for (let k = 0; k < c.accountYears; k++) {
    const year = 2024 - k;
    const revenue = Math.round(base * (1 - k * r.next() * 0.12));
    const operating = Math.round(revenue * (r.next() * 0.22 - 0.04));
    const assets = Math.round(revenue * (0.4 + r.next() * (holding ? 4 : 1)));
    const equity = Math.round(assets * (r.next() * 0.6 - 0.05));
    out.push({
      id: Number(c.orgNumber.slice(1)) * 10 + k,
      journalnr: `${year + 1}${String(r.int(1, 999_999)).padStart(6, '0')}`,
      regnskapstype: 'SELSKAP',
      virksomhet: { organisasjonsnummer: c.orgNumber, organisasjonsform: c.form, morselskap: false },
      regnskapsperiode: { fraDato: `${year}-01-01`, tilDato: `${year}-12-31` },
      valuta: 'NOK',
      egenkapitalGjeld: {
        sumEgenkapitalGjeld: assets,
        egenkapital: { sumEgenkapital: equity },
        gjeldOversikt: { sumGjeld: assets - equity },
      },
      eiendeler: { sumEiendeler: assets },
      resultatregnskapResultat: {
        aarsresultat: Math.round(operating * 0.78),
        driftsresultat: { driftsresultat: operating, driftsinntekter: { sumDriftsinntekter: revenue } },
      },
    });
  }
  return out;
}

/** The inter-municipal buyers of the procurement notices, as brreg units (form IKS). */
export function buyerOrgNumbers(world: DemoWorld): string[] {
  return DEMO_BUYERS.map((_, k) => demoOrgNumber(world.companies.length + k));
}

/** brreg's files for round 1 or 2 of the demo. */
export function brregRound(world: DemoWorld, round: 1 | 2, seed: number): BrregRound {
  const r = seededRandom(seed * 31 + 7);
  const { changes } = world;
  const auditors = world.companies.filter((c) => c.trade.word === 'Revisjon' && c.form === 'AS');
  const out: BrregRound = { enheter: [], underenheter: [], roller: [], regnskap: [] };
  for (const c of world.companies) {
    // Drawn in every round, so round 2's values match round 1's where nothing changed.
    const phone = `${r.int(22, 99)} ${r.int(10, 99)} ${r.int(10, 99)} ${r.int(10, 99)}`;
    const hasPhone = r.chance(0.5);
    const hasEmail = r.chance(0.4);
    const postBox = r.chance(0.2) ? r.int(1, 999) : null;
    const subCount = (c.employees ?? 0) >= 5 ? ((c.employees ?? 0) > 100 ? 3 : 1) : 0;
    const books = accounts(r, c);
    if (round === 2 && changes.deleted.has(c.orgNumber)) continue; // a deleted unit leaves the dump
    const addr = (round === 2 && changes.moved.get(c.orgNumber)) || c.address;
    const ceo = (round === 2 && changes.newCeo.get(c.orgNumber)) || c.ceo;
    const slugged = c.website?.replace(/^www\./, '');
    out.enheter.push({
      organisasjonsnummer: c.orgNumber,
      navn: c.name,
      organisasjonsform: { kode: c.form, beskrivelse: c.formName },
      forretningsadresse: address(addr),
      ...(postBox
        ? {
            postadresse: {
              ...address(addr),
              adresse: [`Postboks ${postBox}`],
            },
          }
        : {}),
      registreringsdatoEnhetsregisteret: c.founded,
      registrertIMvaregisteret: c.form !== 'ENK' || c.employees !== null,
      naeringskode1: { kode: c.nace.code, beskrivelse: c.nace.name },
      ...(c.employees !== null ? { antallAnsatte: c.employees } : {}),
      harRegistrertAntallAnsatte: c.employees !== null,
      stiftelsesdato: c.founded,
      registrertIForetaksregisteret: true,
      registrertIStiftelsesregisteret: false,
      registrertIFrivillighetsregisteret: false,
      konkurs: round === 2 && changes.bankrupt.has(c.orgNumber),
      underAvvikling: false,
      underTvangsavviklingEllerTvangsopplosning: false,
      maalform: c.address.municipalityNo === '4601' || c.address.municipalityNo === '1506' ? 'Nynorsk' : 'Bokmål',
      ...(c.website ? { hjemmeside: c.website } : {}),
      ...(hasEmail && slugged ? { epostadresse: `post@${slugged}` } : {}),
      ...(hasPhone ? { telefon: phone } : {}),
      ...(c.accountYears ? { sisteInnsendteAarsregnskap: '2024' } : {}),
      vedtektsfestetFormaal: [`${c.trade.word} og annen virksomhet i forbindelse med dette.`],
    });
    for (let k = 0; k < subCount; k++)
      out.underenheter.push({
        organisasjonsnummer: demoOrgNumber(c.index * 4 + k, 60_000_000),
        navn: k === 0 ? c.name : `${c.name} AVD ${['SENTRUM', 'NORD', 'SØR'][k - 1]}`,
        organisasjonsform: { kode: 'BEDR', beskrivelse: 'Underenhet til næringsdrivende og offentlig forvaltning' },
        overordnetEnhet: c.orgNumber,
        beliggenhetsadresse: address(k === 0 ? addr : c.address),
        registreringsdatoEnhetsregisteret: c.founded,
        registrertIMvaregisteret: false,
        naeringskode1: { kode: c.nace.code, beskrivelse: c.nace.name },
        antallAnsatte: Math.max(1, Math.round((c.employees ?? 1) / subCount)),
        harRegistrertAntallAnsatte: true,
        oppstartsdato: c.founded,
      });
    const auditor = auditors.length ? auditors[c.index % auditors.length] : undefined;
    out.roller.push({ organisasjonsnummer: c.orgNumber, ...roller(c, ceo, auditor === c ? undefined : auditor) });
    out.regnskap.push(...books);
  }
  buyerOrgNumbers(world).forEach((orgNumber, k) => {
    const b = DEMO_BUYERS[k];
    const home = world.companies.find((c) => c.address.municipalityNo === b.municipality)!.address;
    out.enheter.push({
      organisasjonsnummer: orgNumber,
      navn: b.name,
      organisasjonsform: { kode: 'IKS', beskrivelse: 'Interkommunalt selskap' },
      forretningsadresse: address(home),
      registreringsdatoEnhetsregisteret: '2004-01-01',
      registrertIMvaregisteret: true,
      naeringskode1: {
        kode: '84.130',
        beskrivelse: 'Offentlig administrasjon tilknyttet næringsvirksomhet og arbeidsmarked',
      },
      antallAnsatte: 40 + k * 15,
      harRegistrertAntallAnsatte: true,
      stiftelsesdato: '2004-01-01',
      registrertIForetaksregisteret: true,
      konkurs: false,
      underAvvikling: false,
      underTvangsavviklingEllerTvangsopplosning: false,
      maalform: 'Bokmål',
    });
  });
  return out;
}
