// Registry-name normalisation for name -> organisation number matching. Words are analysed by
// screening's organisation analyser (any-ascii transliteration, Nordic letters folded, legal forms
// removed from either end, connectives dropped), after writing out the abbreviations registries
// and their users commonly use. The retrieval key keeps the Nordic letters, because it is compared
// with companies.name_norm (lower-cased only) by trigram similarity in the store.
import { analyseName, type AnalysedName } from '../screening/normalise.ts';

/** Abbreviations seen in Nordic registry names and in spreadsheets of them, written out. */
const ABBREVIATIONS: Record<string, string> = {
  eiend: 'eiendom',
  eiendomsselsk: 'eiendomsselskap',
  holdg: 'holding',
  hold: 'holding',
  invest: 'investering',
  inv: 'investering',
  transp: 'transport',
  entr: 'entreprenør',
  rørl: 'rørlegger',
  regnsk: 'regnskap',
  konsul: 'konsulent',
  kons: 'konsulent',
  tjen: 'tjenester',
  serv: 'service',
  mask: 'maskin',
  ark: 'arkitekter',
  elektr: 'elektro',
  grp: 'gruppen',
  fastigh: 'fastighets',
  kiint: 'kiinteistö',
};

/** Legal-form words removed from the retrieval key (lower-cased, as written). */
const FORM_WORDS = new Set([
  'as',
  'asa',
  'ans',
  'da',
  'enk',
  'sa',
  'ba',
  'nuf',
  'ks',
  'iks',
  'ab',
  'publ',
  'hb',
  'kb',
  'ek',
  'oy',
  'oyj',
  'ky',
  'tmi',
  'ay',
  'aps',
  'a/s',
  'i/s',
  'k/s',
  'p/s',
  'ivs',
  'smba',
  'amba',
  'aksjeselskap',
  'allmennaksjeselskap',
  'aktiebolag',
  'aktiebolaget',
  'osakeyhtiö',
  'aktieselskab',
  'anpartsselskab',
  'enkeltpersonforetak',
]);

/** Legal forms of more than one word, as spreadsheets spell them out: the code the register uses. */
const SPELT_FORM_CODES: Record<string, string> = {
  'selskap med delt ansvar': 'da',
  'delt ansvar': 'da',
  'ansvarlig selskap': 'ans',
  'norskregistrert utenlandsk foretak': 'nuf',
  handelsbolag: 'hb',
  kommanditbolag: 'kb',
};
const SPELT_FORMS = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${Object.keys(SPELT_FORM_CODES)
    .map((k) => k.replace(/ /g, '\\s+'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);

const WORD = /[\p{L}\p{N}]+(?:\/[\p{L}\p{N}]+)?/gu;

/** Lower-case words of a name, with abbreviations (optionally ending in a dot) written out. */
export function registryWords(name: string): string[] {
  const lower = name
    .normalize('NFC')
    .toLowerCase()
    .replace(/&/g, ' og ')
    .replace(SPELT_FORMS, (form: string) => SPELT_FORM_CODES[form.replace(/\s+/g, ' ')] ?? form);
  return (lower.match(WORD) ?? []).map((w) => ABBREVIATIONS[w] ?? w);
}

/**
 * The text compared with companies.name_norm by trigram similarity: the words without legal forms
 * and connectives, Nordic letters kept. Empty when the name has nothing but such words.
 */
export function retrievalKey(name: string): string {
  const words = registryWords(name).filter((w) => !FORM_WORDS.has(w) && !CONNECTIVES.has(w));
  return words.join(' ').slice(0, 200);
}

const CONNECTIVES = new Set(['og', 'och', 'and', 'ja', 'und', 'the']);

/**
 * A name analysed for comparison (screening's organisation analyser over the written-out words).
 * Every word is a core word: on a watchlist "Holding" or "Nord" adds little to a name, but in a
 * register "Sjø Bygg Holding AS" and "Sjø Bygg Nord AS" are other companies than "Sjø Bygg AS".
 */
export function analyseRegistryName(name: string): AnalysedName {
  const a = analyseName(registryWords(name).join(' '), 'organisation');
  return { ...a, tokens: a.tokens.map((t) => (t.role === 'core' ? t : { ...t, role: 'core' })) };
}

/** Lower-case ASCII fold of a place name, for comparing cities and municipalities. */
export function placeKey(place: string): string {
  return place
    .normalize('NFKD')
    .toLowerCase()
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/å/g, 'a')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The host of a website or e-mail domain, lower-case, without "www.": "https://www.x.no/a" -> "x.no". */
export function domainKey(site: string): string | null {
  const s = site.trim().toLowerCase();
  if (!s) return null;
  const host = s
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^[^@/]*@/, '')
    .split(/[/?#:]/)[0]
    .replace(/^www\./, '')
    .replace(/\.$/, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : null;
}

/**
 * The words of a name as the store's company_name_words() folds them (migration 0022): lower
 * case, aa/ae/oe and Nordic and accented letters folded, split on anything but a-z and 0-9.
 * Must stay in step with that SQL function: its output is compared with these words.
 */
export function foldedWords(name: string): string[] {
  const folded = [...name.toLowerCase().replace(/aa/g, 'a').replace(/ae/g, 'e').replace(/oe/g, 'o')]
    .map((ch) => FOLD[ch] ?? ch)
    .join('');
  return folded.split(/[^a-z0-9]+/).filter(Boolean);
}

const FOLD: Record<string, string> = Object.fromEntries(
  [...'æøåäöüéèêëáàâíìîóòôúùûç'].map((ch, i) => [ch, 'eoaaoueeeeaaaiiiooouuuc'[i]]),
);

const LETTERS = 'abcdefghijklmnopqrstuvwxyzæøå';

/**
 * Every word one edit away from `word` (a letter dropped, added, changed, or two swapped), for
 * finding a name through a typo. `word` is lower case as written; fold the variants with
 * foldedWords. Short words have too many neighbours to say anything: none below four letters.
 */
export function typoVariants(word: string): string[] {
  if (word.length < 4 || word.length > 20) return [];
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const [a, b] = [word.slice(0, i), word.slice(i)];
    if (b) out.add(a + b.slice(1));
    if (b.length > 1) out.add(a + b[1] + b[0] + b.slice(2));
    for (const ch of LETTERS) {
      if (b) out.add(a + ch + b.slice(1));
      out.add(a + ch + b);
    }
  }
  out.delete(word);
  return [...out];
}
