// Token-level name similarity: align each token of one name with its most similar token of
// the other (order-free, so "PUTIN, Vladimir" = "Vladimir Putin"), average the aligned
// similarities, then discount for tokens left without a partner, by what they are: a missing
// patronymic or particle costs little, a missing middle name some, a missing first name or
// surname a lot.
import { distance } from 'fastest-levenshtein';
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import { codesOf, type NameToken, type TokenRole } from './normalise.ts';
import type { NameKind } from './types.ts';

/** Adjacent tokens are joined when their concatenation is at least this similar to a token. */
const MERGE_LEVEL = 0.92;

/** Below this, two tokens are not considered the same word at all. */
const ALIGN_FLOOR: Record<NameKind, number> = { person: 0.75, organisation: 0.8 };

/** Share of the score kept when a token of this role has no partner. */
const MISSING_COST: Record<TokenRole, number> = {
  anchor: 0.3,
  core: 0.3,
  middle: 0.12,
  generic: 0.08,
  patronymic: 0.05,
  particle: 0.03,
};

/** How much an aligned pair counts in the average. */
const PAIR_WEIGHT: Record<TokenRole, number> = {
  anchor: 1,
  core: 1,
  middle: 1,
  generic: 0.5,
  patronymic: 0.7,
  particle: 0.3,
};

/** A similarity that no alignment accepts. */
const NOT_THE_SAME = 0.5;

/**
 * Nordic patronymic surnames: Danish/Norwegian -sen and Swedish/Icelandic -son are different
 * surname families (Larsen ≠ Larsson, Carlsen ≠ Karlsson), although one letter apart.
 */
const SEN = /s+en$/;
const SON = /s+on$/;
const differentSurnameFamily = (a: string, b: string) => (SEN.test(a) && SON.test(b)) || (SON.test(a) && SEN.test(b));

const ROLE_RANK: TokenRole[] = ['anchor', 'core', 'middle', 'generic', 'patronymic', 'particle'];

export interface TokenPair {
  a: NameToken;
  b: NameToken;
  similarity: number;
  phonetic: boolean;
}

export interface NameComparison {
  similarity: number;
  pairs: TokenPair[];
  tokenOverlap: number;
  phonetic: number;
}

/**
 * Similarity of two tokens in [0, 1]: the mean of Jaro-Winkler (forgiving of endings,
 * rewards a shared start) and normalised Levenshtein (strict about length), so that
 * "bygg"/"bryggeri" stays low while "lukashenko"/"lukashenka" stays high. A shared Double
 * Metaphone code closes a quarter of the remaining gap (Mohammed/Muhammad, Hussein/Husayn):
 * only a nudge, because the codes ignore vowels and so also join Anders/Andreas, Berg/Borg.
 */
export function tokenSimilarity(a: NameToken, b: NameToken, atLeast = 0): { similarity: number; phonetic: boolean } {
  const phonetic = a.codes.some((c) => b.codes.includes(c));
  if (a.folded === b.folded) return { similarity: 1, phonetic: phonetic || a.codes.length === 0 };
  // Levenshtein similarity is at most shorter/longer and Jaro-Winkler at most 1, so a pair
  // whose best possible (boosted) score is below what the caller needs is not computed.
  if (atLeast > 0 && boosted(upperBound(a.folded, b.folded)) < atLeast) return { similarity: 0, phonetic };
  let similarity = stringSimilarity(a.folded, b.folded);
  if (differentSurnameFamily(a.folded, b.folded)) return { similarity: Math.min(similarity, NOT_THE_SAME), phonetic };
  if (phonetic && similarity >= 0.5) similarity = boosted(similarity);
  return { similarity, phonetic };
}

// Memo of string similarities: the same token pairs recur across candidates and aliases
// (a cache does not make the result depend on anything but the two strings).
const memo = new Map<string, Map<string, number>>();
const MEMO_LIMIT = 20_000;

