import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLD,
  MAX_RANK_CANDIDATES,
  rankCandidates,
  THRESHOLD_BOUNDS,
} from '../../../src/domain/screening/rank.ts';
import { prepareEntity } from '../../../src/domain/screening/score.ts';

const entities = [
  { id: 'a', name: 'Arkady Romanovich ROTENBERG', schema: 'Person' as const, birthDates: ['1951'] },
  { id: 'b', name: 'Boris Romanovich ROTENBERG', schema: 'Person' as const, birthDates: ['1957'] },
  { id: 'c', name: 'ROTENBERG HOLDING LTD', schema: 'Company' as const },
  { id: 'd', name: 'Arkadiy ROTENBERG', schema: 'Person' as const },
];

describe('rankCandidates', () => {
  it('keeps candidates at or above the threshold, best first', () => {
    const ranked = rankCandidates({ name: 'Arkadij Rotenberg', kind: 'person', birthYear: 1951 }, entities);
    expect(ranked.map((r) => r.entity.id)).toEqual(['a', 'd']);
    expect(ranked[0].result.score).toBeGreaterThan(ranked[1].result.score);
    expect(ranked.every((r) => r.result.score >= DEFAULT_THRESHOLD)).toBe(true);
  });

  it('accepts prepared entities and a custom threshold within bounds', () => {
    const prepared = entities.map((e) => prepareEntity(e));
    const strict = rankCandidates({ name: 'Arkadij Rotenberg', kind: 'person' }, prepared, 0.95);
    expect(strict).toEqual([]);
    const loose = rankCandidates({ name: 'Arkadij Rotenberg', kind: 'person' }, prepared, THRESHOLD_BOUNDS.min);
    expect(loose.map((r) => r.entity.id)).toEqual(['d', 'a']); // no birth year given: the exact name wins
    const brother = rankCandidates({ name: 'Boris Rotenberg', kind: 'person' }, prepared, THRESHOLD_BOUNDS.min);
    expect(brother.map((r) => r.entity.id)).toEqual(['b']);
  });

  it('rejects thresholds outside the bounds', () => {
    expect(() => rankCandidates({ name: 'x', kind: 'person' }, entities, 0.2)).toThrow(RangeError);
    expect(() => rankCandidates({ name: 'x', kind: 'person' }, entities, 1.5)).toThrow(/between 0.5 and 1/);
    expect(() => rankCandidates({ name: 'x', kind: 'person' }, entities, Number.NaN)).toThrow(RangeError);
  });

  it('refuses to re-score a whole list (300 000 entities): candidates must come from the index', () => {
    const all = new Array(300_000).fill(entities[0]);
    expect(() => rankCandidates({ name: 'Arkadij Rotenberg', kind: 'person' }, all)).toThrow(/candidateKeys/);
    expect(
      rankCandidates({ name: 'Arkadij Rotenberg', kind: 'person' }, all.slice(0, MAX_RANK_CANDIDATES)),
    ).toHaveLength(MAX_RANK_CANDIDATES);
  });
});
