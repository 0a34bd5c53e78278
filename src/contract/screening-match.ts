// POST /api/screening/match: request and response, shaped like yente's /match (queries keyed by
// the caller, responses under the same keys, results with score, match flag and features).
import { Type } from 'typebox';
import { ALGORITHM, DEFAULT_THRESHOLD, MAX_MATCH_RESULTS, THRESHOLD_BOUNDS } from '../domain/screening/rank.ts';
import { StringEnum } from './common.ts';
import { Algorithm, Explanation, EXPLANATION_EXAMPLE, List, MATCH_TYPES } from './screening.ts';

export const MAX_MATCH_QUERIES = 100;

/** A query's key: the caller's own id (the MCP tool's entities use it too). */
const QUERY_KEY = '^[A-Za-z0-9_.:-]{1,64}$';

const Iso2 = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' });

const Query = Type.Object(
  {
    schema: StringEnum(['Person', 'Company', 'Organization'] as const),
    name: Type.String({ minLength: 1, maxLength: 300 }),
    birthDate: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$',
        description: 'YYYY, YYYY-MM or YYYY-MM-DD (persons only); only the year is compared',
      }),
    ),
    nationality: Type.Optional(Iso2),
    country: Type.Optional(Iso2),
    identifiers: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 20,
        description: 'Echoed in the response for the record; not compared (the stored lists keep no identifiers)',
      }),
    ),
  },
  { additionalProperties: false },
);

const MATCH_EXAMPLE_BODY = {
  queries: {
    q1: { schema: 'Person', name: 'Vladimir Putin', birthDate: '1952', nationality: 'ru' },
    q2: { schema: 'Company', name: 'Gazprom Neft PJSC' },
  },
};

export const MatchBody = Type.Object(
  {
    queries: Type.Record(Type.String({ pattern: QUERY_KEY }), Query, {
      // A key outside the pattern would go unchecked, value and all (patternProperties covers only
      // matching keys), and additionalProperties: false would drop it silently: refuse it instead.
      propertyNames: { pattern: QUERY_KEY },
      minProperties: 1,
      maxProperties: MAX_MATCH_QUERIES,
      description: `1–${MAX_MATCH_QUERIES} entities, keyed by your own id (letters, digits, _ . : -)`,
    }),
    threshold: Type.Optional(
      Type.Number({
        minimum: THRESHOLD_BOUNDS.min,
        maximum: THRESHOLD_BOUNDS.max,
        description: `Score at or above which a result has match: true (default ${DEFAULT_THRESHOLD})`,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_MATCH_RESULTS,
        description: `Results per query (default 5), best first, each scoring at least ${THRESHOLD_BOUNDS.min}`,
      }),
    ),
  },
  { additionalProperties: false, examples: [MATCH_EXAMPLE_BODY] },
);

const Result = Type.Object({
  id: Type.String(),
  caption: Type.String({ description: 'Primary name on the list' }),
  schema: Type.String(),
  list: Type.String(),
  listVersion: Type.Union([Type.String(), Type.Null()]),
  datasets: Type.Array(Type.String()),
  topics: Type.Array(Type.String()),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  match: Type.Boolean({ description: 'score ≥ threshold: a possible match for a person to review' }),
  matchType: StringEnum(MATCH_TYPES),
  matchedName: Type.String(),
  features: Type.Object({
    nameSimilarity: Type.Number(),
    tokenOverlap: Type.Number(),
    phonetic: Type.Number(),
    birthYear: Type.Number({ description: 'Score change from the birth year' }),
    country: Type.Number({ description: 'Score change from the countries' }),
  }),
  explanation: Explanation,
});

const Response = Type.Object({
  query: Query,
  total: Type.Integer({ description: 'Candidates scoring at least the lower bound' }),
  matches: Type.Integer({ description: 'Results with match: true' }),
  results: Type.Array(Result),
});

const MATCH_EXAMPLE = {
  threshold: DEFAULT_THRESHOLD,
  limit: 5,
  responses: {
    q1: {
      query: { schema: 'Person', name: 'Aleksandr Petrov', birthDate: '1968' },
      total: 1,
      matches: 1,
      results: [
        {
          id: 'NK-example',
          caption: 'Alexander Ivanovich PETROV',
          schema: 'Person',
          list: 'opensanctions-default',
          listVersion: '20250301000000-abc',
          datasets: ['eu_fsf'],
          topics: ['sanction'],
          score: 0.88,
          match: true,
          matchType: 'fuzzy',
          matchedName: 'Alexander Ivanovich PETROV',
          features: { nameSimilarity: 0.889, tokenOverlap: 0.667, phonetic: 0.667, birthYear: 0.08, country: 0 },
          explanation: EXPLANATION_EXAMPLE,
        },
      ],
    },
  },
  screenedAt: '2025-03-01T09:30:00.000Z',
  algorithm: ALGORITHM,
  lists: [
    {
      name: 'opensanctions-default',
      version: '20250301000000-abc',
      entityCount: 301234,
      lastSync: '2025-03-01T04:31:12.000Z',
    },
  ],
};

export const MatchResult = Type.Object(
  {
    threshold: Type.Number(),
    limit: Type.Integer(),
    responses: Type.Record(Type.String(), Response),
    screenedAt: Type.String({ format: 'date-time' }),
    algorithm: Algorithm,
    lists: Type.Array(List, { description: 'Every loaded list, with its version and last successful sync' }),
    message: Type.Optional(Type.String({ description: 'Set when no list is loaded' })),
  },
  { examples: [MATCH_EXAMPLE] },
);
