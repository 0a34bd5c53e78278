// Rules about one word that differs between two otherwise equal names, where the graded
// similarity alone would pass: a word of the same stem with another ending (organisations),
// and a word replaced by another in a long chain of names (persons). Each caps the similarity
// like the rules in guards.ts.
import { GUARD_CAP, type Guard } from './guard.ts';
import type { NameToken } from './normalise.ts';

interface Pair {
  a: NameToken;
  b: NameToken;
  similarity: number;
  how?: string;
}

/** Names of at least this many words are a chain: given name, father's, grandfather's … */
const CHAIN = 4;
/** Credit below which an aligned pair does not count as a partner. */
const PARTNER = 0.6;

const significant = (tokens: NameToken[]) =>
  tokens.filter((t) => t.role !== 'particle' && t.role !== 'initial' && t.role !== 'patronymic');

/**
 * Endings that make another word of the same stem (construction / constructors, bank /
 * banking, industrial / industries): in an organisation name another word, not a spelling.
 * Plural -s is not among them: "Solution" and "Solutions" name one company.
 */
const DERIVATIONS = [
  'ing',
  'ion',
  'ions',
  'or',
  'ors',
  'er',
  'ers',
  'al',
  'ical',
  'ic',
  'ics',
  'ive',
  'ment',
  'ies',
  'y',
];
const MIN_STEM = 4;

function derivedPair(x: string, y: string): boolean {
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  if (n < MIN_STEM) return false;
  const ex = x.slice(n);
  const ey = y.slice(n);
  const ending = (e: string) => e === '' || DERIVATIONS.includes(e);
  return ex !== ey && ending(ex) && ending(ey);
}

/**
 * Organisations: a distinctive word against another word of the same stem (Construction /
 * Constructors, Bank / Banking) names another organisation, although the letters mostly agree.
 */
export function derivedWordGuard(a: NameToken[], b: NameToken[], pairs: Pair[]): Guard | undefined {
  const p = pairs.find((x) => x.similarity < 1 && x.how !== 'translated' && derivedPair(x.a.folded, x.b.folded));
  if (!p) return undefined;
  return { feature: 'derivedWord', cap: GUARD_CAP, reason: `another word of the same stem: ${p.a.raw} / ${p.b.raw}` };
}

/**
 * A word replaced, not left out: each name has a significant word with no partner in the other
 * ("Saleh Mohammad Zadran Akhtar" / "Saleh Mohammad Kakar Akhtar"). In a chain of given name,
 * father's and grandfather's names, another word is another ancestor, so another person;
 * a name that only lacks a word (a listed name with more given names) is not affected.
 */
export function substitutionGuard(a: NameToken[], b: NameToken[], pairs: Pair[]): Guard | undefined {
  const partnered = new Set(pairs.filter((p) => p.similarity >= PARTNER).flatMap((p) => [p.a, p.b]));
  const sa = significant(a);
  const sb = significant(b);
  if (sa.length < CHAIN || sb.length < CHAIN) return undefined;
  const loneA = sa.find((t) => !partnered.has(t) && t.raw.length > 2);
  const loneB = sb.find((t) => !partnered.has(t) && t.raw.length > 2);
  if (!loneA || !loneB) return undefined;
  return { feature: 'substitution', cap: GUARD_CAP, reason: `${loneA.raw} in one name, ${loneB.raw} in the other` };
}
