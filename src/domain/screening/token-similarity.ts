// Similarity of two name words in [0, 1], and how it was reached (named in explanations).
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import type { NameToken } from './normalise.ts';
import { namesPlace } from './org-vocabulary.ts';
import { osaSimilarity } from './osa.ts';
import { vowelFrameOfAscii } from './script.ts';
import type { TokenHow } from './types.ts';

/** An initial ("V.") against a word starting with that letter ("Vladimir"). */
const INITIAL_SIMILARITY = 0.9;
/** Equal consonant skeletons across scripts: strong, but the vowels were never compared. */
const SCRIPT_SIMILARITY = 0.92;
/**
 * A word and its translation (zavod / plant) or a place adjective and its place (Muromskiy /
 * Murom): the same meaning, though the spelling was never compared.
 */
const TRANSLATED_SIMILARITY = 0.9;
/** A similarity that no alignment accepts. */
const NOT_THE_SAME = 0.3;

interface WordSimilarity {
  similarity: number;
  how: TokenHow;
  phonetic: boolean;
}

/**
 * Nordic patronymic surnames: Danish/Norwegian -sen and Swedish/Icelandic -son are different
 * surname families (Larsen ≠ Larsson, Carlsen ≠ Karlsson), although one letter apart.
 */
const SEN = /s+en$/;
const SON = /s+on$/;
const differentSurnameFamily = (a: string, b: string) => (SEN.test(a) && SON.test(b)) || (SON.test(a) && SEN.test(b));

/**
 * A patronymic is the father's name with a suffix (Andreyevich = son of Andrey): a given name
 * against a patronymic at least a suffix longer is the father against his son, not a spelling.
 */
const fatherOf = (name: NameToken, patronymic: NameToken) =>
  patronymic.role === 'patronymic' && name.role !== 'patronymic' && name.folded.length <= patronymic.folded.length - 4;

// Memo of string similarities: the same word pairs recur across candidates and aliases.
const memo = new Map<string, number>();
const MEMO_LIMIT = 50_000;

/**
 * Mean of Jaro-Winkler (forgiving of endings, rewards a shared start) and OSA similarity
 * (1 − Damerau/OSA distance / length: strict about length, a swap of two letters is one edit).
 */
export function spellingSimilarity(x: string, y: string): number {
  if (x === y) return 1;
  const key = x < y ? `${x}|${y}` : `${y}|${x}`;
  let s = memo.get(key);
  if (s === undefined) {
    s = (jaroWinkler(x, y) + osaSimilarity(x, y)) / 2;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, s);
  }
  return s;
}

const boosted = (s: number) => s + (1 - s) / 4;

/** An abjad word's vowel frame against a Latin word's (0 when neither side has one). */
function frameSimilarity(a: NameToken, b: NameToken): number {
  const [abjad, latin] = a.frame !== undefined ? [a, b] : [b, a];
  if (abjad.frame === undefined || latin.script !== 'latin') return 0;
  return spellingSimilarity(abjad.frame, vowelFrameOfAscii(latin.raw));
}

/** A word of a romanised reading: syllabic script, but no original characters to compare. */
const isReading = (t: NameToken) => t.script === 'syllabic' && t.orig === undefined;

/**
 * Consonant skeletons across a vowel-less script. A Latin j often writes the y sound
 * (Benjamin, Jussuf) that an abjad writes with a vowel letter the skeleton leaves out.
 */
function skeletonSimilarity(a: NameToken, b: NameToken): number {
  const s = osaSimilarity(a.skeleton, b.skeleton);
  const [latin, other] = a.script === 'latin' ? [a, b] : [b, a];
  if (latin.script !== 'latin' || !latin.skeleton.includes('j')) return s;
  return Math.max(s, osaSimilarity(latin.skeleton.replace(/j/g, ''), other.skeleton));
}

