// Optimal string alignment distance: Levenshtein plus the transposition of two adjacent letters
// as one edit ("afiz"/"faiz" = 1), each substring edited once ("ca"/"abc" = 3, unlike
// unrestricted Damerau-Levenshtein). Written out here (three reused rows, no allocation per
// call) because it runs for every word pair of every candidate: talisman's version allocates
// per call and was the matcher's hottest function.

let prev2 = new Int32Array(64);
let prev = new Int32Array(64);
let cur = new Int32Array(64);

export function distance(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  if (m + 1 > cur.length) {
    prev2 = new Int32Array(m + 1);
    prev = new Int32Array(m + 1);
    cur = new Int32Array(m + 1);
  }
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
    }
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

/** 1 − distance / longer length: 1 for equal strings, 0 for nothing in common. */
export const osaSimilarity = (a: string, b: string): number =>
  a === b ? 1 : 1 - distance(a, b) / Math.max(a.length, b.length, 1);
