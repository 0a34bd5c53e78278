// Keys for retrieving screening candidates with indexes instead of scanning every listed name.
// A store keeps, per listed name (primary and each alias), the keys of candidateKeys(name,
// kind) in two indexed columns and looks a subject up by its own keys (SQL in README.md).
import { analyseName, codesOf, type NameToken } from './normalise.ts';
import { readingsOf } from './readings.ts';
import { skeletonOfAscii } from './script.ts';
import type { NameKind } from './types.ts';

export interface CandidateKeys {
  /** Folded, sorted tokens: compare with pg_trgm `%` / similarity() on a gin_trgm_ops index. */
  trigramKey: string;
  /**
   * Double Metaphone codes of each unordered pair of name tokens ("FLTM+PTN"), or the codes of
   * the single token of a one-word name: compare with array overlap `&&` on a GIN index.
   * Pairs rather than single codes keep the lookup selective: one common code (MHMT for every
   * Mohammed) would match tens of thousands of names, a pair of codes only a handful.
   */
  phoneticKeys: string[];
}

/** At most this many tokens feed the pairs (15 pairs × ≤4 code combinations). */
const MAX_KEY_TOKENS = 6;

const pair = (x: string, y: string) => (x <= y ? `${x}+${y}` : `${y}+${x}`);

/**
 * An organisation word by its meaning: a word of the Russian/Ukrainian–English vocabulary by its
 * concept ("#plant" for zavod and plant), a place adjective by its place's codes (Muromskiy as
 * Murom), any other word by its codes. A translated name shares no sound with its
 * transliteration; it shares meanings.
 */
function meaningCodes(t: NameToken): string[] {
  if (t.translation) return [`#${t.translation.concept}`];
  if (t.placeStem !== undefined) return codesOf(t.placeStem);
  return t.codes;
}

/**
 * Pairs of meaning codes, added when a name has a word of known meaning (organisations only);
 * each pair keeps at least one word that is not generic.
 */
export function meaningPairs(significant: NameToken[], keys: Set<string>): void {
  const tokens = significant.slice(0, MAX_KEY_TOKENS);
  if (!tokens.some((t) => t.translation || t.placeStem !== undefined)) return;
  const codes = tokens.map(meaningCodes);
  for (let i = 0; i < codes.length; i++) {
    for (let j = i + 1; j < codes.length; j++) {
      for (const x of codes[i]) {
        // Two generic meanings ("#aviation+#plant") would fetch every aviation plant listed.
        for (const y of codes[j]) if (!(x.startsWith('#') && y.startsWith('#'))) keys.add(pair(x, y));
      }
    }
  }
}

/** Pairs of the Double Metaphone codes of a name's significant tokens (see CandidateKeys). */
function phoneticPairs(tokens: NameToken[], keys: Set<string>): NameToken[] {
  const significant = tokens.filter((t) => t.role !== 'particle' && t.codes.length > 0).slice(0, MAX_KEY_TOKENS);
  if (significant.length === 1) for (const c of significant[0].codes) keys.add(c);
  for (let i = 0; i < significant.length; i++) {
    for (let j = i + 1; j < significant.length; j++) {
      for (const x of significant[i].codes) {
        for (const y of significant[j].codes) keys.add(pair(x, y));
      }
    }
  }
  return significant;
}

/** Consonant skeletons this short are shared by too many names to narrow a lookup. */
const MIN_SKELETON_KEY = 4;

/**
 * Skeleton keys ("~bdls"): an Arabic or Hebrew word by its consonant skeleton, and each two
 * neighbouring words of a written-out name (with a particle between them, if any) by the
 * skeleton of their join, so that عبد العزيز (one word, read as one name) and "Abdul Aziz" or
 * "Abd al-Aziz" meet, as they do when scored. Double Metaphone cannot do it: it codes the Latin
 * word's first vowel, which the abjad does not write. A join of two words is rare enough to
 * narrow a lookup, unlike one word's skeleton.
 */
function skeletonKeys(tokens: NameToken[], keys: Set<string>): void {
  const written = (t: NameToken | undefined) => t !== undefined && (t.script === 'latin' || t.script === 'other');
  const particle = (t: NameToken | undefined) => t?.role === 'particle';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.script === 'vowelless' && t.skeleton.length >= MIN_SKELETON_KEY) keys.add(`~${t.skeleton}`);
    if (!written(t) || particle(t)) continue;
    const end = particle(tokens[i + 1]) ? i + 2 : i + 1;
    const last = tokens[end];
    if (!written(last) || particle(last)) continue;
    const k = skeletonOfAscii(
      tokens
        .slice(i, end + 1)
        .map((x) => x.raw)
        .join(''),
    );
    if (k.length >= MIN_SKELETON_KEY) keys.add(`~${k}`);
  }
}

export function candidateKeys(name: string, kind: NameKind): CandidateKeys {
  const analysed = analyseName(name, kind);
  const keys = new Set<string>();
  const significant = phoneticPairs(analysed.tokens, keys);
  meaningPairs(significant, keys);
  skeletonKeys(analysed.tokens, keys);
  // A name in Han, Hangul or Kana is also found by the sounds of its romanised readings, so a
  // Latin spelling retrieves it (and it retrieves Latin spellings).
  for (const r of readingsOf(name, kind)) phoneticPairs(analyseName(r.text, kind).tokens, keys);
  return { trigramKey: analysed.sortedKey, phoneticKeys: [...keys].sort() };
}
