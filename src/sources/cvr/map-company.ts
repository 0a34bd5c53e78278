// Maps one Vrvirksomhed document to the store's company parts: core, roles, P-units as
// sub-units, and legal owners. Rules (see README.md): current entries of each list (latest when
// the company has ceased), `virksomhedMetadata.nyeste*` where CVR gives the newest value
// directly, status from `virksomhedsstatus` (else `sammensatStatus`, else the life span).
import { SOURCE, type CompanyCore, type RoleInput, type SubUnitInput } from '../../domain/company.ts';
import { isValidDanishCvrNumber } from '../../domain/org-number.ts';
import { text, type NordicCompanyStatus } from '../nordic-record.ts';
import { mapParticipants, type CvrOwner } from './participants.ts';
import { addressOf, current, currentOrLast, dateOf, isCurrent, list } from './periods.ts';
import type { CvrBeskaeftigelse, CvrHit, CvrVirksomhedMetadata, Vrvirksomhed } from './types.ts';

export interface CvrCompany {
  core: CompanyCore;
  roles: RoleInput[];
  subUnits: SubUnitInput[];
  owners: CvrOwner[];
  /** The document's `sidstOpdateret` (the incremental sync's position). */
  lastUpdated: string | null;
  /** `reklamebeskyttet`: the company has declined advertising; null when the document does not say. */
  marketingProtected: boolean | null;
}

interface StatusFacts {
  status: NordicCompanyStatus;
  isBankrupt: boolean;
  isBeingDissolved: boolean;
  isInForcedDissolution: boolean;
  isDeleted: boolean;
}

/** CVR status words → ours; checked in order, most severe first. */
function statusOf(word: string | null, ceased: boolean): StatusFacts {
  const w = (word ?? '').toUpperCase().replace(/\s+/g, '');
  const facts = (status: NordicCompanyStatus, extra: Partial<StatusFacts> = {}): StatusFacts => ({
    status,
    isBankrupt: false,
    isBeingDissolved: false,
    isInForcedDissolution: false,
    isDeleted: false,
    ...extra,
  });
  if (ceased || /^(OPLØST|OPHØRT|TVANGSOPLØST|SLETTET)/.test(w)) return facts('deregistered', { isDeleted: true });
  if (w.includes('KONKURS')) return facts('bankruptcy', { isBankrupt: true });
  if (w.includes('TVANGSOPLØSNING'))
    return facts('liquidation', { isBeingDissolved: true, isInForcedDissolution: true });
  if (w.includes('LIKVIDATION')) return facts('liquidation', { isBeingDissolved: true });
  if (w.includes('FUSION') || w.includes('SPALTNING')) return facts('merger', { isBeingDissolved: true });
  if (w.includes('REKONSTRUKTION')) return facts('restructuring');
  return facts('registered');
}

/** Employees: an exact count where CVR gives one, else the interval's lower bound and the interval. */
export function employeesOf(meta: CvrVirksomhedMetadata | null | undefined): {
  count: number | null;
  range: string | null;
} {
  const figures: (CvrBeskaeftigelse | null | undefined)[] = [
    meta?.nyesteErstMaanedsbeskaeftigelse,
    meta?.nyesteKvartalsbeskaeftigelse,
    meta?.nyesteAarsbeskaeftigelse,
  ];
  for (const f of figures) {
    if (typeof f?.antalAnsatte === 'number' && Number.isInteger(f.antalAnsatte) && f.antalAnsatte >= 0)
      return { count: f.antalAnsatte, range: null };
  }
  for (const f of figures) {
    // "ANTAL_5_9", "ANTAL_1000_999999"
    const m = /^ANTAL_(\d+)_(\d+)$/.exec(text(f?.intervalKodeAntalAnsatte) ?? '');
    if (m) return { count: Number(m[1]), range: Number(m[2]) >= 999_999 ? `${m[1]}+` : `${m[1]}-${m[2]}` };
  }
  return { count: null, range: null };
}

/** The document of a search hit, or the document itself (NDJSON lines may carry either). */
export function documentOf(json: unknown): Vrvirksomhed {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error('CVR document is not a JSON object');
  const o = json as CvrHit & { Vrvirksomhed?: Vrvirksomhed } & Vrvirksomhed;
  const doc = o._source?.Vrvirksomhed ?? o.Vrvirksomhed ?? (o.cvrNummer !== undefined ? o : undefined);
  if (!doc || typeof doc !== 'object') throw new Error('CVR document without Vrvirksomhed');
  return doc;
}

