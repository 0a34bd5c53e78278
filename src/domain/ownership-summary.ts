// From the paths of an ownership walk to its answer: ultimate-owner candidates (one per owner
// and stop reason, shares summed over paths), the share that could not be traced, and the
// complex-structure flags an AML review asks for (the EU AML Authority's draft criteria: at
// least three layers together with at least two of a trust or similar arrangement, a
// jurisdiction outside the EU/EEA, a nominee shareholder). A flag is null where the registers
// cannot tell; the evidence names entities only, never a natural person.
import { pathControl, sumBands, type Band, type Hop, type StopReason, type Terminal } from './ownership-walk.ts';

export type CandidateKind = 'person' | 'company' | 'state' | 'foreign' | 'unknown';

export interface Candidate {
  kind: CandidateKind;
  orgNumber: string | null;
  name: string | null;
  country: string | null;
  birthYear: number | null;
  share: Band;
  controls: boolean | null;
  stopReason: StopReason;
  paths: Hop[][];
}

export interface Flag {
  value: boolean | null;
  evidence: string[];
}

export interface StructureFlags {
  layers: number;
  jurisdictions: number;
  jurisdictionCodes: string[];
  cycle: Flag;
  trustOrArrangement: Flag;
  nonEeaJurisdiction: Flag;
  nominee: Flag;
  complexStructure: Flag;
}

/** Organisation forms of the state and local government (Enhetsregisteret codes). */
const STATE_FORMS = new Set(['STAT', 'KOMM', 'FYLK', 'SÆR', 'ORGL']);

/** EU member states (ISO 3166-1; Greece both as GR and EL) and the EEA's Iceland, Liechtenstein, Norway. */
const EEA = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR EL HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '),
);

// Registers carry no type for trusts or nominee accounts: they are recognised by name only.
const TRUST = /\b(TRUST|TRUSTEES?|FIDUCIA\w*|FIDUCIE|TREUHAND\w*|STIFTUNG|ANSTALT|FOUNDATION)\b/i;
const NOMINEE = /\b(NOMINEES?|NOM|FORVALTER\w*|CUSTODY|CUSTODIAN|CLIENTS? ACCOUNT)\b/i;

const EPS = 1e-9;

function kindOf(h: Hop | undefined): CandidateKind {
  if (!h) return 'unknown';
  if (h.kind === 'person') return 'person';
  if (h.kind === 'foreign') return 'foreign';
  return h.orgFormCode && STATE_FORMS.has(h.orgFormCode) ? 'state' : 'company';
}

/** One candidate per owner and stop reason; the share left unexplained is one 'unknown' candidate. */
export function candidatesOf(terminals: Terminal[]): Candidate[] {
  const byKey = new Map<string, { c: Candidate; shares: Band[]; controls: (boolean | null)[] }>();
  for (const t of terminals) {
    const last = t.stopReason === 'unknown' ? undefined : t.hops[t.hops.length - 1];
    const kind = kindOf(last);
    const key =
      kind === 'unknown'
        ? 'unknown'
        : [
            t.stopReason,
            kind,
            last?.orgNumber ?? '',
            last?.name ?? '',
            last?.birthYear ?? '',
            last?.country ?? '',
          ].join('|');
    let entry = byKey.get(key);
    if (!entry) {
      entry = {
        c: {
          kind,
          orgNumber: last?.orgNumber ?? null,
          name: last?.name ?? null,
          country: last?.country ?? null,
          birthYear: last?.birthYear ?? null,
          share: { low: 0, high: 0 },
          controls: false,
          stopReason: t.stopReason,
          paths: [],
        },
        shares: [],
        controls: [],
      };
      byKey.set(key, entry);
    }
    entry.shares.push(t.share);
    entry.controls.push(kind === 'unknown' ? false : pathControl(t.hops));
    entry.c.paths.push(t.hops);
  }
  return [...byKey.values()]
    .map(({ c, shares, controls }) => ({
      ...c,
      share: sumBands(shares),
      controls: controls.includes(true) ? true : controls.includes(null) ? null : false,
    }))
    .sort(
      (a, b) => b.share.high - a.share.high || b.share.low - a.share.low || (a.name ?? '').localeCompare(b.name ?? ''),
    );
}

