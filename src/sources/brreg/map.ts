// Maps brreg's JSON to the store's company parts (domain/company.ts).
import {
  SOURCE,
  type Address,
  type CompanyCore,
  type FinancialInput,
  type RoleInput,
  type SubUnitInput,
} from '../../domain/company.ts';
import type { BrregAddress, BrregEnhet, BrregRegnskap, BrregRoller, BrregUnderenhet } from './types.ts';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const date = (v: unknown): string | null => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function mapAddress(a: BrregAddress | undefined | null): Address | null {
  if (!a) return null;
  // `adresse` lines may hold null and "" entries.
  const street =
    (a.adresse ?? [])
      .map(text)
      .filter((l): l is string => l !== null)
      .join(', ') || null;
  const out: Address = {
    street,
    postalCode: text(a.postnummer),
    city: text(a.poststed),
    municipality: text(a.kommune),
    municipalityNumber: text(a.kommunenummer),
    countryCode: text(a.landkode),
  };
  return Object.values(out).some((v) => v !== null) ? out : null;
}

/** Web address as the registry has it ("www.brreg.no", no scheme). */
function website(v: unknown): string | null {
  const t = text(v);
  return t ? t.replace(/^https?:\/\//i, '').replace(/\/+$/, '') : null;
}

export function mapEnhet(e: BrregEnhet): CompanyCore {
  const deleted = text(e.slettedato) !== null;
  const bankrupt = e.konkurs === true;
  const dissolving = e.underAvvikling === true;
  const forced = e.underTvangsavviklingEllerTvangsopplosning === true;
  return {
    country: 'NO',
    orgNumber: e.organisasjonsnummer,
    name: text(e.navn) ?? e.organisasjonsnummer,
    orgFormCode: text(e.organisasjonsform?.kode),
    orgFormDescription: text(e.organisasjonsform?.beskrivelse),
    naceCode1: text(e.naeringskode1?.kode),
    naceDescription1: text(e.naeringskode1?.beskrivelse),
    naceCode2: text(e.naeringskode2?.kode),
    naceDescription2: text(e.naeringskode2?.beskrivelse),
    naceCode3: text(e.naeringskode3?.kode),
    naceDescription3: text(e.naeringskode3?.beskrivelse),
    sectorCode: text(e.institusjonellSektorkode?.kode),
    employeeCount: num(e.antallAnsatte),
    hasRegisteredEmployees: bool(e.harRegistrertAntallAnsatte),
    businessAddress: mapAddress(e.forretningsadresse),
    postalAddress: mapAddress(e.postadresse),
    website: website(e.hjemmeside),
    email: text(e.epostadresse),
    phone: text(e.telefon) ?? text(e.mobil),
    registryParentOrgNumber: text(e.overordnetEnhet),
    foundingDate: date(e.stiftelsesdato),
    registrationDate: date(e.registreringsdatoEnhetsregisteret),
    registeredInVat: bool(e.registrertIMvaregisteret),
    registeredInBiz: bool(e.registrertIForetaksregisteret),
    isBankrupt: bankrupt,
    isBeingDissolved: dissolving,
    isInForcedDissolution: forced,
    ...(text(e.underRekonstruksjonsforhandlingDato) ? { isInDebtNegotiation: true } : {}),
    isDeleted: deleted,
    deletedDate: date(e.slettedato),
    status: deleted
      ? 'deleted'
      : bankrupt
        ? 'bankrupt'
        : forced
          ? 'forced-dissolution'
          : dissolving
            ? 'dissolving'
            : 'active',
    description: (e.vedtektsfestetFormaal ?? e.aktivitet ?? []).map(text).filter(Boolean).join(' ') || null,
    lastSubmittedAccountsYear: text(e.sisteInnsendteAarsregnskap),
    source: SOURCE.brreg,
  };
}

export function mapUnderenhet(u: BrregUnderenhet): SubUnitInput {
  return {
    orgNumber: u.organisasjonsnummer,
    parentOrgNumber: text(u.overordnetEnhet),
    name: text(u.navn) ?? u.organisasjonsnummer,
    orgFormCode: text(u.organisasjonsform?.kode),
    naceCode1: text(u.naeringskode1?.kode),
    naceDescription1: text(u.naeringskode1?.beskrivelse),
    employeeCount: num(u.antallAnsatte),
    address: mapAddress(u.beliggenhetsadresse ?? u.postadresse),
    startDate: date(u.oppstartsdato),
    closureDate: date(u.nedleggelsesdato),
    isDeleted: text(u.slettedato) !== null,
  };
}

/** Active roles only; persons keep names and birth year, never the full birth date. */
export function mapRoller(r: BrregRoller | null | undefined): RoleInput[] {
  const out: RoleInput[] = [];
  for (const group of r?.rollegrupper ?? []) {
    for (const role of group.roller ?? []) {
      if (role.avregistrert === true || role.fratraadt === true) continue;
      const code = text(role.type?.kode);
      if (!code) continue;
      const birth = text(role.person?.fodselsdato);
      const entityName = Array.isArray(role.enhet?.navn)
        ? role.enhet.navn.map(text).filter(Boolean).join(' ')
        : text(role.enhet?.navn);
      out.push({
        groupCode: text(group.type?.kode),
        groupDescription: text(group.type?.beskrivelse),
        roleTypeCode: code,
        roleTypeDescription: text(role.type?.beskrivelse),
        personFirstName: text(role.person?.navn?.fornavn),
        personMiddleName: text(role.person?.navn?.mellomnavn),
        personLastName: text(role.person?.navn?.etternavn),
        personBirthYear: birth && /^\d{4}/.test(birth) ? Number(birth.slice(0, 4)) : null,
        entityOrgNumber: text(role.enhet?.organisasjonsnummer),
        entityName: entityName || null,
        electedBy: text(role.valgtAv?.beskrivelse),
        responsibilityShare: text(role.ansvarsandel),
        position: num(role.rekkefolge),
      });
    }
  }
  return out;
}

/** Key figures; a missing sub-object stays null ("missing ≠ 0"). */
export function mapRegnskap(list: BrregRegnskap[] | null | undefined): FinancialInput[] {
  const out = new Map<string, FinancialInput>();
  for (const r of list ?? []) {
    const periodTo = date(r.regnskapsperiode?.tilDato);
    if (!periodTo) continue;
    const accountsType = text(r.regnskapstype) ?? 'SELSKAP';
    const equity = num(r.egenkapitalGjeld?.egenkapital?.sumEgenkapital);
    // A company can file SELSKAP and KONSERN for the same year: one row per (period, type).
    out.set(`${periodTo}:${accountsType}`, {
      upstreamId: r.id !== undefined ? String(r.id) : null,
      accountsType,
      periodFrom: date(r.regnskapsperiode?.fraDato),
      periodTo,
      currency: text(r.valuta),
      revenue: num(r.resultatregnskapResultat?.driftsresultat?.driftsinntekter?.sumDriftsinntekter),
      operatingProfit: num(r.resultatregnskapResultat?.driftsresultat?.driftsresultat),
      netResult: num(r.resultatregnskapResultat?.aarsresultat),
      equity,
      totalAssets: num(r.eiendeler?.sumEiendeler),
      totalLiabilities: num(r.egenkapitalGjeld?.gjeldOversikt?.sumGjeld),
      source: SOURCE.regnskap,
    });
  }
  return [...out.values()];
}
