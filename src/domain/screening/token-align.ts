// Name similarity from word alignment. Each word of one name is paired with at most one word of
// the other (order-free, best pairs first). Every pair earns graded credit, its similarity
// (no floor below which a near miss scores nothing; credit fades out between 0.6 and 0.4), and
// each side's coverage is the weighted share of its words that found credit. The better covered
// side counts most, so a listed name with extra middle names or nisbas still matches the
// shorter name, while words missing on both sides cost more. Rules about *which* words differ
// then cap the similarity below any useful threshold (guards.ts): a different surname, given
// and family names swapped, contradicting patronymics, different legal-form families.
import { codesOf, type NameToken, type TokenRole } from './normalise.ts';
import { skeletonOfAscii } from './script.ts';
import { foldToken } from './fold.ts';
import { nameGuards, type Guard } from './guards.ts';
import { translationOf } from './org-vocabulary.ts';
import { spellingSimilarity, wordSimilarity } from './token-similarity.ts';
import type { NameKind, TokenHow, TokenMatch } from './types.ts';

/** How much a word counts in its name's coverage. */
const WEIGHT: Record<TokenRole, number> = {
  anchor: 1,
  core: 1,
  middle: 0.8,
  initial: 0.6,
  patronymic: 0.5,
  generic: 0.4,
  particle: 0.2,
};

/**
 * Share of the name similarity taken from the better covered name (the rest from the other).
 * Below half for organisations: an extra distinctive word ("Banco Santander Chile" vs "Banco
 * Santander", "Korea Mining Trading" vs "Korea Trading") more often names a subsidiary or a
 * sibling than an extra given name names another person, so the less covered name weighs more.
 */
const BETTER_SIDE: Record<NameKind, number> = { person: 0.75, organisation: 0.45 };

/** Adjacent words are joined when the joined word is at least this similar to a word of the other name. */
const MERGE_LEVEL = 0.9;
const MAX_JOIN = 4;

/** Pairs below this similarity are not aligned at all. */
const PAIR_FLOOR = 0.4;

/** Credit of an aligned pair: its similarity, fading to 0 between 0.6 and PAIR_FLOOR. */
const credit = (s: number) => (s >= 0.6 ? s : s <= PAIR_FLOOR ? 0 : (s - PAIR_FLOOR) * 3);

interface TokenPair {
  a: NameToken;
  b: NameToken;
  similarity: number;
  how: TokenHow;
  phonetic: boolean;
}

export interface NameComparison {
  /** After guards. */
  similarity: number;
  /** Before guards (to explain what a guard took). */
  ungarded: number;
  pairs: TokenPair[];
  a: NameToken[];
  b: NameToken[];
  guards: Guard[];
  tokenOverlap: number;
  phonetic: number;
}

const ROLE_RANK: TokenRole[] = ['anchor', 'core', 'middle', 'initial', 'generic', 'patronymic', 'particle'];
const strongerRole = (x: TokenRole, y: TokenRole) => (ROLE_RANK.indexOf(x) <= ROLE_RANK.indexOf(y) ? x : y);

function joined(kind: NameKind, run: NameToken[]): NameToken {
  const raw = run.map((t) => t.raw).join('');
  const folded = foldToken(raw);
  // "instrument making" is one word of the vocabulary (priborostroitelnyy).
  const translation = kind === 'organisation' ? translationOf(folded) : undefined;
  return {
    raw,
    folded,
    codes: codesOf(folded),
    role: run.map((t) => t.role).reduce(strongerRole),
    script: run[0].script,
    skeleton: skeletonOfAscii(run.map((t) => t.skeleton).join('')) || skeletonOfAscii(raw),
    marked: run.some((t) => t.marked) || undefined,
    initials: run.map((t) => t.raw[0]).join(''),
    ...(translation ? { translation } : {}),
  };
}

/** A joined run ("instrument making") is the translation of a word of `other` (priborostroitelnyy). */
function translatedIn(folded: string, other: NameToken[]): boolean {
  const t = translationOf(folded);
  return (
    t !== undefined && other.some((o) => o.translation?.concept === t.concept && o.translation.language !== t.language)
  );
}

/**
 * Joins runs of 2–4 adjacent words of `side` whose concatenation is a word of `other` ("van der
 * bilt" / "vanderbilt", "Abdul Rahman" / "Abdulrahman", "Plat Ono Vich" / "Platonovich"), or,
 * in organisation names, whose initials are one ("People's Liberation Army" / "PLA"), unless a
 * word of the run already has a close partner; or, in organisation names, whose concatenation
 * translates a word of `other` ("instrument making" / "priborostroitelnyy", "nauchno
 * issledovatelskiy" / "research"), the phrase being the unit of translation.
 */
