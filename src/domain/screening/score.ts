// Scores one subject (a director / shareholder name) against one listed entity.
// score = NAME_WEIGHT × best name similarity + birth-year and country adjustments, clamped
// to [0, 1]. NAME_WEIGHT < 1 so that a name alone, however exact, never reaches certainty;
// only agreeing birth year and country push a result towards 1.
import { analyseName, type AnalysedName } from './normalise.ts';
import { readingsOf } from './readings.ts';
import { compareTokens, explainPairs, type NameComparison } from './token-align.ts';
import type {
  BirthYearAgreement,
  CountryAgreement,
  MatchResult,
  MatchType,
  NameKind,
  SanctionEntity,
  SanctionSchema,
  ScoreAdjustment,
  ScreeningSubject,
} from './types.ts';

export const NAME_WEIGHT = 0.9;

const BIRTH_YEAR_DELTA = { match: 0.08, close: 0.04, near: -0.1, far: -0.3 } as const;
const COUNTRY_DELTA = { match: 0.03, mismatch: -0.02 } as const;

/** What scoreMatch needs of an entity (the labelled set and tests pass partial entities). */
export type ScreenableEntity = Pick<SanctionEntity, 'name' | 'schema'> &
  Partial<Pick<SanctionEntity, 'id' | 'aliases' | 'birthDates' | 'countries'>>;

/** A romanised reading of a name in Han, Hangul or Kana (readings.ts), analysed as a Latin name. */
interface PreparedReading {
  via: string;
  text: string;
  analysed: AnalysedName;
}

interface PreparedName {
  name: string;
  primary: boolean;
  analysed: AnalysedName;
  readings: PreparedReading[];
}

export interface PreparedEntity<E extends ScreenableEntity = ScreenableEntity> {
  entity: E;
  /** Name kinds this schema can be compared with. */
  kinds: NameKind[];
  names: Partial<Record<NameKind, PreparedName[]>>;
  birthYears: number[];
  countries: string[];
}

export interface PreparedSubject {
  subject: ScreeningSubject;
  analysed: AnalysedName;
  readings: PreparedReading[];
  countries: string[];
}

/**
 * A reading's words keep the script class of the name they came from, so that the reading is
 * never "exact" against its Latin look-alike and the cross-script rules (name order is a
 * convention; short syllables say little) still apply.
 */
function prepareReadings(name: string, kind: NameKind): PreparedReading[] {
  return readingsOf(name, kind).map((r) => {
    const analysed = analyseName(r.text, kind);
    // East Asian names put the surname first, and readings keep that order: the first word is
    // the surname, marked as a list marks one, so the surname rules know it wherever the Latin
    // name has it.
    const surnameFirst = kind === 'person' && analysed.tokens.length >= 2;
    const tokens = analysed.tokens.map((t, i) => ({
      ...t,
      script: 'syllabic' as const,
      ...(surnameFirst && i === 0 ? { marked: true } : {}),
    }));
    return { via: r.via, text: r.text, analysed: { ...analysed, tokens, rawKey: `reading:${analysed.rawKey}` } };
  });
}

/**
 * Persons match Person, organisations match Organization/Company; LegalEntity is FtM's parent
 * of both (lists use it when they do not say), so it is compared with either.
 */
const KINDS_OF_SCHEMA: Record<SanctionSchema, NameKind[]> = {
  Person: ['person'],
  Organization: ['organisation'],
  Company: ['organisation'],
  LegalEntity: ['person', 'organisation'],
};

const isPrepared = (e: ScreenableEntity | PreparedEntity): e is PreparedEntity => 'entity' in e && 'kinds' in e;

/**
 * A listed name that joins alternatives with a slash ("Al-Qa'ida/Islamic Army") is also each
 * alternative alone. Only between words of three letters or more: A/S and I/S are legal forms.
 */
const ALTERNATIVES = /(?<=\p{L}{3})\s*\/\s*(?=\p{L}{3})/u;
const withAlternatives = (name: string) => {
  const parts = name.split(ALTERNATIVES);
  return parts.length > 1 ? [name, ...parts] : [name];
};