/** Maps one document; throws an Error naming the CVR number and the problem. */
export function mapVirksomhed(json: unknown): CvrCompany {
  const v = documentOf(json);
  const cvr = typeof v.cvrNummer === 'number' ? String(v.cvrNummer).padStart(8, '0') : text(v.cvrNummer);
  if (!cvr) throw new Error('CVR document without cvrNummer');
  if (!isValidDanishCvrNumber(cvr)) throw new Error(`CVR ${cvr.slice(0, 12)}: invalid CVR number`);
  const meta = v.virksomhedMetadata ?? null;
  const name = text(meta?.nyesteNavn?.navn) ?? text(currentOrLast(v.navne)?.navn);
  if (!name) throw new Error(`CVR ${cvr}: no name`);

  const life = list(v.livsforloeb);
  const lastLife = currentOrLast(life);
  const ceasedOn =
    lastLife && !isCurrent(lastLife) ? dateOf(cvr, 'livsforloeb.gyldigTil', lastLife.periode?.gyldigTil) : null;
  const firstStart =
    life
      .map((l) => text(l.periode?.gyldigFra))
      .filter((d): d is string => d !== null)
      .sort()[0] ?? null;
  const statusWord = text(currentOrLast(v.virksomhedsstatus)?.status) ?? text(meta?.sammensatStatus);
  const facts = statusOf(statusWord, ceasedOn !== null);

  const form = meta?.nyesteVirksomhedsform ?? currentOrLast(v.virksomhedsform);
  const main = meta?.nyesteHovedbranche ?? currentOrLast(v.hovedbranche);
  const side1 = current(v.bibranche1);
  const side2 = current(v.bibranche2);
  const business = addressOf(meta?.nyesteBeliggenhedsadresse ?? currentOrLast(v.beliggenhedsadresse));
  const employees = employeesOf(meta);
  const { roles, owners } = facts.isDeleted ? { roles: [], owners: [] } : mapParticipants(v.deltagerRelation);
  // Over 50 %: a single Danish company owner in a band from 50 % up (two owners cannot both be).
  const majority = owners.filter((o) => o.pctLow >= 50);
  const parent = majority.length === 1 && majority[0].ownerCvr !== cvr ? majority[0].ownerCvr : null;

  const core: CompanyCore = {
    country: 'DK',
    orgNumber: cvr,
    name,
    orgFormCode: text(form?.kortBeskrivelse),
    orgFormDescription: text(form?.langBeskrivelse),
    naceCode1: text(main?.branchekode),
    naceDescription1: text(main?.branchetekst),
    naceCode2: text(side1?.branchekode),
    naceDescription2: text(side1?.branchetekst),
    naceCode3: text(side2?.branchekode),
    naceDescription3: text(side2?.branchetekst),
    sectorCode: null,
    employeeCount: employees.count,
    employeeCountRange: employees.range,
    hasRegisteredEmployees: employees.count === null ? null : employees.count > 0,
    businessAddress: business,
    postalAddress: addressOf(current(v.postadresse)),
    website: text(current(v.hjemmeside)?.kontaktoplysning),
    // Contact e-mail and phone of a sole trader are personal; they are not kept.
    email: null,
    phone: null,
    registryParentOrgNumber: parent,
    foundingDate:
      dateOf(cvr, 'stiftelsesDato', meta?.stiftelsesDato) ?? dateOf(cvr, 'livsforloeb.gyldigFra', firstStart),
    registrationDate: dateOf(cvr, 'livsforloeb.gyldigFra', firstStart),
    registeredInVat: null,
    registeredInBiz: null,
    ...facts,
    deletedDate: ceasedOn,
    description: null,
    lastSubmittedAccountsYear: null,
    source: SOURCE.cvr,
  };
  const subUnits: SubUnitInput[] = list(v.penheder)
    .filter((p) => typeof p.pNummer === 'number')
    .map((p) => ({
      orgNumber: String(p.pNummer),
      parentOrgNumber: cvr,
      // The Vrvirksomhed document names P-units by number only; the unit is named as its company.
      name,
      orgFormCode: null,
      naceCode1: null,
      naceDescription1: null,
      employeeCount: null,
      address: null,
      startDate: dateOf(cvr, 'penheder.gyldigFra', p.periode?.gyldigFra ?? null),
      closureDate: dateOf(cvr, 'penheder.gyldigTil', p.periode?.gyldigTil ?? null),
      isDeleted: !isCurrent(p),
    }));
  const marketingProtected = typeof v.reklamebeskyttet === 'boolean' ? v.reklamebeskyttet : null;
  return { core, roles, subUnits, owners, lastUpdated: text(v.sidstOpdateret), marketingProtected };
}
