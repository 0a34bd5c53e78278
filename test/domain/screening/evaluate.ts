// Shared by the eval test and bench/screening-eval.ts: scores every labelled pair and counts
// the confusion matrix at one threshold.
import { scoreMatch, type ScreenableEntity } from '../../../src/domain/screening/score.ts';
import type { MatchResult, ScreeningSubject } from '../../../src/domain/screening/types.ts';

export interface LabelledPair {
  subject: ScreeningSubject;
  entity: ScreenableEntity;
  expected: boolean;
  note: string;
}

export interface Evaluation {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  misclassified: { pair: LabelledPair; result: MatchResult }[];
}

export function evaluatePairs(pairs: LabelledPair[], threshold: number): Evaluation {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  const misclassified: Evaluation['misclassified'] = [];
  for (const pair of pairs) {
    const result = scoreMatch(pair.subject, pair.entity);
    const predicted = result.score >= threshold;
    if (predicted && pair.expected) tp++;
    else if (predicted) fp++;
    else if (pair.expected) fn++;
    else tn++;
    if (predicted !== pair.expected) misclassified.push({ pair, result });
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { tp, fp, tn, fn, precision, recall, f1, misclassified };
}

/** The fixed seed of the tuning / held-out split of a benchmark (see heldOut). */
export const SPLIT_SEED = 7;
export const HELD_OUT_SHARE = 0.3;

const hash = (text: string) => {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
};

/**
 * The held-out 30 % of a benchmark: the pairs whose ids hash lowest with the seed (FNV-1a), so
 * the split is fixed, independent of file order, and needs no list of ids. Rules are tuned on
 * the other 70 % only; the held-out part shows whether they generalise.
 */
export function heldOutIds(ids: string[], seed = SPLIT_SEED): Set<string> {
  const ranked = [...ids].sort((x, y) => hash(`${seed}:${x}`) - hash(`${seed}:${y}`) || (x < y ? -1 : 1));
  return new Set(ranked.slice(0, Math.round(ids.length * HELD_OUT_SHARE)));
}
