// GET /api/screening/{orgNumber}: query and response. Inline schemas (no $id): only this route
// uses them. The response carries an example for the OpenAPI document.
import { Type, type TSchema } from 'typebox';
import { ALGORITHM, DEFAULT_THRESHOLD, THRESHOLD_BOUNDS } from '../domain/screening/rank.ts';
import { StringEnum } from './common.ts';

// Nullable scalars as type arrays (as in company.ts): serialised directly, not via anyOf.
function N<T extends TSchema>(t: T) {
  const { type, ...rest } = t as unknown as { type: string };
  return Type.Unsafe<import('typebox').Static<T> | null>({ ...rest, type: [type, 'null'] });
}

export const ScreeningQuery = Type.Object({
  country: Type.Optional(StringEnum(['NO', 'FI', 'SE', 'DK'] as const, { default: 'NO' })),
  threshold: Type.Optional(
    Type.Number({
      minimum: THRESHOLD_BOUNDS.min,
      maximum: THRESHOLD_BOUNDS.max,
      description: `Lowest score reported as a possible match (default ${DEFAULT_THRESHOLD}; ${THRESHOLD_BOUNDS.min}–${THRESHOLD_BOUNDS.max})`,
    }),
  ),
});

const Adjustment = Type.Object({
  feature: Type.String({
    description:
      'birthYear, country, schema, or a name rule: surname, nameOrder, patronymic, legalForm, shortReading ' +
      '(a romanised name too short to tell people apart), derivedWord, substitution; transliteration (delta 0) ' +
      'names the romanisation a cross-script match used, e.g. "Hangul → McCune–Reischauer: kim chong un"',
  }),
  delta: Type.Number(),
  reason: Type.String(),
});

const TokenMatch = Type.Object({
  query: Type.String({ description: 'Word of the screened name (as transliterated)' }),
  candidate: Type.String({ description: 'Word of the listed name it was aligned with' }),
  similarity: Type.Number(),
  how: StringEnum(['exact', 'spelling', 'phonetic', 'initial', 'joined', 'script', 'translated', 'fuzzy'] as const, {
    description:
      'exact; spelling = same after spelling folds (ks/x, j/y …); phonetic; initial (V. ~ Vladimir); joined (van der ~ vander); ' +
      'script = same consonant skeleton across scripts that leave vowels out (Arabic, Hebrew …); ' +
      'translated = an organisation word and its Russian/Ukrainian translation (zavod ~ plant) or a place adjective and its place (Muromskiy ~ Murom); fuzzy = partial credit by edit distance',
  }),
});

export const Explanation = Type.Object({
  nameSimilarity: Type.Number({
    description: 'Best name-to-name similarity (0–1) before adjustments; the score is 0.9 × this + adjustments',
  }),
  tokenOverlap: Type.Number({ description: 'Share of name tokens aligned with a similar token of the other name' }),
  phonetic: Type.Number({ description: 'Share of name tokens whose partner has the same Double Metaphone code' }),
  tokens: Type.Array(TokenMatch, { description: 'The word pairs that drove the name similarity' }),
  unmatched: Type.Object(
    { query: Type.Array(Type.String()), candidate: Type.Array(Type.String()) },
    { description: 'Words without a partner on the other side' },
  ),
  birthYear: StringEnum(['match', 'close', 'mismatch', 'unknown'] as const),
  country: StringEnum(['match', 'mismatch', 'unknown'] as const),
  adjustments: Type.Array(Adjustment),
});

export const MATCH_TYPES = ['exact', 'alias', 'transliterated', 'phonetic', 'fuzzy'] as const;

/** Audit trail: what a result was computed with. */
export const Algorithm = Type.Object(
  { name: Type.String(), version: Type.String() },
  { description: 'The matcher and its version: the same version scores the same input the same way' },
);

const Subject = Type.Object({
  id: Type.String({ description: 'Referenced by matches[].subject' }),
  kind: StringEnum(['company', 'person', 'organisation'] as const),
  role: Type.String({
    description: "Why the subject is screened: 'company', 'role:<code>' (DAGL, LEDE, MEDL …) or 'shareholder'",
  }),
  roles: Type.Array(Type.String(), { description: 'Every reason, when one person or organisation holds several' }),
  name: Type.String(),
  birthYear: Type.Optional(Type.Integer({ description: 'Persons only, when known; never a full birth date' })),
});

