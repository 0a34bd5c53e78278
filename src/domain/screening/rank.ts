// Ranks the short candidate list a store retrieved with candidateKeys() (see README).
import { prepareSubject, scoreMatch, type PreparedEntity, type ScreenableEntity } from './score.ts';
import type { MatchResult, ScreeningSubject } from './types.ts';

/**
 * Results at or above this score are "possible matches" for a human to review, never
 * confirmed ones. 0.75 means: a name alone must be about 83 % similar (0.9 × 0.83), or
 * 74 % with the same birth year; a birth year 4+ years off rules a name out entirely.
 */
export const DEFAULT_THRESHOLD = 0.75;

/** Callers may move the threshold within these bounds (below 0.5 is mostly noise). */
export const THRESHOLD_BOUNDS = { min: 0.5, max: 1 } as const;

/**
 * Candidate lists are meant to come from an indexed lookup (≤ ~50 per subject). Refusing long
 * lists keeps a store from falling back to re-scoring a whole 300 k-entity list in JS.
 */
export const MAX_RANK_CANDIDATES = 500;

/** Most results one query of POST /api/screening/match may ask for. */
export const MAX_MATCH_RESULTS = 20;

/**
 * The matcher and its version, stated in every screening answer (audit trail). Bump the version
 * whenever a change can alter a score: the same version scores the same input the same way.
 */
export const ALGORITHM = { name: 'ncd-name-matcher', version: '2.3.0' } as const;

export interface RankedMatch<E extends ScreenableEntity> {
  entity: E;
  result: MatchResult;
}

export function assertThreshold(threshold: number): void {
  if (!Number.isFinite(threshold) || threshold < THRESHOLD_BOUNDS.min || threshold > THRESHOLD_BOUNDS.max) {
    throw new RangeError(
      `threshold must be between ${THRESHOLD_BOUNDS.min} and ${THRESHOLD_BOUNDS.max}, got ${threshold}`,
    );
  }
}

/** Scores each candidate, keeps those at or above the threshold, best first. */
export function rankCandidates<E extends ScreenableEntity>(
  subject: ScreeningSubject,
  candidates: readonly (E | PreparedEntity<E>)[],
  threshold: number = DEFAULT_THRESHOLD,
): RankedMatch<E>[] {
  assertThreshold(threshold);
  if (candidates.length > MAX_RANK_CANDIDATES) {
    throw new RangeError(
      `rankCandidates got ${candidates.length} candidates (max ${MAX_RANK_CANDIDATES}): pre-select them with candidateKeys()`,
    );
  }
  const prepared = prepareSubject(subject);
  const ranked: RankedMatch<E>[] = [];
  for (const c of candidates) {
    const entity = ('entity' in c && 'kinds' in c ? c.entity : c) as E;
    const result = scoreMatch(prepared, c);
    if (result.score >= threshold) ranked.push({ entity, result });
  }
  return ranked.sort((x, y) => y.result.score - x.result.score);
}
