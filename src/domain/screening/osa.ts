// Optimal string alignment distance (Damerau-Levenshtein restricted: a transposition of two
// adjacent letters counts as one edit, "afiz"/"faiz" = 1), from talisman.
import damerauLevenshtein from 'talisman/metrics/damerau-levenshtein.js';

export const distance = (a: string, b: string): number => damerauLevenshtein(a, b);

/** 1 − distance / longer length: 1 for equal strings, 0 for nothing in common. */
export const osaSimilarity = (a: string, b: string): number =>
  a === b ? 1 : 1 - distance(a, b) / Math.max(a.length, b.length, 1);
