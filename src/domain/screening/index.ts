// Public API of PEP/sanctions screening (pure; see README.md).
export * from './types.ts';
export { normaliseName } from './normalise.ts';
export { candidateKeys, type CandidateKeys } from './candidate-keys.ts';
export {
  NAME_WEIGHT,
  prepareEntity,
  prepareSubject,
  scoreMatch,
  type PreparedEntity,
  type PreparedSubject,
  type ScreenableEntity,
} from './score.ts';
export {
  ALGORITHM,
  assertThreshold,
  DEFAULT_THRESHOLD,
  MAX_MATCH_RESULTS,
  MAX_RANK_CANDIDATES,
  rankCandidates,
  THRESHOLD_BOUNDS,
  type RankedMatch,
} from './rank.ts';
