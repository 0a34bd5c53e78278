// Deterministic randomness for the Finnish and Swedish test/benchmark data generators: the same
// seed gives the same file on every machine, so a benchmark or a failing test can be reproduced.
import { seededRandom, type SeededRandom } from './seeded-random.ts';

export type Rng = SeededRandom;

/** mulberry32 (see seeded-random.ts): tiny, fast and good enough for test data. */
export const seededRng = seededRandom;

/** A date between 1950 and 2025 as YYYY-MM-DD (day ≤ 28, so always valid). */
export function randomDate(rng: Rng, fromYear = 1950, toYear = 2025): string {
  const y = rng.int(fromYear, toYear);
  const m = String(rng.int(1, 12)).padStart(2, '0');
  const d = String(rng.int(1, 28)).padStart(2, '0');
  return `${y}-${m}-${d}`;
}
