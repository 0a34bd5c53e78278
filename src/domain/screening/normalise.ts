// Name normalisation: transliterate to ASCII (any-ascii folds æ ø å ä ö ü ß Ł Þ and Cyrillic,
// which NFKD does not), lower-case, split into tokens, drop honorifics / legal forms / stop
// words, and remember per token how much it should count when the other name lacks it.
import anyAscii from 'any-ascii';
import doubleMetaphone from 'talisman/phonetics/double-metaphone.js';
import { foldToken } from './fold.ts';
import { mergeLetterRuns, stripLegalForms, stripTrailingForm } from './legal-forms.ts';
import { expandAbbreviations, numbersAsDigits } from './name-numbers.ts';
import { GENERIC_ORG_WORDS, HONORIFICS, isPatronymic, ORG_STOP_WORDS, PARTICLES } from './name-words.ts';
import { placeAdjectiveStem, translationOf, type Translation } from './org-vocabulary.ts';
import { scriptOf, skeletonOf, skeletonOfAscii, syllablesOf, vowelFrameOf, type ScriptClass } from './script.ts';
import type { NameKind, NormalisedName } from './types.ts';

/**
 * What a token is, which decides what it costs when the other name has no counterpart:
 * anchor = first/last name or surname (costly), middle = other given names, patronymic,
 * particle (al, bin, van …), core = significant organisation word, generic = "Holding", "Group" ….
 */
export type TokenRole = 'anchor' | 'middle' | 'patronymic' | 'particle' | 'initial' | 'core' | 'generic';

export interface NameToken {
  /** ASCII lower case. */
  raw: string;
  /** After spelling folds (see fold.ts): what similarity is computed on. */
  folded: string;
  /** Double Metaphone codes of the folded token (empty for one-letter tokens). */
  codes: string[];
  role: TokenRole;
  /** Script class of the word the token came from (see script.ts). */
  script: ScriptClass;
  /** The original character(s) of a syllabic-script token (compared instead of the ASCII). */
  orig?: string;
  /** Consonant skeleton: compared across scripts when one side is vowel-less. */
  skeleton: string;
  /** Abjad words: consonants with their written vowel slots (script.ts vowelFrameOf). */
  frame?: string;
  /** Persons: an all-caps word in a mixed-case name, i.e. the listed surname. */
  marked?: boolean;
  /** A joined run of organisation words: their initials, compared with acronyms ("PLA"). */
  initials?: string;
  /** Organisation words in the Russian/Ukrainian–English vocabulary (org-vocabulary.ts). */
  translation?: Translation;
  /** Organisation words shaped like a Russian/Ukrainian place adjective: the place's stem. */
  placeStem?: string;
}

export interface AnalysedName {
  kind: NameKind;
  display: string;
  tokens: NameToken[];
  legalForms: string[];
  /** Sorted raw tokens: equal keys mean the same name up to case, accents and order. */
  rawKey: string;
  /** Sorted folded tokens. */
  sortedKey: string;
}

interface Part {
  text: string;
  script: ScriptClass;
  orig?: string;
  skeleton?: string;
  frame?: string;
}

interface Word {
  parts: Part[];
  upper: boolean;
}

