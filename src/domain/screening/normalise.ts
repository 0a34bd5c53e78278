// Name normalisation: transliterate to ASCII (any-ascii folds æ ø å ä ö ü ß Ł Þ and Cyrillic,
// which NFKD does not), lower-case, split into tokens, drop honorifics / legal forms / stop
// words, and remember per token how much it should count when the other name lacks it.
import anyAscii from 'any-ascii';
import doubleMetaphone from 'talisman/phonetics/double-metaphone.js';
import { foldToken } from './fold.ts';
import { stripLegalForms } from './legal-forms.ts';
import { GENERIC_ORG_WORDS, HONORIFICS, isPatronymic, ORG_STOP_WORDS, PARTICLES } from './name-words.ts';
import type { NameKind, NormalisedName } from './types.ts';

/**
 * What a token is, which decides what it costs when the other name has no counterpart:
 * anchor = first/last name or surname (costly), middle = other given names, patronymic,
 * particle (al, bin, van …), core = significant organisation word, generic = "Holding", "Group" ….
 */
export type TokenRole = 'anchor' | 'middle' | 'patronymic' | 'particle' | 'core' | 'generic';

export interface NameToken {
  /** ASCII lower case. */
  raw: string;
  /** After spelling folds (see fold.ts): what similarity is computed on. */
  folded: string;
  /** Double Metaphone codes of the folded token (empty for one-letter tokens). */
  codes: string[];
  role: TokenRole;
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

interface Word {
  parts: string[];
  upper: boolean;
}

// Apostrophes vanish rather than split ("Mu'ammar", "neft'", "O'Brien").
const APOSTROPHES = /['`\u2019\u02bc\u02bb]/g;

function toWords(display: string, kind: NameKind): Word[] {
  let text = display;
  // "PUTIN, Vladimir" lists the surname first; put it back in name order for persons.
  const commaParts = text.split(',');
  if (kind === 'person' && commaParts.length === 2 && commaParts.every((p) => p.trim() !== '')) {
    text = `${commaParts[1].trim()} ${commaParts[0].trim()}`;
  }
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ({
      parts: anyAscii(w)
        .toLowerCase()
        .replace(APOSTROPHES, '')
        .split(/[^a-z0-9]+/)
        .filter(Boolean),
      // All-caps words in a mixed-case name are surnames ("Vitaly Yurievich KUZMENKO").
      upper: /\p{Lu}/u.test(w) && !/\p{Ll}/u.test(w),
    }))
    .filter((w) => w.parts.length > 0);
}

/** "A/S", "s.r.o.", "sp. z o.o." become one token each ("as", "sro", "sp zoo"). */
function mergeLetterRuns(tokens: string[]): string[] {
  const out: string[] = [];
  let run = '';
  for (const t of tokens) {
    if (t.length === 1) {
      run += t;
      continue;
    }
    if (run) out.push(run);
    run = '';
    out.push(t);
  }
  if (run) out.push(run);
  return out;
}

const withoutIfAnyLeft = (tokens: string[], drop: (t: string) => boolean) => {
  const kept = tokens.filter((t) => !drop(t));
  return kept.length > 0 ? kept : tokens;
};

export function codesOf(folded: string): string[] {
  if (folded.length < 2) return [];
  return [...new Set(doubleMetaphone(folded).filter(Boolean))];
}

function personRoles(tokens: string[], upper: boolean[], mixedCase: boolean): TokenRole[] {
  const significant = tokens.map((t, i) => i).filter((i) => !PARTICLES.has(tokens[i]));
  const first = significant[0];
  const last = significant[significant.length - 1];
  return tokens.map((t, i) => {
    if (PARTICLES.has(t) && tokens.length > 1) return 'particle';
    const surname = mixedCase && upper[i];
    if (isPatronymic(t) && !surname && i !== last) return 'patronymic';
    if (i === first || i === last || surname) return 'anchor';
    return 'middle';
  });
}

export function analyseName(name: string, kind: NameKind): AnalysedName {
  const display = name.normalize('NFC').replace(/\s+/g, ' ').trim();
  const words = toWords(display, kind);
  const mixedCase = words.some((w) => w.upper) && words.some((w) => !w.upper);
  let tokens: string[] = [];
  let upper: boolean[] = [];
  for (const w of words) {
    tokens.push(...w.parts);
    upper.push(...w.parts.map(() => w.upper));
  }
  let legalForms: string[] = [];
  let roles: TokenRole[];
  if (kind === 'person') {
    const keep = tokens.map((t) => !HONORIFICS.has(t));
    if (keep.some(Boolean)) {
      upper = upper.filter((_, i) => keep[i]);
      tokens = tokens.filter((_, i) => keep[i]);
    }
    roles = personRoles(tokens, upper, mixedCase);
  } else {
    tokens = withoutIfAnyLeft(mergeLetterRuns(tokens), (t) => ORG_STOP_WORDS.has(t));
    ({ tokens, legalForms } = stripLegalForms(tokens));
    roles = tokens.map((t) => (GENERIC_ORG_WORDS.has(t) && tokens.length > 1 ? 'generic' : 'core'));
  }
  const nameTokens = tokens.map((raw, i) => {
    const folded = foldToken(raw);
    return { raw, folded, codes: codesOf(folded), role: roles[i] };
  });
  return {
    kind,
    display,
    tokens: nameTokens,
    legalForms,
    rawKey: [...tokens].sort().join(' '),
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
