// Rules about *which* words differ, applied after the graded similarity. Each caps the name
// similarity at GUARD_CAP, which with NAME_WEIGHT 0.9 scores 0.72: below the default threshold,
// still visible to anyone who screens with a lower one. Each names itself in the explanation.
import { formsConflict } from './legal-forms.ts';
import type { NameToken } from './normalise.ts';
import { strictSimilarity } from './token-similarity.ts';
import { derivedWordGuard, substitutionGuard } from './word-guards.ts';
import type { NameKind } from './types.ts';
import { GUARD_CAP, type Guard } from './guard.ts';

export { GUARD_CAP, type Guard };

/** Surnames this close by strict (OSA) similarity are spellings of one name (1 edit in 5 letters). */
const SAME_SURNAME = 0.8;

interface Pair {
  a: NameToken;
  b: NameToken;
  similarity: number;
}

const significant = (tokens: NameToken[]) =>
  tokens.filter((t) => t.role !== 'particle' && t.role !== 'initial' && t.role !== 'patronymic');

/**
 * A different surname sharing a start ("Pedro Sancho" / "Pedro Sánchez", "Lukashevich" /
 * "Lukashenko") passes on Jaro-Winkler's prefix bonus: the last names, when aligned with each
 * other, must be the same by strict similarity. A surname a list marks (upper case in a
 * mixed-case name) must have a partner at all.
 */
function surnameGuard(a: NameToken[], b: NameToken[], pairs: Pair[]): Guard | undefined {
  const sa = significant(a);
  const sb = significant(b);
  // "N.N.": initials alone identify nobody.
  if ((sa.length === 0 && a.length > 0) || (sb.length === 0 && b.length > 0))
    return { feature: 'surname', cap: GUARD_CAP, reason: 'a name of initials only' };
  // A one-word name is a surname or nothing: "Putin" may be Vladimir Putin, "Musa" is not Musa Hansen.
  if (sa.length === 1 && sb.length >= 2 && !pairs.some((p) => p.a === sa[0] && p.b === sb[sb.length - 1]))
    return { feature: 'surname', cap: GUARD_CAP, reason: `the one-word name ${sa[0].raw} is not the other's surname` };
  if (sb.length === 1 && sa.length >= 2 && !pairs.some((p) => p.b === sb[0] && p.a === sa[sa.length - 1]))
    return { feature: 'surname', cap: GUARD_CAP, reason: `the one-word name ${sb[0].raw} is not the other's surname` };
  if (sa.length < 2 || sb.length < 2) return undefined;
  const lastA = sa[sa.length - 1];
  const lastB = sb[sb.length - 1];
  const pair = pairs.find((p) => p.a === lastA && p.b === lastB);
  if (pair && pair.similarity < 1 && strictSimilarity(lastA, lastB) < SAME_SURNAME) {
    return { feature: 'surname', cap: GUARD_CAP, reason: `different surnames: ${lastA.raw} / ${lastB.raw}` };
  }
  const paired = new Set(pairs.flatMap((p) => [p.a, p.b]));
  // A marked surname is the surname wherever it stands: its partner must be the same name.
  const unlike = pairs.find(
    (p) =>
      (p.a.marked || p.b.marked) &&
      p.a.role !== 'initial' &&
      p.b.role !== 'initial' &&
      p.similarity < 1 &&
      strictSimilarity(p.a, p.b) < SAME_SURNAME,
  );
  if (unlike)
    return { feature: 'surname', cap: GUARD_CAP, reason: `different surnames: ${unlike.a.raw} / ${unlike.b.raw}` };
  const missing = [...sa, ...sb].find((t) => t.marked && !paired.has(t));
  if (missing)
    return { feature: 'surname', cap: GUARD_CAP, reason: `the listed surname ${missing.raw} has no partner` };
  // A name that marks its surname gives its given names in order: the first one must be there.
  for (const s of [sa, sb]) {
    if (s.some((t) => t.marked) && !s[0].marked && !paired.has(s[0]))
      return { feature: 'surname', cap: GUARD_CAP, reason: `the listed first name ${s[0].raw} has no partner` };
  }
  return undefined;
}

/**
 * Given and family name swapped ("Friedrich Hans" / "Hans Friedrich", "Salman bin Muhammad" /
 * "Muhammad bin Salman"): each name's first word pairs with a later word of the other. Only
 * within one script: across scripts, surname-first order is a convention (Russian lists), and
 * "SURNAME, Given" was already put in name order.
 */
const NASAB = new Set(['bin', 'ibn', 'ben', 'bint', 'binti', 'ould']);

/** For each word: 0 before the first "bin"/"ibn" (the person), 1 after it (the father's line). */
function nasabSide(tokens: NameToken[]): Map<NameToken, number> | undefined {
  const at = tokens.findIndex((t) => NASAB.has(t.raw));
  if (at <= 0) return undefined;
  return new Map(tokens.map((t, i) => [t, i < at ? 0 : 1]));
}

/**
 * The ways a name can be read: as written, and, when the list marks its surname in capitals
 * ("MOROZOV Timofei", "KIM Jong Un"), also with that surname last: the capitals exist because
 * the position does not say where the surname is.
 */
function readings(tokens: NameToken[]): NameToken[][] {
  if (!tokens.some((t) => t.marked)) return [tokens];
  return [tokens, [...tokens.filter((t) => !t.marked), ...tokens.filter((t) => t.marked)]];
}