/** An English organisation word against its Russian/Ukrainian translation, or a place adjective against its place. */
function translated(a: NameToken, b: NameToken): boolean {
  if (a.translation && b.translation)
    return a.translation.concept === b.translation.concept && a.translation.language !== b.translation.language;
  if (a.placeStem !== undefined && b.placeStem === undefined) return namesPlace(a.placeStem, b.folded);
  if (b.placeStem !== undefined && a.placeStem === undefined) return namesPlace(b.placeStem, a.folded);
  return false;
}

export function wordSimilarity(a: NameToken, b: NameToken): WordSimilarity {
  // Syllabic scripts on both sides: the characters decide (高石 ≠ 高市, though both are "gaoshi").
  if (a.orig !== undefined && b.orig !== undefined) {
    return a.orig === b.orig
      ? { similarity: 1, how: 'exact', phonetic: true }
      : { similarity: 0, how: 'fuzzy', phonetic: false };
  }
  if (a.raw === b.raw) return { similarity: 1, how: 'exact', phonetic: true };
  if (a.folded === b.folded) return { similarity: 1, how: 'spelling', phonetic: true };
  if (a.role === 'initial' || b.role === 'initial') {
    const [i, w] = a.role === 'initial' ? [a, b] : [b, a];
    const ok = w.raw.startsWith(i.raw);
    return { similarity: ok ? INITIAL_SIMILARITY : 0, how: 'initial', phonetic: false };
  }
  if (a.initials !== undefined || b.initials !== undefined) {
    // An acronym ("PLA", "US") against the words it abbreviates.
    if (a.initials === b.raw || b.initials === a.raw)
      return { similarity: INITIAL_SIMILARITY, how: 'initial', phonetic: false };
  }
  const phonetic = a.codes.some((c) => b.codes.includes(c));
  let similarity = spellingSimilarity(a.folded, b.folded);
  let how: TokenHow = phonetic ? 'phonetic' : 'fuzzy';
  if (differentSurnameFamily(a.folded, b.folded) || fatherOf(a, b) || fatherOf(b, a))
    return { similarity: Math.min(similarity, NOT_THE_SAME), how, phonetic };
  // Double Metaphone ignores vowels and so also joins Anders/Andreas, Berg/Borg: a nudge only.
  if (phonetic && similarity >= 0.5) similarity = boosted(similarity);
  // A romanised syllable of Han, Hangul or Kana (readings.ts) is a unit: the systems differ in
  // vowels (song / sung, myong / myung), never in consonants, so another consonant is another
  // syllable (yong / myong, kato / sato), however close the letters.
  if (isReading(a) !== isReading(b) && a.skeleton !== b.skeleton)
    return { similarity: Math.min(similarity, NOT_THE_SAME), how, phonetic };
  // Across a vowel-less script and a written-out one, compare consonant skeletons.
  if ((a.script === 'vowelless') !== (b.script === 'vowelless') && a.skeleton !== '' && b.skeleton !== '') {
    const k = SCRIPT_SIMILARITY * Math.max(skeletonSimilarity(a, b), frameSimilarity(a, b));
    if (k > similarity) {
      similarity = k;
      how = 'script';
    }
  }
  // Spelling may already say more (institut / institute): a translation only raises the floor.
  if (similarity < TRANSLATED_SIMILARITY && translated(a, b))
    return { similarity: TRANSLATED_SIMILARITY, how: 'translated', phonetic };
  return { similarity, how, phonetic };
}

/**
 * Strict similarity for the surname guard: OSA only (no Jaro-Winkler shared-prefix bonus, which
 * is what lets Castillo pass for Castro), or equal consonant skeletons (Gaddafi / Kadhafi).
 */
export function strictSimilarity(a: NameToken, b: NameToken): number {
  if (a.folded === b.folded || (a.orig !== undefined && a.orig === b.orig)) return 1;
  // Equal skeletons: across a vowel-less script, or spellings of one length give or take a letter.
  const crossScript = (a.script === 'vowelless') !== (b.script === 'vowelless');
  if (a.skeleton !== '' && a.skeleton === b.skeleton && (crossScript || Math.abs(a.raw.length - b.raw.length) <= 1))
    return 1;
  return osaSimilarity(a.folded, b.folded);
}