// Apostrophes vanish rather than split ("Mu'ammar", "neft'", "O'Brien").
const APOSTROPHES = /['`\u2019\u02bc\u02bb]/g;

const asciiParts = (w: string) =>
  anyAscii(w)
    .toLowerCase()
    .replace(APOSTROPHES, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Arabic-script words carry the article ال ("al-") joined: it is split off, as Latin spellings do. */
const ARABIC_ARTICLE = /^\u0627\u0644(?=\p{Script=Arabic}{2})/u;

/**
 * Arabic words for "son of" / "daughter of": read as the particles Latin spellings use, so that
 * they are particles (and the nasab the order guard reads) in both scripts.
 */
const ARABIC_NASAB = new Map([
  ['بن', 'bin'],
  ['ابن', 'ibn'],
  ['بنت', 'bint'],
]);

/**
 * عبد ("servant of") is the first half of a compound name with the next word (عبد الله, عبد
 * الرحمن), which Latin spellings write as one word or several (Abdullah, Abd Allah, Abdul
 * Rahman, Abdel Fattah): the two Arabic words are read as one, and the Latin words are joined
 * to meet it (token-align.ts).
 */
const ARABIC_ABD = /^عبـ?د$/u;

function joinArabicCompounds(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const next = words[i + 1];
    if (ARABIC_ABD.test(words[i]) && next !== undefined && /^\p{Script=Arabic}+$/u.test(next)) {
      out.push(words[i] + next);
      i++;
    } else out.push(words[i]);
  }
  return out;
}

/** Thai letters under the thanthakhat (์) are silent: ลักษณ์ is "lak", จันทร์ "chan". */
const THAI_SILENT = /[\u0e01-\u0e2e]{1,2}\u0e4c/gu;

function partsOf(word: string): Part[] {
  const w = word.replace(THAI_SILENT, '');
  const script = scriptOf(w);
  const nasab = ARABIC_NASAB.get(w);
  if (nasab) return [{ text: nasab, script, skeleton: '' }];
  if (script === 'syllabic') {
    return syllablesOf(w).map((c) => ({ text: asciiParts(c).join(''), script, orig: c }));
  }
  if (script === 'vowelless') {
    const article = ARABIC_ARTICLE.test(w);
    const rest = article ? w.replace(ARABIC_ARTICLE, '') : w;
    const text = asciiParts(rest).join('');
    const frame = vowelFrameOf(rest, script);
    const main = { text, script, skeleton: skeletonOf(rest, script), ...(frame ? { frame } : {}) };
    return [...(article ? [{ text: 'al', script }] : []), ...(text ? [main] : [])];
  }
  return asciiParts(w).map((text) => ({ text, script }));
}

function toWords(display: string, kind: NameKind): Word[] {
  let text = display;
  // "PUTIN, Vladimir" lists the surname first; put it back in name order for persons.
  const commaParts = text.split(',');
  if (kind === 'person' && commaParts.length === 2 && commaParts.every((p) => p.trim() !== '')) {
    text = `${commaParts[1].trim()} ${commaParts[0].trim()}`;
  }
  return joinArabicCompounds(text.split(/\s+/).filter(Boolean))
    .map((w) => ({
      parts: partsOf(w).filter((p) => p.text !== ''),
      // All-caps words in a mixed-case name are surnames ("Vitaly Yurievich KUZMENKO").
      upper: /\p{Lu}/u.test(w) && !/\p{Ll}/u.test(w),
    }))
    .filter((w) => w.parts.length > 0);
}

const withoutIfAnyLeft = (tokens: string[], drop: (t: string) => boolean) => {
  const kept = tokens.filter((t) => !drop(t));
  return kept.length > 0 ? kept : tokens;
};

// Memo: Double Metaphone is the costliest step of analysing a name, and words recur.
const codeMemo = new Map<string, string[]>();

export function codesOf(folded: string): string[] {
  if (folded.length < 2) return [];
  let codes = codeMemo.get(folded);
  if (!codes) {
    codes = [...new Set(doubleMetaphone(folded).filter(Boolean))];
    if (codeMemo.size >= 50_000) codeMemo.clear();
    codeMemo.set(folded, codes);
  }
  return codes;
}

function personRoles(tokens: string[], upper: boolean[], mixedCase: boolean): TokenRole[] {
  const significant = tokens.map((t, i) => i).filter((i) => !PARTICLES.has(tokens[i]) && tokens[i].length > 1);
  const first = significant[0];
  const last = significant[significant.length - 1];
  // A name that marks its surname in capitals ("MOROZOV Timofei Andreyevich") says where the
  // surname is, so a patronymic may come last; otherwise a last "-ovich" is the surname (Abramovich).
  const marked = mixedCase && significant.some((i) => upper[i]);
  return tokens.map((t, i) => {
    if (PARTICLES.has(t) && tokens.length > 1) return 'particle';
    // "V. Putin", "J.-C. Juncker", "Hans J Friedrich": a single Latin letter is an initial.
    if (t.length === 1 && /[a-z]/.test(t) && tokens.length > 1) return 'initial';
    const surname = mixedCase && upper[i];
    if (isPatronymic(t) && !surname && (i !== last || marked)) return 'patronymic';
    if (i === first || i === last || surname) return 'anchor';
    return 'middle';
  });
}

/** Script facts of each token, found by its text among the parts it came from. */
function partFinder(parts: Part[]) {
  const fallback: ScriptClass = parts.some((p) => p.script !== 'latin')
    ? parts.find((p) => p.script !== 'latin')!.script
    : 'latin';
  const used = new Set<Part>();
  return (text: string): Part => {
    const p = parts.find((x) => !used.has(x) && x.text === text);
    if (p) used.add(p);
    return p ?? { text, script: fallback };
  };
}

function organisationWord(folded: string): Pick<NameToken, 'translation' | 'placeStem'> {
  const translation = translationOf(folded);
  const placeStem = placeAdjectiveStem(folded);
  return { ...(translation ? { translation } : {}), ...(placeStem ? { placeStem } : {}) };
}

export function analyseName(name: string, kind: NameKind): AnalysedName {
  const display = name.normalize('NFC').replace(/\s+/g, ' ').trim();
  const words = toWords(display, kind);
  const mixedCase = words.some((w) => w.upper) && words.some((w) => !w.upper);
  // A list marks the surname by writing it alone in capitals ("Vitaly Yurievich KUZMENKO").
  const marksSurname = mixedCase && words.filter((w) => w.upper).length === 1;
  const parts = words.flatMap((w) => w.parts);
  let tokens = parts.map((p) => p.text);
  let upper = words.flatMap((w) => w.parts.map(() => w.upper));
  let legalForms: string[] = [];
  let roles: TokenRole[];
  if (kind === 'person') {
    const keep = tokens.map((t) => !HONORIFICS.has(t));
    if (keep.some(Boolean)) {
      upper = upper.filter((_, i) => keep[i]);
      tokens = tokens.filter((_, i) => keep[i]);
    }
    // "Nicolás Maduro LLC": a legal form says nothing about a person.
    const stripped = stripTrailingForm(tokens);
    if (stripped.length < tokens.length) {
      legalForms = tokens.slice(stripped.length);
      tokens = stripped;
    }
    roles = personRoles(tokens, upper, mixedCase);
  } else {
    tokens = withoutIfAnyLeft(mergeLetterRuns(numbersAsDigits(expandAbbreviations(tokens))), (t) =>
      ORG_STOP_WORDS.has(t),
    );
    ({ tokens, legalForms } = stripLegalForms(tokens));
    roles = tokens.map((t) => (GENERIC_ORG_WORDS.has(t) && tokens.length > 1 ? 'generic' : 'core'));
  }
  const find = partFinder(parts);
  const nameTokens: NameToken[] = tokens.map((raw, i) => {
    const part = find(raw);
    const folded = foldToken(raw);
    return {
      raw,
      folded,
      codes: codesOf(folded),
      role: roles[i],
      script: part.script,
      ...(part.orig ? { orig: part.orig } : {}),
      skeleton: part.skeleton ?? skeletonOfAscii(raw),
      ...(part.frame ? { frame: part.frame } : {}),
      ...(kind === 'person' && marksSurname && upper[i] && roles[i] !== 'particle' ? { marked: true } : {}),
      ...(kind === 'organisation' ? organisationWord(folded) : {}),
    };
  });
  // Tokens from other scripts are marked, so that a name equal only after transliteration
  // (Вучић / Vucic, 高石 / 高市) never has the same key as its Latin look-alike.
  const keyOf = (t: NameToken) => (t.script === 'latin' ? t.raw : `${t.script}:${t.orig ?? t.raw}`);
  return {
    kind,
    display,
    tokens: nameTokens,
    legalForms,
    rawKey: nameTokens.map(keyOf).sort().join(' '),
    sortedKey: nameTokens
      .map((t) => t.folded)
      .sort()
      .join(' '),
  };
}

/** Public, stable view of a normalised name (see README for what each field is for). */
export function normaliseName(name: string, kind: NameKind): NormalisedName {
  const a = analyseName(name, kind);
  return {
    display: a.display,
    tokens: a.tokens.map((t) => t.raw),
    sortedKey: a.sortedKey,
    phoneticKeys: [...new Set(a.tokens.flatMap((t) => t.codes))],
    legalForms: a.legalForms,
  };
}