const Match = Type.Object({
  subject: Type.String({ description: 'The id of the screened subject' }),
  list: Type.String({ description: 'The list the entity is on' }),
  entityId: Type.String(),
  entityName: Type.String({ description: 'Primary name on the list' }),
  matchedName: Type.String({ description: 'The listed name (primary or alias) that matched best' }),
  schema: Type.String({ description: 'Person, Organization, Company or LegalEntity' }),
  topics: Type.Array(Type.String(), { description: 'sanction, role.pep, role.rca, …' }),
  datasets: Type.Array(Type.String()),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  matchType: StringEnum(MATCH_TYPES),
  explanation: Explanation,
});

export const List = Type.Object({
  name: Type.String(),
  version: N(Type.String()),
  entityCount: Type.Integer(),
  lastSync: Type.String({ format: 'date-time' }),
});

/** Shared by the examples of both screening responses. */
export const EXPLANATION_EXAMPLE = {
  nameSimilarity: 0.889,
  tokenOverlap: 0.667,
  phonetic: 0.667,
  tokens: [
    { query: 'aleksandr', candidate: 'alexander', similarity: 1, how: 'spelling' },
    { query: 'petrov', candidate: 'petrov', similarity: 1, how: 'exact' },
  ],
  unmatched: { query: [], candidate: ['ivanovich'] },
  birthYear: 'match',
  country: 'unknown',
  adjustments: [{ feature: 'birthYear', delta: 0.08, reason: 'born 1968 as listed' }],
};

const EXAMPLE = {
  orgNumber: '923609016',
  country: 'NO',
  companyName: 'EKSEMPEL HOLDING AS',
  screenedAt: '2025-03-01T09:30:00.000Z',
  threshold: DEFAULT_THRESHOLD,
  algorithm: ALGORITHM,
  lists: [
    {
      name: 'opensanctions-default',
      version: '20250301000000-abc',
      entityCount: 301234,
      lastSync: '2025-03-01T04:31:12.000Z',
    },
  ],
  subjects: [
    { id: 'company', kind: 'company', role: 'company', roles: ['company'], name: 'EKSEMPEL HOLDING AS' },
    {
      id: 'p1',
      kind: 'person',
      role: 'role:DAGL',
      roles: ['role:DAGL', 'shareholder'],
      name: 'Aleksandr Petrov',
      birthYear: 1968,
    },
    { id: 'o1', kind: 'organisation', role: 'shareholder', roles: ['shareholder'], name: 'NORDISK KAPITAL AS' },
  ],
  matches: [
    {
      subject: 'p1',
      list: 'opensanctions-default',
      entityId: 'NK-example',
      entityName: 'Alexander Ivanovich PETROV',
      matchedName: 'Alexander Ivanovich PETROV',
      schema: 'Person',
      topics: ['sanction'],
      datasets: ['eu_fsf'],
      score: 0.88,
      matchType: 'fuzzy',
      explanation: EXPLANATION_EXAMPLE,
    },
  ],
  summary: { subjectsScreened: 3, possibleMatches: 1, highestScore: 0.88, listsChecked: 1 },
};

export const ScreeningResult = Type.Object(
  {
    orgNumber: Type.String(),
    country: StringEnum(['NO', 'FI', 'SE', 'DK'] as const),
    companyName: Type.String(),
    screenedAt: Type.String({ format: 'date-time' }),
    threshold: Type.Number(),
    algorithm: Algorithm,
    lists: Type.Array(List, { description: 'Every loaded list, with its version and last successful sync' }),
    subjects: Type.Array(Subject, {
      description:
        'The company, its active roles (auditor and accountant excepted) and the holders of its latest shareholder year',
    }),
    matches: Type.Array(Match, { description: 'Possible matches at or above the threshold, best first' }),
    summary: Type.Object({
      subjectsScreened: Type.Integer(),
      possibleMatches: Type.Integer(),
      highestScore: N(Type.Number()),
      listsChecked: Type.Integer(),
    }),
    message: Type.Optional(Type.String({ description: 'Set when no list is loaded' })),
  },
  { examples: [EXAMPLE] },
);

// GET /api/screening/{orgNumber}: the number in its country's format.
export const ScreeningParams = Type.Object({
  orgNumber: Type.String({
    minLength: 1,
    maxLength: 20,
    description: 'NO: 9 digits; FI: NNNNNNN-N; SE: 10 digits; DK: 8 digits (CVR)',
  }),
});