/** Each name's first word pairs with a later word of the other. */
function swapped(sa: NameToken[], sb: NameToken[], pairs: Pair[]): boolean {
  const partnerOfA0 = pairs.find((p) => p.a === sa[0])?.b;
  const partnerOfB0 = pairs.find((p) => p.b === sb[0])?.a;
  return partnerOfA0 !== undefined && partnerOfB0 !== undefined && partnerOfA0 !== sb[0] && partnerOfB0 !== sa[0];
}

/**
 * One name is the other turned round (a word moved from the end to the front, "HAJI ASAD KHAN
 * MOHAMMADHASNI" / "MOHAMMADHASNI HAJI ASAD KHAN", "bin Salman Mohammed"): lists move the name
 * they file under to one end; in names of three words or more, that keeps every other word in
 * its order, unlike a swap of given and family name.
 */
function rotated(a: NameToken[], b: NameToken[], pairs: Pair[]): boolean {
  if (a.length < 3 || b.length !== a.length || pairs.length !== a.length) return false;
  const at = a.map((t) => b.indexOf(pairs.find((p) => p.a === t)?.b as NameToken));
  if (at.includes(-1)) return false;
  const shift = at[0];
  return shift !== 0 && at.every((j, i) => j === (shift + i) % b.length);
}

function orderGuard(a: NameToken[], b: NameToken[], pairs: Pair[]): Guard | undefined {
  const sa = significant(a);
  const sb = significant(b);
  if (sa.length < 2 || sb.length < 2) return undefined;
  // "X bin Y": X is the person, Y the father; written order decides, and it must agree, in
  // any script (محمد بن سلمان is Muhammad bin Salman, never Salman bin Muhammad).
  const na = nasabSide(a);
  const nb = nasabSide(b);
  if (na && nb) {
    const crossed = pairs.find((p) => sa.includes(p.a) && na.get(p.a) !== nb.get(p.b));
    return crossed
      ? { feature: 'nameOrder', cap: GUARD_CAP, reason: `person and father swapped around "bin": ${crossed.a.raw}` }
      : undefined;
  }
  if (sa[0].script !== sb[0].script || rotated(a, b, pairs)) return undefined;
  if (readings(sa).every((ra) => readings(sb).every((rb) => swapped(ra, rb, pairs)))) {
    return {
      feature: 'nameOrder',
      cap: GUARD_CAP,
      reason: `given and family names swapped: ${sa[0].raw} … / ${sb[0].raw} …`,
    };
  }
  return undefined;
}

/** Two different patronymics ("Sergey Ivanovich" / "Sergey Viktorovich") are two fathers. */
function patronymicGuard(a: NameToken[], b: NameToken[], pairs: Pair[]): Guard | undefined {
  const pa = a.filter((t) => t.role === 'patronymic');
  const pb = b.filter((t) => t.role === 'patronymic');
  if (pa.length === 0 || pb.length === 0) return undefined;
  const agree = pairs.some((p) => pa.includes(p.a) && pb.includes(p.b) && strictSimilarity(p.a, p.b) >= SAME_SURNAME);
  if (agree) return undefined;
  return { feature: 'patronymic', cap: GUARD_CAP, reason: `different patronymics: ${pa[0].raw} / ${pb[0].raw}` };
}

/** Across a syllabic script, a match needs this many aligned words and Latin letters. */
const MIN_READING_WORDS = 2;
const MIN_READING_LETTERS = 6;

/**
 * A name in Han, Hangul or Kana against a Latin one: their syllables are short and shared by
 * many names (金 / 김 / Kim, 李 / 이 / Lee, 马 / Ma), so one or two short syllables in common
 * say nothing about the person. The aligned words must be at least two, with at least six
 * letters between them.
 */
function shortReadingGuard(a: NameToken[], b: NameToken[], pairs: Pair[]): Guard | undefined {
  const syllabic = (s: NameToken[]) => s.length > 0 && s.every((t) => t.script === 'syllabic');
  const latin = (s: NameToken[]) => s.every((t) => t.script === 'latin');
  let latinSide: 'a' | 'b';
  if (syllabic(a) && latin(b)) latinSide = 'b';
  else if (syllabic(b) && latin(a)) latinSide = 'a';
  else return undefined;
  const aligned = pairs.filter((p) => p.similarity >= 0.6);
  const letters = aligned.reduce((n, p) => n + p[latinSide].raw.length, 0);
  if (aligned.length >= MIN_READING_WORDS && letters >= MIN_READING_LETTERS) return undefined;
  const words = aligned.map((p) => p[latinSide].raw).join(' ') || 'nothing';
  return { feature: 'shortReading', cap: GUARD_CAP, reason: `only short transliterated syllables in common: ${words}` };
}

export function nameGuards(
  kind: NameKind,
  a: NameToken[],
  b: NameToken[],
  pairs: Pair[],
  forms: { a: string[]; b: string[] },
): Guard[] {
  const short = shortReadingGuard(a, b, pairs);
  const defined = (gs: (Guard | undefined)[]) => gs.filter((g): g is Guard => g !== undefined);
  if (kind === 'organisation') {
    const conflict: Guard | undefined = formsConflict(forms.a, forms.b)
      ? {
          feature: 'legalForm',
          cap: GUARD_CAP,
          reason: `different kinds of legal form: ${forms.a.join(', ')} / ${forms.b.join(', ')}`,
        }
      : undefined;
    return defined([short, conflict, derivedWordGuard(a, b, pairs)]);
  }
  return defined([
    surnameGuard(a, b, pairs),
    orderGuard(a, b, pairs),
    patronymicGuard(a, b, pairs),
    short,
    substitutionGuard(a, b, pairs),
  ]);
}