/**
 * The share that ends at no natural person, state body or owner-less company: foreign owners,
 * companies with no register rows in the year, the depth cap, cycles and unexplained shares.
 */
export function untracedShare(candidates: Candidate[]): Band {
  const traced = (c: Candidate) => c.kind === 'person' || c.kind === 'state';
  return sumBands(candidates.filter((c) => !traced(c)).map((c) => c.share));
}

const entityName = (h: Hop) =>
  `${h.name ?? '?'}${h.orgNumber ? ` (${h.orgNumber})` : h.country ? ` (${h.country})` : ''}`;

function byName(hops: Hop[], pattern: RegExp): Flag {
  const hits = [...new Set(hops.filter((h) => h.name && pattern.test(h.name)).map(entityName))];
  if (hits.length) return { value: true, evidence: hits };
  // A registered company (it has an organisation number here) is neither a trust nor a nominee account.
  if (hops.every((h) => h.kind === 'company' && h.orgNumber)) return { value: false, evidence: [] };
  return { value: null, evidence: [] };
}

/** The flags over every path (persons' hops count for layers only, and are never named). */
export function structureFlags(rootCountry: string, terminals: Terminal[]): StructureFlags {
  const layers = terminals.reduce((m, t) => Math.max(m, t.hops.length), 0);
  // Each entity once (a tree of 500 companies has thousands of hops over its paths); every use below is a set.
  const unique = new Map<string, Hop>();
  for (const t of terminals)
    for (const h of t.hops) {
      const k = `${h.kind}|${h.orgNumber ?? ''}|${h.name ?? ''}|${h.country ?? ''}`;
      if (h.kind !== 'person' && !unique.has(k)) unique.set(k, h);
    }
  const entities = [...unique.values()];
  const codes = [...new Set([rootCountry, ...entities.map((h) => h.country).filter((c): c is string => !!c)])].sort();
  const cycleAt = [
    ...new Set(terminals.filter((t) => t.stopReason === 'cycle').map((t) => entityName(t.hops[t.hops.length - 1]))),
  ];
  const outside = [...new Set(entities.filter((h) => h.country && !EEA.has(h.country)).map(entityName))];
  const nonEea: Flag = outside.length
    ? { value: true, evidence: outside }
    : { value: entities.some((h) => !h.country) ? null : false, evidence: [] };
  const trust = byName(entities, TRUST);
  const nominee = byName(entities, NOMINEE);
  const criteria = [trust, nonEea, nominee];
  const yes = criteria.filter((f) => f.value === true).length;
  const maybe = criteria.filter((f) => f.value === null).length;
  const complex: Flag =
    layers < 3
      ? { value: false, evidence: [`${layers} ownership layer(s), fewer than 3`] }
      : yes >= 2
        ? {
            value: true,
            evidence: [`${layers} ownership layers`, ...criteria.flatMap((f) => (f.value ? f.evidence : []))],
          }
        : yes + maybe >= 2
          ? { value: null, evidence: [`${layers} ownership layers`] }
          : { value: false, evidence: [`${layers} ownership layers, fewer than two further criteria`] };
  return {
    layers,
    jurisdictions: codes.length,
    jurisdictionCodes: codes,
    cycle: { value: cycleAt.length > 0, evidence: cycleAt },
    trustOrArrangement: trust,
    nonEeaJurisdiction: nonEea,
    nominee,
    complexStructure: complex,
  };
}

export const pct = (x: number) => Math.round(x * 100 * 1e4) / 1e4;
export const isPoint = (b: Band) => Math.abs(b.high - b.low) < EPS;