function mergeCompounds(kind: NameKind, side: NameToken[], other: NameToken[]): NameToken[] {
  if (side.length < 2) return side;
  // Computed once per word (not per run): a word with a close partner stays as it is.
  const partnered = side.map((t) => other.some((o) => wordSimilarity(t, o).similarity >= MERGE_LEVEL));
  const acronyms = kind === 'organisation' ? new Set(other.filter((o) => o.raw.length >= 2).map((o) => o.raw)) : null;
  // Only a name with a word of known meaning can hold the translation of a joined phrase.
  const meanings = kind === 'organisation' && other.some((o) => o.translation);
  if (partnered.every(Boolean) && !acronyms?.size) return side;
  const out: NameToken[] = [];
  for (let i = 0; i < side.length; i++) {
    let merged = false;
    for (let n = Math.min(MAX_JOIN, side.length - i); n >= 2 && !merged; n--) {
      const run = side.slice(i, i + n);
      if (run.some((t) => t.orig !== undefined)) continue;
      // An acronym stands for all its words, even one that also resembles another word.
      const acronym = acronyms !== null && acronyms.has(run.map((t) => t.raw[0]).join(''));
      const translation = meanings && !acronym && translatedIn(foldToken(run.map((t) => t.raw).join('')), other);
      let compound = false;
      if (!acronym && !translation && !partnered.slice(i, i + n).some(Boolean)) {
        const folded = foldToken(run.map((t) => t.raw).join(''));
        compound = other.some(
          (o) =>
            (Math.min(folded.length, o.folded.length) / Math.max(folded.length, o.folded.length) >= 0.75 &&
              spellingSimilarity(folded, o.folded) >= MERGE_LEVEL) ||
            // A vowel-less word (عبد الله read as one) is met by the joined Latin words' skeleton.
            (o.script === 'vowelless' && o.skeleton.length >= 3 && o.skeleton === skeletonOfAscii(folded)),
        );
      }
      if (acronym || translation || compound) {
        out.push(joined(kind, run));
        i += n - 1;
        merged = true;
      }
    }
    if (!merged) out.push(side[i]);
  }
  return out;
}

function align(a: NameToken[], b: NameToken[]): TokenPair[] {
  const candidates: TokenPair[] = [];
  for (const x of a) {
    for (const y of b) {
      const s = wordSimilarity(x, y);
      if (s.similarity > PAIR_FLOOR) candidates.push({ a: x, b: y, ...s });
    }
  }
  // Best pairs first; among equals, pairs of the same role (a surname with a surname).
  candidates.sort(
    (p, q) => q.similarity - p.similarity || Number(q.a.role === q.b.role) - Number(p.a.role === p.b.role),
  );
  const usedA = new Set<NameToken>();
  const usedB = new Set<NameToken>();
  const pairs: TokenPair[] = [];
  for (const p of candidates) {
    if (usedA.has(p.a) || usedB.has(p.b)) continue;
    usedA.add(p.a);
    usedB.add(p.b);
    pairs.push(p);
  }
  return pairs;
}

function coverage(tokens: NameToken[], credits: Map<NameToken, number>): number {
  let got = 0;
  let all = 0;
  for (const t of tokens) {
    const w = WEIGHT[t.role];
    got += w * (credits.get(t) ?? 0);
    all += w;
  }
  return all === 0 ? 0 : got / all;
}

/** Compares two analysed names of the same kind. */
export function compareTokens(
  kind: NameKind,
  left: NameToken[],
  right: NameToken[],
  forms: { a: string[]; b: string[] } = { a: [], b: [] },
): NameComparison {
  const a = mergeCompounds(kind, left, right);
  const b = mergeCompounds(kind, right, a);
  const pairs = align(a, b);
  const longest = Math.max(a.length, b.length, 1);
  const creditA = new Map<NameToken, number>();
  const creditB = new Map<NameToken, number>();
  for (const p of pairs) {
    const c = credit(p.similarity);
    creditA.set(p.a, c);
    creditB.set(p.b, c);
    const isJoined = (t: NameToken) => t.initials !== undefined && t.raw !== t.initials;
    if ((isJoined(p.a) || isJoined(p.b)) && p.how !== 'initial' && p.how !== 'translated') p.how = 'joined';
  }
  const covA = coverage(a, creditA);
  const covB = coverage(b, creditB);
  const better = BETTER_SIDE[kind];
  const ungarded = better * Math.max(covA, covB) + (1 - better) * Math.min(covA, covB);
  const guards = nameGuards(kind, a, b, pairs, forms);
  const similarity = guards.reduce((s, g) => Math.min(s, g.cap), ungarded);
  return {
    similarity,
    ungarded,
    pairs,
    a,
    b,
    guards,
    tokenOverlap: pairs.length / longest,
    phonetic: pairs.filter((p) => p.phonetic).length / longest,
  };
}

/** The aligned pairs as explained to people. */
export function explainPairs(cmp: NameComparison): TokenMatch[] {
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return [...cmp.pairs]
    .sort((p, q) => q.similarity - p.similarity)
    .map((p) => ({ query: p.a.raw, candidate: p.b.raw, similarity: r(p.similarity), how: p.how }));
}
