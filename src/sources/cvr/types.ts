// The shape of one `Vrvirksomhed` document of Erhvervsstyrelsen's CVR "system-til-system"
// Elasticsearch (index `cvr-permanent/virksomhed`), as far as we read it. Every field is optional:
// the JSON is untrusted and the mapper checks each value it uses. Historic values come as lists of
// entries with a validity `periode`; the current one has `gyldigTil: null`. See README.md.

interface CvrPeriode {
  gyldigFra?: string | null;
  gyldigTil?: string | null;
}

export interface CvrDated {
  periode?: CvrPeriode | null;
  sidstOpdateret?: string | null;
}

interface CvrNavn extends CvrDated {
  navn?: string | null;
}

interface CvrKommune {
  kommuneKode?: number | string | null;
  kommuneNavn?: string | null;
}

export interface CvrAdresse extends CvrDated {
  landekode?: string | null;
  fritekst?: string | null;
  kommune?: CvrKommune | null;
  husnummerFra?: number | null;
  husnummerTil?: number | null;
  bogstavFra?: string | null;
  bogstavTil?: string | null;
  etage?: string | null;
  sidedoer?: string | null;
  conavn?: string | null;
  postboks?: string | null;
  vejnavn?: string | null;
  bynavn?: string | null;
  postnummer?: number | string | null;
  postdistrikt?: string | null;
}

interface CvrBranche extends CvrDated {
  branchekode?: string | null;
  branchetekst?: string | null;
}

interface CvrVirksomhedsform extends CvrDated {
  virksomhedsformkode?: number | null;
  kortBeskrivelse?: string | null;
  langBeskrivelse?: string | null;
}

interface CvrStatus extends CvrDated {
  status?: string | null;
}

interface CvrKontakt extends CvrDated {
  kontaktoplysning?: string | null;
  hemmelig?: boolean | null;
}

/** Employment figures (yearly, quarterly, monthly): an exact count or an interval code. */
export interface CvrBeskaeftigelse {
  aar?: number | null;
  maaned?: number | null;
  kvartal?: number | null;
  antalAnsatte?: number | null;
  intervalKodeAntalAnsatte?: string | null;
  sidstOpdateret?: string | null;
}

interface CvrVaerdi extends CvrDated {
  vaerdi?: string | null;
}

export interface CvrAttribut {
  type?: string | null;
  vaerditype?: string | null;
  vaerdier?: CvrVaerdi[] | null;
}

export interface CvrOrganisation {
  /** LEDELSESORGAN, REGISTER, FULDT_ANSVARLIG_DELTAGERE, STIFTERE, REVISION, … */
  hovedtype?: string | null;
  organisationsNavn?: CvrNavn[] | null;
  attributter?: CvrAttribut[] | null;
  medlemsData?: { attributter?: CvrAttribut[] | null }[] | null;
}

export interface CvrDeltager {
  /** Never exposed: it identifies a person across the register. */
  enhedsNummer?: number | null;
  /** PERSON, VIRKSOMHED or ANDEN_DELTAGER. */
  enhedstype?: string | null;
  /** For VIRKSOMHED participants: their CVR number. */
  forretningsnoegle?: number | string | null;
  navne?: CvrNavn[] | null;
}

export interface CvrDeltagerRelation {
  deltager?: CvrDeltager | null;
  organisationer?: CvrOrganisation[] | null;
}

interface CvrPenhed extends CvrDated {
  pNummer?: number | null;
}

export interface CvrVirksomhedMetadata {
  nyesteNavn?: CvrNavn | null;
  nyesteBeliggenhedsadresse?: CvrAdresse | null;
  nyesteHovedbranche?: CvrBranche | null;
  nyesteVirksomhedsform?: CvrVirksomhedsform | null;
  nyesteErstMaanedsbeskaeftigelse?: CvrBeskaeftigelse | null;
  nyesteKvartalsbeskaeftigelse?: CvrBeskaeftigelse | null;
  nyesteAarsbeskaeftigelse?: CvrBeskaeftigelse | null;
  sammensatStatus?: string | null;
  stiftelsesDato?: string | null;
}

export interface Vrvirksomhed {
  cvrNummer?: number | string | null;
  enhedsNummer?: number | null;
  sidstOpdateret?: string | null;
  navne?: CvrNavn[] | null;
  beliggenhedsadresse?: CvrAdresse[] | null;
  postadresse?: CvrAdresse[] | null;
  hjemmeside?: CvrKontakt[] | null;
  livsforloeb?: CvrDated[] | null;
  hovedbranche?: CvrBranche[] | null;
  bibranche1?: CvrBranche[] | null;
  bibranche2?: CvrBranche[] | null;
  virksomhedsstatus?: CvrStatus[] | null;
  virksomhedsform?: CvrVirksomhedsform[] | null;
  deltagerRelation?: CvrDeltagerRelation[] | null;
  penheder?: CvrPenhed[] | null;
  virksomhedMetadata?: CvrVirksomhedMetadata | null;
  /** The company has declined advertising (CVR's reklamebeskyttelse). */
  reklamebeskyttet?: boolean | null;
}

/** One search hit as the scroll returns it (`_source.Vrvirksomhed`), or a bare document. */
export interface CvrHit {
  _id?: string;
  _source?: { Vrvirksomhed?: Vrvirksomhed };
}
