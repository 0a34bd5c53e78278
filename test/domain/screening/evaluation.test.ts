import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLD } from '../../../src/domain/screening/rank.ts';
import { evaluatePairs, type LabelledPair } from './evaluate.ts';

const pairs = JSON.parse(
  readFileSync(new URL('../../fixtures/screening/labelled-pairs.json', import.meta.url), 'utf8'),
) as LabelledPair[];

describe('labelled screening pairs', () => {
  it('has at least 200 pairs with both outcomes well represented', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(200);
    expect(pairs.filter((p) => p.expected).length).toBeGreaterThanOrEqual(80);
    expect(pairs.filter((p) => !p.expected).length).toBeGreaterThanOrEqual(80);
  });

  it('reaches precision and recall of at least 0.95 at DEFAULT_THRESHOLD', () => {
    const r = evaluatePairs(pairs, DEFAULT_THRESHOLD);
    const report = r.misclassified.map(
      (m) => `${m.pair.expected ? 'FN' : 'FP'} ${m.result.score} ${m.pair.subject.name} ~ ${m.result.matchedName}`,
    );
    expect({ precision: r.precision >= 0.95, recall: r.recall >= 0.95, report }).toMatchObject({
      precision: true,
      recall: true,
    });
  });
});
