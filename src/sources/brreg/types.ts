// The parts of brreg's JSON we read (Enhetsregisteret v2, Regnskapsregisteret). Every field
// is optional in practice: the adapters check before use.

interface BrregCode {
  kode?: string;
  beskrivelse?: string;
  utgaatt?: string;
}

export interface BrregAddress {
  adresse?: (string | null)[] | null;
  postnummer?: string | null;
  poststed?: string | null;
  kommune?: string | null;
  kommunenummer?: string | null;
  land?: string | null;
  landkode?: string | null;
}

export interface BrregEnhet {
  organisasjonsnummer: string;
  navn?: string;
  organisasjonsform?: BrregCode;
  postadresse?: BrregAddress;
  forretningsadresse?: BrregAddress;
  registreringsdatoEnhetsregisteret?: string;
  registrertIMvaregisteret?: boolean;
  naeringskode1?: BrregCode;
  naeringskode2?: BrregCode;
  naeringskode3?: BrregCode;
  institusjonellSektorkode?: BrregCode;
  antallAnsatte?: number;
  harRegistrertAntallAnsatte?: boolean;
  stiftelsesdato?: string;
  registrertIForetaksregisteret?: boolean;
  registrertIStiftelsesregisteret?: boolean;
  registrertIFrivillighetsregisteret?: boolean;
  maalform?: string;
  konkurs?: boolean;
  underRekonstruksjonsforhandlingDato?: string;
  underAvvikling?: boolean;
  underTvangsavviklingEllerTvangsopplosning?: boolean;
  hjemmeside?: string;
  epostadresse?: string;
  telefon?: string;
  mobil?: string;
  overordnetEnhet?: string;
  sisteInnsendteAarsregnskap?: string;
  vedtektsfestetFormaal?: string[];
  aktivitet?: string[];
  slettedato?: string;
  /** Set on deleted sub-units. */
  nedleggelsesdato?: string;
  respons_klasse?: string;
}

export interface BrregUnderenhet extends BrregEnhet {
  beliggenhetsadresse?: BrregAddress;
  oppstartsdato?: string;
}

interface BrregRolle {
  type?: BrregCode;
  person?: {
    fodselsdato?: string;
    navn?: { fornavn?: string; mellomnavn?: string; etternavn?: string };
    erDoed?: boolean;
  };
  enhet?: {
    organisasjonsnummer?: string;
    navn?: string[] | string;
    erSlettet?: boolean;
    organisasjonsform?: BrregCode;
  };
  valgtAv?: BrregCode;
  ansvarsandel?: string;
  avregistrert?: boolean;
  fratraadt?: boolean;
  rekkefolge?: number;
}

export interface BrregRoller {
  rollegrupper?: { type?: BrregCode; sistEndret?: string; roller?: BrregRolle[] }[];
}

export interface BrregRegnskap {
  id?: number;
  journalnr?: string;
  regnskapstype?: string;
  virksomhet?: { organisasjonsnummer?: string; organisasjonsform?: string; morselskap?: boolean };
  regnskapsperiode?: { fraDato?: string; tilDato?: string };
  valuta?: string;
  egenkapitalGjeld?: {
    sumEgenkapitalGjeld?: number;
    egenkapital?: { sumEgenkapital?: number };
    gjeldOversikt?: { sumGjeld?: number };
  };
  eiendeler?: { sumEiendeler?: number };
  resultatregnskapResultat?: {
    aarsresultat?: number;
    driftsresultat?: { driftsresultat?: number; driftsinntekter?: { sumDriftsinntekter?: number } };
  };
}

export interface BrregUpdate {
  oppdateringsid: number;
  dato?: string;
  organisasjonsnummer: string;
  endringstype?: 'Ukjent' | 'Ny' | 'Endring' | 'Sletting' | 'Fjernet' | string;
}
