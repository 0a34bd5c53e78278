// Legal-form designations, as ASCII lower-case token sequences (after any-ascii, punctuation
// removal and merging of dotted/slashed single letters: "A/S" -> "as", "s.r.o." -> "sro").
// They are removed from organisation names on both sides so that "Gazprom Neft PJSC" and
// "ПАО Газпром нефть" compare as "gazprom neft", and "AS" vs "A/S" neither creates nor
// blocks a match. Sources: common national abbreviations (NO, SE, DK, FI, IS, DE, UK/US,
// RU/UA/BY transliterated, FR/ES/IT/NL/PL/CZ …); facts, not taken from any other project.

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

const toPhrases = (list: string[]): Phrase[] => list.map((f) => f.split(' ')).sort((a, b) => b.length - a.length); // longest first

const EDGE_PHRASES = toPhrases([...EDGE_ONLY, ...ANYWHERE]);
const ANYWHERE_PHRASES = toPhrases(ANYWHERE);

const matchesAt = (tokens: string[], at: number, phrase: Phrase) =>
  at >= 0 && at + phrase.length <= tokens.length && phrase.every((p, i) => tokens[at + i] === p);

/**
 * Removes legal forms from organisation tokens. Returns the remaining tokens and the forms
 * found. If nothing but legal forms is left (a name like "AS"), the input is kept whole.
 */
export function stripLegalForms(input: string[]): { tokens: string[]; legalForms: string[] } {
  let tokens = [...input];
  const found: string[] = [];
  // Ends first, repeatedly ("X Holding Co Ltd", "AO X PJSC").
  for (let changed = true; changed && tokens.length > 0;) {
    changed = false;
    for (const phrase of EDGE_PHRASES) {
      if (tokens.length > phrase.length && matchesAt(tokens, 0, phrase)) {
        found.push(phrase.join(' '));
        tokens = tokens.slice(phrase.length);
        changed = true;
        break;
      }
      if (tokens.length > phrase.length && matchesAt(tokens, tokens.length - phrase.length, phrase)) {
        found.push(phrase.join(' '));
        tokens = tokens.slice(0, tokens.length - phrase.length);
        changed = true;
        break;
      }
    }
  }
  // Then unambiguous forms in the middle ("MMC Norilsk Nickel PJSC", "X GmbH & Co KG Y").
  const kept: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const phrase = ANYWHERE_PHRASES.find((p) => matchesAt(tokens, i, p));
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