/** Mean of Jaro-Winkler and normalised Levenshtein similarity of two strings. */
function stringSimilarity(x: string, y: string): number {
  if (x === y) return 1;
  const [a, b] = x < y ? [x, y] : [y, x];
  let row = memo.get(a);
  let s = row?.get(b);
  if (s === undefined) {
    s = (jaroWinkler(a, b) + 1 - distance(a, b) / Math.max(a.length, b.length)) / 2;
    if (!row) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      row = new Map();
      memo.set(a, row);
    }
    row.set(b, s);
  }
  return s;
}

const upperBound = (a: string, b: string) => (1 + Math.min(a.length, b.length) / Math.max(a.length, b.length)) / 2;
const boosted = (s: number) => s + (1 - s) / 4;

const strongerRole = (x: TokenRole, y: TokenRole) => (ROLE_RANK.indexOf(x) <= ROLE_RANK.indexOf(y) ? x : y);

function joined(x: NameToken, y: NameToken): NameToken {
  const folded = x.folded + y.folded;
  return { raw: x.raw + y.raw, folded, codes: codesOf(folded), role: strongerRole(x.role, y.role) };
}

/**
 * Joins adjacent tokens of `side` whose concatenation is a token of `other` ("Abdul Rahman" vs
 * "Abdulrahman", "Jong-un" vs "Jongun"), unless either half already has a close partner.
 */
function mergeCompounds(side: NameToken[], other: NameToken[]): NameToken[] {
  const hasPartner = (t: NameToken) => other.some((o) => tokenSimilarity(t, o, MERGE_LEVEL).similarity >= MERGE_LEVEL);
  const out: NameToken[] = [];
  for (let i = 0; i < side.length; i++) {
    const next = side[i + 1];
    if (next && !hasPartner(side[i]) && !hasPartner(next)) {
      const folded = side[i].folded + next.folded;
      if (
        other.some(
          (o) => upperBound(folded, o.folded) >= MERGE_LEVEL && stringSimilarity(folded, o.folded) >= MERGE_LEVEL,
        )
      ) {
        out.push(joined(side[i], next));
        i++;
        continue;
      }
    }
    out.push(side[i]);
  }
  return out;
}

/** Compares two analysed names of the same kind. Symmetric up to compound merging. */
export function compareTokens(kind: NameKind, left: NameToken[], right: NameToken[]): NameComparison {
  const a = mergeCompounds(left, right);
  const b = mergeCompounds(right, a);
  const candidates: TokenPair[] = [];
  for (const x of a) {
    for (const y of b) {
      const { similarity, phonetic } = tokenSimilarity(x, y, ALIGN_FLOOR[kind]);
      if (similarity >= ALIGN_FLOOR[kind]) candidates.push({ a: x, b: y, similarity, phonetic });
    }
  }
  // Greedy one-to-one alignment, best pairs first (names have few tokens).
  candidates.sort((p, q) => q.similarity - p.similarity);
  const usedA = new Set<NameToken>();
  const usedB = new Set<NameToken>();
  const pairs: TokenPair[] = [];
  for (const p of candidates) {
    if (usedA.has(p.a) || usedB.has(p.b)) continue;
    usedA.add(p.a);
    usedB.add(p.b);
    pairs.push(p);
  }
  const longest = Math.max(a.length, b.length, 1);
  if (pairs.length === 0) return { similarity: 0, pairs, tokenOverlap: 0, phonetic: 0 };
  let weighted = 0;
  let weights = 0;
  for (const p of pairs) {
    const w = (PAIR_WEIGHT[p.a.role] + PAIR_WEIGHT[p.b.role]) / 2;
    weighted += w * p.similarity;
    weights += w;
  }
  let kept = 1;
  for (const t of a) if (!usedA.has(t)) kept *= 1 - MISSING_COST[t.role];
  for (const t of b) if (!usedB.has(t)) kept *= 1 - MISSING_COST[t.role];
  return {
    similarity: (weighted / weights) * kept,
    pairs,
    tokenOverlap: pairs.length / longest,
    phonetic: pairs.filter((p) => p.phonetic).length / longest,
  };
}
