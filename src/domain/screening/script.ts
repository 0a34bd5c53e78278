// Script-aware transliteration. any-ascii (a maintained per-script transliteration table:
// Cyrillic, Greek, Georgian, Armenian, Arabic, Hebrew, Indic, Han, Hangul, Kana …) gives the
// ASCII spelling; this module adds what a table cannot know about a script:
// - **Vowel-less scripts.** Arabic, Hebrew and Syriac (abjads) do not write short vowels, and
//   their long-vowel letters (alif, waw, ya; aleph, vav, yod, he, ayin) are also consonants; the
//   Brahmic, Khmer, Thai and Lao abugidas leave the inherent vowel unwritten. Their ASCII is a consonant
//   sketch ("frnndw byryz" for Fernando Pérez), so a word from such a script is compared with a
//   Latin word by *consonant skeleton* (both sides reduced alike), never by spelling.
// - **Syllabic scripts.** In Han, Hangul and Kana each character is a syllable, often a whole
//   name part, and different characters share a romanisation (高石 and 高市 are both "gaoshi").
//   Such names are compared character by character in the original script; a transliterated
//   collision is never an exact match.
import anyAscii from 'any-ascii';

export type ScriptClass = 'latin' | 'vowelless' | 'syllabic' | 'other';

const VOWELLESS =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Khmer}\p{Script=Thai}\p{Script=Lao}\p{Script=Bengali}\p{Script=Devanagari}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Myanmar}]/u;
const SYLLABIC = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LATIN_OR_NONE = /^[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]*$/u;

export function scriptOf(word: string): ScriptClass {
  if (SYLLABIC.test(word)) return 'syllabic';
  if (VOWELLESS.test(word)) return 'vowelless';
  return LATIN_OR_NONE.test(word) ? 'latin' : 'other';
}

/**
 * Letters that abjads use for long vowels (matres lectionis) and the glottal/pharyngeal letters
 * that Latin spellings drop: Arabic alif (all hamza seats), waw, ya, alif maqsura, ta marbuta,
 * ayn; Hebrew aleph, he, vav, yod, ayin. Skipped when building a skeleton from the original.
 */
const MATRES = new Set([...'اأإآءئؤوىيةعٱ', ...'אהויע']);

/**
 * Consonant skeleton of ASCII text: vowels and the letters that transliterations use as vowels
 * or breath (h, w, y) dropped, voiced/unvoiced and alternative spellings of one sound merged
 * (b/p/f/v, k/q/c/g, s/z), doubled letters single. "fernando" and "frnndw" both give "brnnd".
 */
export function skeletonOfAscii(ascii: string): string {
  return ascii
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/[aeiouyhw]/g, '')
    .replace(/[pfv]/g, 'b')
    .replace(/[qcg]/g, 'k')
    .replace(/z/g, 's')
    .replace(/(.)\1+/g, '$1');
}

/** Skeleton of a word in its original script (abjads skip the vowel letters, see MATRES). */
export function skeletonOf(word: string, script: ScriptClass): string {
  if (script !== 'vowelless') return skeletonOfAscii(anyAscii(word));
  let ascii = '';
  for (const ch of word) if (!MATRES.has(ch)) ascii += anyAscii(ch);
  return skeletonOfAscii(ascii);
}

/**
 * Abjad letters that stand for a vowel when a foreign name is spelt in the script (alif and its
 * hamza seats, waw, ya, alif maqsura, ta marbuta; Hebrew aleph, vav, yod, final he), and the
 * throat letters that Latin spellings drop (ayn, hamza alone, Hebrew ayin).
 */
const VOWEL_LETTERS = new Set([...'اأإآٱئؤوىية', ...'אויה']);
const SILENT_LETTERS = new Set([...'عء', ...'ע']);

/** One vowel slot ("V" runs collapse) and the skeleton's consonant merges. */
const frameOfLetters = (letters: string): string =>
  letters
    .replace(/[pfv]/g, 'b')
    .replace(/[qcg]/g, 'k')
    .replace(/z/g, 's')
    .replace(/(.)\1+/g, '$1');

/**
 * Vowel frame of an abjad word: its consonants with one slot wherever a vowel letter is written.
 * Foreign names spelt in Arabic or Hebrew write their vowels with these letters (أدينا is
 * a-d-i-n-a), so where the consonant skeletons differ by a letter, the frame still shows whether
 * the vowels fall in the same places. Empty for other scripts.
 */
export function vowelFrameOf(word: string, script: ScriptClass): string {
  if (script !== 'vowelless' || !/[\p{Script=Arabic}\p{Script=Hebrew}]/u.test(word)) return '';
  let letters = '';
  for (const ch of word) {
    if (SILENT_LETTERS.has(ch)) continue;
    letters += VOWEL_LETTERS.has(ch)
      ? 'a'
      : anyAscii(ch)
          .toLowerCase()
          .replace(/[^a-z]/g, '');
  }
  return frameOfLetters(letters.replace(/[eiouyw]/g, 'a').replace(/h/g, ''));
}

/** Vowel frame of a Latin word, comparable with vowelFrameOf: every vowel (and w, y) one slot, h dropped. */
export const vowelFrameOfAscii = (ascii: string): string =>
  frameOfLetters(
    ascii
      .toLowerCase()
      .replace(/[^a-z]/g, '')
      .replace(/h/g, '')
      .replace(/[eiouyw]/g, 'a'),
  );

/** Splits a syllabic-script word into its characters (each one name syllable). */
export const syllablesOf = (word: string): string[] => [...word].filter((c) => SYLLABIC.test(c));
