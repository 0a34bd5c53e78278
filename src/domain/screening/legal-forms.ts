// Legal-form designations, as ASCII lower-case token sequences (after any-ascii, punctuation
// removal and merging of dotted/slashed single letters: "A/S" -> "as", "s.r.o." -> "sro").
// They are removed from organisation names on both sides so that "Gazprom Neft PJSC" and
// "ПАО Газпром нефть" compare as "gazprom neft", and "AS" vs "A/S" neither creates nor
// blocks a match. Sources: the ISO 20275 ELF list's abbreviations and local names
// (elf-forms.ts) plus the short lists below of forms that are also ordinary words, and the
// transliterated Russian/Ukrainian forms. A misspelt or cut-off long form
// ("Aktiengeselschaft", "joint stock compan") is still recognised at either end of a name.
import anyAscii from 'any-ascii';
import { distance as osa } from './osa.ts';
import { ELF_FORMS, type FormFamily } from './elf-forms.ts';

/** Forms that are also ordinary words or name parts: removed only at either end of a name. */
const EDGE_ONLY = [
  'as',
  'da',
  'sa',
  'ab',
  'ag',
  'co',
  'ks',
  'hb',
  'kb',
  'ba',
  'sf',
  'is',
  'ad',
  'at',
  'ao',
  'ay',
  'ky',
  'nv',
  'bv',
  'cv',
  'lp',
  'sc',
  'sl',
  'ps',
  'ug',
  'hf',
  'pat',
  'ak',
  'ek',
  'ans',
  'kg',
  'ev',
  'ip',
  'tmi',
  'publ',
  'company limited',
  'limited',
  'ltd co',
  'co ltd',
];

/** Unambiguous forms: removed wherever they stand. */
const ANYWHERE = [
  // Nordic
  'asa',
  'nuf',
  'iks',
  'enk',
  'aksjeselskap',
  'aksjeselskapet',
  'allmennaksjeselskap',
  'allmennaksjeselskapet',
  'aps',
  'amba',
  'fmba',
  'smba',
  'ivs',
  'aktieselskab',
  'aktieselskabet',
  'anpartsselskab',
  'anpartsselskabet',
  'aktiebolag',
  'aktiebolaget',
  'handelsbolag',
  'kommanditbolag',
  'ekonomisk forening',
  'oy',
  'oyj',
  'osakeyhtio',
  'julkinen osakeyhtio',
  'ehf',
  'ohf',
  // German
  'gmbh',
  'mbh',
  'ohg',
  'gmbh co kg',
  'gesellschaft mit beschrankter haftung',
  'aktiengesellschaft',
  // English
  'ltd',
  'llc',
  'llp',
  'plc',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'pty',
  'pte',
  'bhd',
  'sdn bhd',
  'fze',
  'fzco',
  'fzc',
  'fz llc',
  'dmcc',
  'joint stock company',
  'public joint stock company',
  'open joint stock company',
  'closed joint stock company',
  'non public joint stock company',
  'limited liability company',
  'public limited company',
  'private limited company',
  'limited liability partnership',
  'limited partnership',
  // Russian / Ukrainian / Belarusian (and their English abbreviations)
  'ooo',
  'oao',
  'zao',
  'pao',
  'jsc',
  'pjsc',
  'ojsc',
  'cjsc',
  'tov',
  'prat',
  'fgup',
  'gup',
  'mup',
  'fsue',
  'federal state unitary enterprise',
  'state unitary enterprise',
  'municipal unitary enterprise',
  'federalnoe gosudarstvennoe unitarnoe predpriyatie',
  'gosudarstvennoe unitarnoe predpriyatie',
  'munitsipalnoe unitarnoe predpriyatie',
  'obshchestvo s ogranichennoy otvetstvennostyu',
  'aktsionernoe obshchestvo',
  'publichnoe aktsionernoe obshchestvo',
  'otkrytoe aktsionernoe obshchestvo',
  'zakrytoe aktsionernoe obshchestvo',
  'nepublichnoe aktsionernoe obshchestvo',
  'tovaristvo z obmezhenoyu vidpovidalnistyu',
  'aktsionerne tovaristvo',
  'privatne aktsionerne tovaristvo',
  'publichne aktsionerne tovaristvo',
  'tavarystva z abmezhavanay adkaznastsyu',
  // Romance, Benelux, Central Europe
  'sarl',
  'sas',
  'srl',
  'spa',
  'ltda',
  'eirl',
  'sa de cv',
  'sociedad anonima',
  'sociedad de responsabilidad limitada',
  'bvba',
  'vof',
  'sro',
  'sp zoo',
  'kft',
  'zrt',
  'nyrt',
  'doo',
  'ood',
  'eood',
];

