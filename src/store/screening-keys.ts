// Exact lookup keys for screening candidates, indexed in one GIN array column.
//
// Why not the pg_trgm `%` lookup the domain README sketches: measured on 300 k generated list
// entities (413 k names) on PostgreSQL 15, one `trigram_key % $1` costs 10–120 ms per subject
// (the GIN posting lists of common name trigrams such as "  k", "sen", "an " are long), so ten
// subjects would take ~0.5 s. Exact keys cost well under a millisecond each. The keys are a
// superset of the domain's (src/domain/screening/candidate-keys.ts, computed here from the same
// analysis to analyse each name once), adding two families for what the trigram path was there
// to catch:
// - **phonetic pairs** (the domain's): Double Metaphone codes of every pair of name tokens;
// - **spelling keys** `CODE/variant`: the code of one token with the other token spelled exactly
//   or with one letter deleted (tokens of ≥ 5 letters). Two names share such a key when one
//   token sounds alike and the other is at most two edits apart ("Hadia Tajik" / "Hadia
//   TADJIK", where the codes of Tajik/Tadjik differ);
// - **joined neighbours**: adjacent tokens joined count as one more token ("Kim Jong-Un" /
//   "Kim Jongun"), and a two-token name joined is keyed like a one-word name ("Abdul Rahman" /
//   "Abdulrahman").
// - **skeleton pairs** `~A+B`: the consonant skeletons (domain/screening/script.ts) of every pair
//   of name tokens, so that a name written in a script without vowels (Arabic, Hebrew …) finds
//   its Latin spelling ("فرناندو بيريز" / "Fernando Pérez" share "~brnnd+brs").
// - **meaning pairs** (the domain's): organisation words by meaning, so that a translated name
//   finds its transliteration ("Murom … Plant" / «Муромский … завод» share "#plant+MRM").
// The trigram key stays: it orders the retrieved candidates (similarity()) before the limit.
import { meaningPairs } from '../domain/screening/candidate-keys.ts';
import { analyseName, codesOf, type NameToken } from '../domain/screening/normalise.ts';
import type { NameKind } from '../domain/screening/types.ts';

/** As the domain's candidateKeys: at most this many tokens feed the phonetic pairs. */
const MAX_PAIR_TOKENS = 6;
/** Tokens that take part in spelling and joined keys. */
const MAX_UNITS = 4;
/** Deletion variants only for tokens this long: shorter ones would collide with other words. */
const MIN_DELETE_LENGTH = 5;

interface Unit {
  folded: string;
  codes: string[];
  /** Token positions covered (a joined unit covers two). */
  from: number;
  to: number;
}

/** The token and its one-letter deletions (for long enough tokens). */
function variants(folded: string): string[] {
  const out = new Set([folded]);
  if (folded.length >= MIN_DELETE_LENGTH) {
    for (let i = 0; i < folded.length; i++) out.add(folded.slice(0, i) + folded.slice(i + 1));
  }
  return [...out];
}

const pair = (x: string, y: string) => (x <= y ? `${x}+${y}` : `${y}+${x}`);

/** The domain's phonetic keys (candidateKeys), from an analysis already made. */
function phoneticPairs(significant: NameToken[], keys: Set<string>): void {
  const tokens = significant.slice(0, MAX_PAIR_TOKENS);
  if (tokens.length === 1) for (const c of tokens[0].codes) keys.add(c);
  for (let i = 0; i < tokens.length; i++) {
    for (let j = i + 1; j < tokens.length; j++) {
      for (const x of tokens[i].codes) for (const y of tokens[j].codes) keys.add(pair(x, y));
    }
  }
}

interface MatchKeys {
  /** Sorted folded tokens: pg_trgm similarity() orders the candidates. */
  trigramKey: string;
  keys: string[];
}

export function matchKeys(name: string, kind: NameKind): MatchKeys {
  const analysed = analyseName(name, kind);
  const significant = analysed.tokens.filter((t) => t.role !== 'particle' && t.codes.length > 0);
  const keys = new Set<string>();
  phoneticPairs(significant, keys);
  meaningPairs(significant, keys);
  // Skeletons are short (Haddad is "d"): a pair must have four letters in all to be selective.
  const skeletons = [...new Set(significant.map((t) => t.skeleton).filter(Boolean))].slice(0, MAX_PAIR_TOKENS);
  for (let i = 0; i < skeletons.length; i++) {
    for (let j = i + 1; j < skeletons.length; j++) {
      if (skeletons[i].length + skeletons[j].length >= 4) keys.add(`~${pair(skeletons[i], skeletons[j])}`);
    }
  }
  // Spelling and joined keys use the tokens that identify a name: a missing patronymic or a
  // generic word ("Holding") is common, a misspelt one is no reason to look further.
  const tokens = significant.filter((t) => t.role !== 'patronymic' && t.role !== 'generic').slice(0, MAX_UNITS);
  const units: Unit[] = tokens.map((t, i) => ({ folded: t.folded, codes: t.codes, from: i, to: i }));
  for (let i = 0; i + 1 < tokens.length; i++) {
    const folded = tokens[i].folded + tokens[i + 1].folded;
    units.push({ folded, codes: codesOf(folded), from: i, to: i + 1 });
  }
  if (tokens.length === 1) {
    for (const v of variants(tokens[0].folded)) keys.add(`/${v}`);
    keys.add(`=${tokens[0].folded}`);
  }
  // A two-token name written as one word ("Abdul Rahman" / "Abdulrahman"). By spelling, not by
  // code: Double Metaphone codes stop at four letters, so the joined code is mostly the first
  // token's, which every other name starting with that token would share.
  if (tokens.length === 2) keys.add(`=${units[2].folded}`);
  for (const a of units) {
    for (const b of units) {
      if (a === b || (a.from <= b.to && b.from <= a.to)) continue; // overlapping units
      if ((a.to > a.from || b.to > b.from) && a.from < b.from)
        for (const x of a.codes) for (const y of b.codes) keys.add(pair(x, y));
      for (const c of a.codes) for (const v of variants(b.folded)) keys.add(`${c}/${v}`);
    }
  }
  return { trigramKey: analysed.sortedKey, keys: [...keys].sort() };
}
