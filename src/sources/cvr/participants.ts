// People and owners from `deltagerRelation`. Each relation is a participant (person, company or
// other) with the organisations it belongs to: management bodies (direktion, bestyrelse),
// founders, auditors, fully liable partners, and the registers (EJERREGISTER = legal owners with
// `EJERANDEL_PROCENT` intervals). Only current memberships are mapped. A person keeps a name and
// nothing else: no address, no enhedsNummer. Beneficial owners ("Reelle ejere") are skipped.
import type { RoleInput } from '../../domain/company.ts';
import { text } from '../nordic-record.ts';
import { current, isCurrent, list } from './periods.ts';
import type { CvrAttribut, CvrDeltager, CvrDeltagerRelation, CvrOrganisation } from './types.ts';

type CvrOwnerType = 'person' | 'company' | 'other';

/** A legal owner of the company (EJERREGISTER), with the band CVR registers its share in. */
export interface CvrOwner {
  ownerType: CvrOwnerType;
  ownerName: string;
  /** The owner's CVR number when it is a Danish company. */
  ownerCvr: string | null;
  /** The band's lower and upper bound, in percent (e.g. 50 and 66.67). */
  pctLow: number;
  pctHigh: number;
  /** Voting-rights band's lower bound in percent, when registered. */
  votingPctLow: number | null;
}

/**
 * The bands of Selskabsloven § 55/58a: CVR stores the lower bound as a fraction ("0.3333").
 * Upper bounds are the next band's lower bound; 100 % is its own band.
 */
const BANDS: readonly [number, number][] = [
  [0.05, 10],
  [0.1, 15],
  [0.15, 20],
  [0.2, 25],
  [0.25, 33.33],
  [0.3333, 50],
  [0.5, 66.67],
  [0.6667, 90],
  [0.9, 100],
  [1, 100],
];

/** A registered fraction → [low %, high %]; null when it is not one of the legal bands. */
export function ownershipBand(fraction: number): [number, number] | null {
  const band = BANDS.find(([low]) => Math.abs(low - fraction) < 0.00005);
  if (!band) return null;
  return [Math.round(band[0] * 10_000) / 100, band[1]];
}

/** CVR's FUNKTION values (and body names) → our role codes, the brreg codes where they mean the same. */
const ROLE_CODES: Record<string, string> = {
  DIREKTØR: 'DAGL',
  'ADM. DIR.': 'DAGL',
  'ADM. DIREKTØR': 'DAGL',
  DIREKTION: 'DAGL',
  FORMAND: 'LEDE',
  NÆSTFORMAND: 'NEST',
  BESTYRELSESMEDLEM: 'MEDL',
  BESTYRELSE: 'MEDL',
  SUPPLEANT: 'VARA',
  REVISION: 'REVI',
  REVISOR: 'REVI',
  STIFTER: 'STIF',
  STIFTERE: 'STIF',
  INTERESSENT: 'DTSO',
  KOMPLEMENTAR: 'KOMP',
  'FULDT ANSVARLIG DELTAGER': 'INNH',
  'FULDT ANSVARLIGE DELTAGERE': 'INNH',
  INDEHAVER: 'INNH',
};

const name = (d: CvrDeltager | null | undefined) => text(current(d?.navne)?.navn ?? list(d?.navne).at(-1)?.navn);
const orgName = (o: CvrOrganisation) => text(current(o.organisationsNavn)?.navn ?? list(o.organisationsNavn)[0]?.navn);

const attributes = (o: CvrOrganisation, type: string): CvrAttribut[] =>
  [...list(o.attributter), ...list(o.medlemsData).flatMap((m) => list(m.attributter))].filter((a) => a.type === type);

/** The current values of one attribute type across the organisation's member data. */
function currentValues(o: CvrOrganisation, type: string): string[] {
  return attributes(o, type)
    .flatMap((a) => list(a.vaerdier).filter(isCurrent))
    .map((v) => text(v.vaerdi))
    .filter((v): v is string => v !== null);
}

/** Whether the organisation membership itself is current (body names carry periods). */
const memberNow = (o: CvrOrganisation) =>
  list(o.organisationsNavn).length === 0 || current(o.organisationsNavn) !== null;

function splitName(full: string): { first: string | null; last: string | null } {
  const parts = full.split(/\s+/);
  if (parts.length === 1) return { first: null, last: full };
  return { first: parts.slice(0, -1).join(' '), last: parts.at(-1)! };
}

const cvrOf = (d: CvrDeltager): string | null => {
  const n = typeof d.forretningsnoegle === 'number' ? String(d.forretningsnoegle) : text(d.forretningsnoegle);
  return n && /^\d{8}$/.test(n) ? n : null;
};

function roleOf(d: CvrDeltager, participant: string, fn: string, body: string | null, position: number): RoleInput {
  const code = ROLE_CODES[fn.toUpperCase()] ?? fn.toUpperCase().replace(/[^A-ZÆØÅ]+/g, '_');
  const isPerson = d.enhedstype === 'PERSON';
  const split = isPerson ? splitName(participant) : { first: null, last: null };
  return {
    groupCode: body,
    groupDescription: body,
    roleTypeCode: code,
    roleTypeDescription: fn,
    personFirstName: split.first,
    personMiddleName: null,
    personLastName: split.last,
    personBirthYear: null,
    entityOrgNumber: isPerson ? null : cvrOf(d),
    entityName: isPerson ? null : participant,
    electedBy: null,
    responsibilityShare: null,
    position,
  };
}

/** Current roles and legal owners of one company. */
export function mapParticipants(relations: CvrDeltagerRelation[] | null | undefined): {
  roles: RoleInput[];
  owners: CvrOwner[];
} {
  const roles: RoleInput[] = [];
  const owners: CvrOwner[] = [];
  for (const rel of list(relations)) {
    const d = rel.deltager;
    const participant = name(d);
    if (!d || !participant) continue;
    for (const o of list(rel.organisationer)) {
      const body = orgName(o);
      if (o.hovedtype === 'REGISTER') {
        if (body?.toUpperCase() !== 'EJERREGISTER') continue; // beneficial owners are not mapped
        const share = currentValues(o, 'EJERANDEL_PROCENT').map(Number).find(Number.isFinite);
        const band = share === undefined ? null : ownershipBand(share);
        if (!band) continue;
        const voting = currentValues(o, 'EJERANDEL_STEMMERET_PROCENT').map(Number).find(Number.isFinite);
        const votingBand = voting === undefined ? null : ownershipBand(voting);
        owners.push({
          ownerType: d.enhedstype === 'PERSON' ? 'person' : cvrOf(d) ? 'company' : 'other',
          ownerName: participant,
          ownerCvr: d.enhedstype === 'PERSON' ? null : cvrOf(d),
          pctLow: band[0],
          pctHigh: band[1],
          votingPctLow: votingBand ? votingBand[0] : null,
        });
        continue;
      }
      if (!memberNow(o)) continue;
      // A membership whose functions all ended is over; one without any FUNKTION is named by its body.
      const functions = currentValues(o, 'FUNKTION');
      const hadFunctions = attributes(o, 'FUNKTION').some((a) => list(a.vaerdier).length > 0);
      const fns = functions.length ? functions : !hadFunctions && body ? [body] : [];
      for (const fn of fns) roles.push(roleOf(d, participant, fn, body, roles.length + 1));
    }
  }
  return { roles, owners };
}
