// The words a match query looks candidates up by, bounded (security issue 52, item 3). The store
// finds the names holding all of a probe's words (company_name_words, migration 0022, folds to
// a-z and 0-9 only), so a word of another script folded to nothing and its probe held every name
// in the register: 100 Cyrillic names ranked the whole register a hundred times. Here such a word
// is looked up by its transliteration (register names are written in Latin letters: "Ромашка" ->
// "romashka"), words are folded here as the store folds them (foldedWords) and compared as they
// are, a word that folds to nothing is not looked up, repeated words count once, and a name is
// looked up by at most MAX_LOOKUP_WORDS words, the most selective first (all its words still
// count in the score).
import anyAscii from 'any-ascii';
import { foldedWords } from './normalise.ts';

/** Words of a name used for lookups; a name of three words or more costs one probe more than this. */
export const MAX_LOOKUP_WORDS = 6;
/**
 * Characters of the text candidates are ranked against by trigram similarity: each ranked name
 * is compared with all of its trigrams, and register names are shorter than this.
 */
export const MAX_RANKING_KEY = 120;

/** A letter of any script but Latin. */
const OTHER_SCRIPT = /(?!\p{Script=Latin})\p{L}/u;

/** A word as the store is asked for it: as written, or transliterated when it holds another script. */
export function lookupSpelling(word: string): string {
  return OTHER_SCRIPT.test(word) ? anyAscii(word).toLowerCase() : word;
}

/** A word the store is asked for: as company_name_words folds it, and the word it was read from. */
export interface LookupWord {
  folded: string;
  /** The word as written (or transliterated), whose one-edit neighbours stand for a typo in it. */
  written: string;
}

export interface LookupPlan {
  /** The text the candidates of the lookups are ranked against (trigram similarity). */
  key: string;
  /** Store words to look up, distinct, most selective first, at most MAX_LOOKUP_WORDS. */
  words: LookupWord[];
}

/**
 * The lookup plan of a query's retrieval key (normalise.ts retrievalKey). A longer folded word is
 * taken as rarer in a register than a shorter one (one-letter words, "as", "bygg" are the common
 * ones); ties keep the name's order.
 */
export function lookupPlan(retrievalKey: string): LookupPlan {
  const spelt = retrievalKey
    .split(' ')
    .filter(Boolean)
    .map((w) => lookupSpelling(w));
  const seen = new Set<string>();
  const words: (LookupWord & { at: number })[] = [];
  spelt.forEach((written, at) => {
    for (const folded of foldedWords(written)) {
      if (seen.has(folded)) continue;
      seen.add(folded);
      words.push({ folded, written, at });
    }
  });
  words.sort((a, b) => b.folded.length - a.folded.length || a.at - b.at);
  return {
    key: spelt.join(' ').slice(0, MAX_RANKING_KEY).trim(),
    words: words.slice(0, MAX_LOOKUP_WORDS).map(({ folded, written }) => ({ folded, written })),
  };
}