type Phrase = readonly string[];

/** "A/S", "s.r.o.", "sp. z o.o." become one token each ("as", "sro", "sp zoo"). */
export function mergeLetterRuns(tokens: string[]): string[] {
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

const asciiTokens = (s: string) =>
  mergeLetterRuns(
    anyAscii(s)
      .toLowerCase()
      .replace(/['`\u2019]/g, '')
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );

/** Family of each form phrase; null when the ELF list gives one spelling several families. */
const FAMILY = new Map<string, FormFamily>();
const elfEdge: string[] = [];
const elfAnywhere: string[] = [];
const edgeSet = new Set(EDGE_ONLY);
for (const [, family, abbreviations, names] of ELF_FORMS) {
  for (const [i, list] of [abbreviations, names].entries()) {
    for (const form of list.split('|').filter(Boolean)) {
      const phrase = asciiTokens(form).join(' ');
      if (!phrase) continue;
      FAMILY.set(phrase, FAMILY.has(phrase) && FAMILY.get(phrase) !== family ? null : family);
      // Short abbreviations are often words or name parts too: only at either end.
      if (i === 0 && (phrase.length <= 3 || edgeSet.has(phrase))) elfEdge.push(phrase);
      else elfAnywhere.push(phrase);
    }
  }
}

const toPhrases = (list: string[]): Phrase[] =>
  [...new Set(list)].map((f) => f.split(' ')).sort((a, b) => b.length - a.length); // longest first

const ANYWHERE_ALL = [...ANYWHERE, ...elfAnywhere.filter((p) => !edgeSet.has(p))];
const EDGE_PHRASES = toPhrases([...EDGE_ONLY, ...elfEdge, ...ANYWHERE_ALL]);
const ANYWHERE_PHRASES = toPhrases(ANYWHERE_ALL);
/** Long forms recognised when misspelt or cut off (at least this many letters). */
const FUZZY_PHRASES = toPhrases(ANYWHERE_ALL).filter((p) => p.join('').length >= 10);

/** Phrases by their first and by their last word: a name is tested only against forms that can fit. */
function indexBy(phrases: Phrase[], pick: (p: Phrase) => string): Map<string, Phrase[]> {
  const map = new Map<string, Phrase[]>();
  for (const p of phrases) map.set(pick(p), [...(map.get(pick(p)) ?? []), p]); // keeps longest first
  return map;
}
const EDGE_BY_FIRST = indexBy(EDGE_PHRASES, (p) => p[0]);
const EDGE_BY_LAST = indexBy(EDGE_PHRASES, (p) => p[p.length - 1]);
const ANYWHERE_BY_FIRST = indexBy(ANYWHERE_PHRASES, (p) => p[0]);

const matchesAt = (tokens: string[], at: number, phrase: Phrase) =>
  at >= 0 && at + phrase.length <= tokens.length && phrase.every((p, i) => tokens[at + i] === p);

/**
 * A misspelt ("aktiengeselschaft", "joynt stock company") or cut-off ("joint stock compan") long
 * form: the joined letters are at most two edits (and 12 %) apart, or the words agree except
 * that the last one is cut after at least four letters.
 */
function fuzzyAt(tokens: string[], at: number, phrase: Phrase): boolean {
  if (at < 0 || at + phrase.length > tokens.length) return false;
  if (tokens[at][0] !== phrase[0][0]) return false; // cheap first test: forms are rarely misspelt at the start
  const window = tokens.slice(at, at + phrase.length);
  const a = window.join('');
  const b = phrase.join('');
  if (Math.abs(a.length - b.length) <= 2 && osa(a, b) <= Math.min(2, Math.floor(b.length * 0.12))) return true;
  const last = window.length - 1;
  // Cut off only within a form of several words: a lone prefix ("inter") is too often a word.
  return (
    phrase.length >= 2 &&
    window.slice(0, last).every((w, i) => w === phrase[i]) &&
    window[last].length >= 4 &&
    window[last].length < phrase[last].length &&
    phrase[last].startsWith(window[last])
  );
}

function stripEdges(input: string[], found: string[]): string[] {
  let tokens = input;
  for (let changed = true; changed && tokens.length > 0;) {
    changed = false;
    const head = (EDGE_BY_FIRST.get(tokens[0]) ?? []).find((p) => tokens.length > p.length && matchesAt(tokens, 0, p));
    const tail = (EDGE_BY_LAST.get(tokens[tokens.length - 1]) ?? []).find(
      (p) => tokens.length > p.length && matchesAt(tokens, tokens.length - p.length, p),
    );
    // The longer of the two first, as a scan of all forms longest-first would.
    if (head && (!tail || head.length >= tail.length)) {
      found.push(head.join(' '));
      tokens = tokens.slice(head.length);
      changed = true;
    } else if (tail) {
      found.push(tail.join(' '));
      tokens = tokens.slice(0, tokens.length - tail.length);
      changed = true;
    }
    if (changed) continue;
    for (const phrase of FUZZY_PHRASES) {
      if (tokens.length > phrase.length && fuzzyAt(tokens, tokens.length - phrase.length, phrase)) {
        found.push(phrase.join(' '));
        tokens = tokens.slice(0, tokens.length - phrase.length);
        changed = true;
        break;
      }
      if (tokens.length > phrase.length && fuzzyAt(tokens, 0, phrase)) {
        found.push(phrase.join(' '));
        tokens = tokens.slice(phrase.length);
        changed = true;
        break;
      }
    }
  }
  return tokens;
}

/**
 * Removes legal forms from organisation tokens. Returns the remaining tokens and the forms
 * found. If nothing but legal forms is left (a name like "AS"), the input is kept whole.
 */
export function stripLegalForms(input: string[]): { tokens: string[]; legalForms: string[] } {
  const found: string[] = [];
  // Ends first, repeatedly ("X Holding Co Ltd", "AO X PJSC").
  const tokens = stripEdges([...input], found);
  // Then unambiguous forms in the middle ("MMC Norilsk Nickel PJSC", "X GmbH & Co KG Y").
  const kept: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const phrase = (ANYWHERE_BY_FIRST.get(tokens[i]) ?? []).find((p) => matchesAt(tokens, i, p));
    if (phrase && tokens.length - phrase.length > 0) {
      found.push(phrase.join(' '));
      i += phrase.length;
    } else {
      kept.push(tokens[i]);
      i += 1;
    }
  }
  if (kept.length === 0) return { tokens: [...input], legalForms: [] };
  return { tokens: kept, legalForms: found };
}

/** A person name ending in a legal form ("Nicolás Maduro LLC"): the form dropped, two words kept. */
export function stripTrailingForm(tokens: string[]): string[] {
  const phrase = (EDGE_BY_LAST.get(tokens[tokens.length - 1]) ?? []).find(
    (p) => tokens.length - p.length >= 2 && matchesAt(tokens, tokens.length - p.length, p),
  );
  return phrase ? tokens.slice(0, tokens.length - phrase.length) : tokens;
}

/**
 * True when both names carry legal forms of known, different families and share none ("Deutsche
 * Bank AG" / "Deutsche Bank GmbH"): two companies of one group, not two spellings of one.
 */
export function formsConflict(a: string[], b: string[]): boolean {
  const families = (forms: string[]) => new Set(forms.map((f) => FAMILY.get(f)).filter((f) => f != null));
  const fa = families(a);
  const fb = families(b);
  return fa.size > 0 && fb.size > 0 && ![...fa].some((f) => fb.has(f));
}