export function prepareEntity<E extends ScreenableEntity>(entity: E): PreparedEntity<E> {
  const kinds = KINDS_OF_SCHEMA[entity.schema] ?? [];
  const listed = [entity.name, ...(entity.aliases ?? [])].flatMap(withAlternatives).filter((n) => n.trim() !== '');
  const seen = new Set<string>();
  const unique = listed.filter((n) => (seen.has(n) ? false : (seen.add(n), true)));
  const names: Partial<Record<NameKind, PreparedName[]>> = {};
  for (const kind of kinds) {
    // Spellings that normalise alike ("AL-QAIDA IN IRAQ", "al-Qaida in Iraq") score alike:
    // keep the first of each (the primary name comes first).
    const keys = new Set<string>();
    names[kind] = unique
      .map((name, i) => ({
        name,
        primary: i === 0,
        analysed: analyseName(name, kind),
        readings: prepareReadings(name, kind),
      }))
      .filter((n) => (keys.has(n.analysed.rawKey) ? false : (keys.add(n.analysed.rawKey), true)));
  }
  const birthYears = (entity.birthDates ?? [])
    .map((d) => Number(d.slice(0, 4)))
    .filter((y) => Number.isInteger(y) && y > 0);
  const countries = (entity.countries ?? []).map((c) => c.toLowerCase());
  return { entity, kinds, names, birthYears, countries };
}

export function prepareSubject(subject: ScreeningSubject): PreparedSubject {
  return {
    subject,
    analysed: analyseName(subject.name, subject.kind),
    readings: prepareReadings(subject.name, subject.kind),
    countries: (subject.countries ?? []).map((c) => c.toLowerCase()),
  };
}

function birthYearAdjustment(year: number | null | undefined, years: number[]): [BirthYearAgreement, ScoreAdjustment?] {
  if (year == null || years.length === 0) return ['unknown'];
  const diff = Math.min(...years.map((y) => Math.abs(y - year)));
  if (diff === 0)
    return ['match', { feature: 'birthYear', delta: BIRTH_YEAR_DELTA.match, reason: `born ${year} as listed` }];
  if (diff === 1)
    return ['close', { feature: 'birthYear', delta: BIRTH_YEAR_DELTA.close, reason: `born ${year}, listed ±1 year` }];
  const delta = diff <= 3 ? BIRTH_YEAR_DELTA.near : BIRTH_YEAR_DELTA.far;
  return [
    'mismatch',
    { feature: 'birthYear', delta, reason: `born ${year}, listed ${years.join('/')} (${diff} years apart)` },
  ];
}

