// POST /api/screening/match: turns the caller's entities into matcher subjects and the ranked
// candidates into yente's /match shape (responses keyed by the caller's query keys, each with
// scored results, a `match` flag, numeric features and our explanation).
import type { Static } from 'typebox';
import type { MatchBody } from '../../contract/screening-match.ts';
import { MAX_MATCH_RESULTS, type RankedMatch } from '../../domain/screening/index.ts';
import type { NameKind, ScreeningSubject } from '../../domain/screening/types.ts';
import { invalid } from '../../errors.ts';
import type { SanctionList, StoredSanctionEntity } from '../../store/screening.ts';

/** The body of POST /api/screening/match, as its contract declares it. */
export type MatchRequest = Static<typeof MatchBody>;
/** One entity: birthDate is YYYY, YYYY-MM or YYYY-MM-DD; only the year is compared (lists keep no more). */
export type MatchQuery = MatchRequest['queries'][string];

const DEFAULT_MATCH_LIMIT = 5;

function subjectOf(q: MatchQuery, key: string): ScreeningSubject {
  const kind: NameKind = q.schema === 'Person' ? 'person' : 'organisation';
  if (q.birthDate !== undefined && kind !== 'person')
    throw invalid(`body.queries.${key}.birthDate`, 'only a Person has a birth date');
  if (!/\p{L}|\p{N}/u.test(q.name)) throw invalid(`body.queries.${key}.name`, 'must contain a letter or digit');
  const countries = [q.nationality, q.country].filter((c): c is string => !!c).map((c) => c.toLowerCase());
  return {
    name: q.name,
    kind,
    birthYear: q.birthDate ? Number(q.birthDate.slice(0, 4)) : undefined,
    countries,
  };
}

function resultOf(
  { entity: e, result }: RankedMatch<StoredSanctionEntity>,
  threshold: number,
  versions: Map<string, string | null>,
) {
  const x = result.explanation;
  const delta = (feature: string) => x.adjustments.find((a) => a.feature === feature)?.delta ?? 0;
  return {
    id: e.id,
    caption: e.name,
    schema: e.schema,
    list: e.list,
    listVersion: versions.get(e.list) ?? null,
    datasets: e.datasets,
    topics: e.topics,
    score: result.score,
    match: result.score >= threshold,
    matchType: result.matchType,
    matchedName: result.matchedName,
    features: {
      nameSimilarity: x.nameSimilarity,
      tokenOverlap: x.tokenOverlap,
      phonetic: x.phonetic,
      birthYear: delta('birthYear'),
      country: delta('country'),
    },
    explanation: x,
  };
}

function shape(
  keys: string[],
  queries: MatchQuery[],
  ranked: RankedMatch<StoredSanctionEntity>[][],
  opts: { threshold: number; limit?: number; lists: SanctionList[] },
) {
  const limit = Math.min(opts.limit ?? DEFAULT_MATCH_LIMIT, MAX_MATCH_RESULTS);
  const versions = new Map(opts.lists.map((l) => [l.name, l.version]));
  const responses = Object.fromEntries(
    keys.map((key, i) => {
      const results = ranked[i].slice(0, limit).map((r) => resultOf(r, opts.threshold, versions));
      return [
        key,
        { query: queries[i], total: ranked[i].length, matches: results.filter((r) => r.match).length, results },
      ];
    }),
  );
  return { threshold: opts.threshold, limit, responses };
}

export const matchResponse = { subjectOf, shape };