function countryAdjustment(subject: string[], entity: string[]): [CountryAgreement, ScoreAdjustment?] {
  if (subject.length === 0 || entity.length === 0) return ['unknown'];
  const shared = subject.filter((c) => entity.includes(c));
  if (shared.length > 0)
    return ['match', { feature: 'country', delta: COUNTRY_DELTA.match, reason: `shared country ${shared.join(',')}` }];
  // Small: a Norwegian company's director may well hold another nationality.
  return ['mismatch', { feature: 'country', delta: COUNTRY_DELTA.mismatch, reason: 'no shared country' }];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function matchTypeOf(subject: AnalysedName, best: PreparedName, cmp: NameComparison): MatchType {
  if (subject.rawKey === best.analysed.rawKey) return best.primary ? 'exact' : 'alias';
  const whole = cmp.pairs.length === cmp.a.length && cmp.pairs.length === cmp.b.length;
  if (whole && cmp.pairs.every((p) => p.similarity === 1)) return 'transliterated';
  if (cmp.pairs.length > 0 && cmp.pairs.every((p) => p.phonetic)) return 'phonetic';
  return 'fuzzy';
}

const compareNames = (s: AnalysedName, n: AnalysedName) =>
  compareTokens(s.kind, s.tokens, n.tokens, { a: s.legalForms, b: n.legalForms });

const allLatin = (a: AnalysedName) => a.tokens.every((t) => t.script === 'latin');

interface Best {
  cmp: NameComparison;
  /** The reading compared instead of the name as written, if one was. */
  reading?: PreparedReading;
}

/**
 * The name as written, or, against a Latin name, each romanised reading of the other side
 * (a name in Han, Hangul or Kana): the closest wins.
 */
function compare(s: PreparedSubject, n: PreparedName): Best {
  let best: Best = { cmp: compareNames(s.analysed, n.analysed) };
  const consider = (cmp: NameComparison, reading: PreparedReading) => {
    if (cmp.similarity > best.cmp.similarity) best = { cmp, reading };
  };
  if (allLatin(n.analysed)) for (const r of s.readings) consider(compareNames(r.analysed, n.analysed), r);
  if (allLatin(s.analysed)) for (const r of n.readings) consider(compareNames(s.analysed, r.analysed), r);
  return best;
}

/** Scores a subject against an entity (raw or prepared with prepareEntity). */
export function scoreMatch(
  subject: ScreeningSubject | PreparedSubject,
  entity: ScreenableEntity | PreparedEntity,
): MatchResult {
  const s = 'analysed' in subject ? subject : prepareSubject(subject);
  const e = isPrepared(entity) ? entity : prepareEntity(entity);
  const names = e.names[s.subject.kind];
  const [birthYear, byAdj] = birthYearAdjustment(s.subject.birthYear, e.birthYears);
  const [country, cAdj] = countryAdjustment(s.countries, e.countries);
  if (!names || names.length === 0) {
    return {
      score: 0,
      matchType: 'fuzzy',
      matchedName: e.entity.name,
      explanation: {
        nameSimilarity: 0,
        tokenOverlap: 0,
        phonetic: 0,
        tokens: [],
        unmatched: { query: [], candidate: [] },
        birthYear,
        country,
        adjustments: [
          { feature: 'schema', delta: 0, reason: `a ${s.subject.kind} is never matched with a ${e.entity.schema}` },
        ],
      },
    };
  }
  let best = names[0];
  let bestOf = compare(s, best);
  for (const n of names.slice(1)) {
    const c = compare(s, n);
    if (c.cmp.similarity > bestOf.cmp.similarity) {
      best = n;
      bestOf = c;
    }
  }
  const bestCmp = bestOf.cmp;
  // Name rules that capped the similarity, with what they took from the score.
  let before = bestCmp.ungarded;
  const guards: ScoreAdjustment[] = bestCmp.guards.map((g) => {
    const after = Math.min(before, g.cap);
    const delta = round(NAME_WEIGHT * (after - before));
    before = after;
    return { feature: g.feature, delta, reason: g.reason };
  });
  // The reading that was compared, so that a reviewer sees which spelling system matched.
  const via: ScoreAdjustment[] = bestOf.reading
    ? [{ feature: 'transliteration', delta: 0, reason: `${bestOf.reading.via}: ${bestOf.reading.text}` }]
    : [];
  const adjustments = [byAdj, cAdj].filter((a): a is ScoreAdjustment => a !== undefined);
  const paired = new Set(bestCmp.pairs.flatMap((p) => [p.a, p.b]));
  const raw = NAME_WEIGHT * bestCmp.similarity + adjustments.reduce((sum, a) => sum + a.delta, 0);
  return {
    score: round(Math.min(1, Math.max(0, raw))),
    matchType: matchTypeOf(s.analysed, best, bestCmp),
    matchedName: best.name,
    explanation: {
      nameSimilarity: round(bestCmp.similarity),
      tokenOverlap: round(bestCmp.tokenOverlap),
      phonetic: round(bestCmp.phonetic),
      tokens: explainPairs(bestCmp),
      unmatched: {
        query: bestCmp.a.filter((t) => !paired.has(t)).map((t) => t.raw),
        candidate: bestCmp.b.filter((t) => !paired.has(t)).map((t) => t.raw),
      },
      birthYear,
      country,
      adjustments: [...via, ...guards, ...adjustments],
    },
  };
}
