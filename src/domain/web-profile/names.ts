// Company-name normalising shared by candidate guessing and on-page name matching.
// Brreg names are upper-case with the legal form as a word ("FJORDLYS REGNSKAP AS"); pages
// write "Fjordlys Regnskap AS", "Fjordlys Regnskap" or "FJORDLYS REGNSKAP A/S".

/** Legal-form words stripped from the start or end of a name (NO, plus SE/FI/DK forms seen in NO names). */
const LEGAL_FORM_WORDS: ReadonlySet<string> = new Set([
  'as',
  'asa',
  'ans',
  'da',
  'enk',
  'sa',
  'nuf',
  'ba',
  'bbl',
  'brl',
  'ks',
  'iks',
  'sf',
  'kf',
  'fli',
  'sti',
  'pk',
  'esek',
  'ab',
  'oy',
  'oyj',
  'aps',
  'ltd',
  'limited',
  'gmbh',
  'inc',
  'llc',
  'bv',
  'sarl',
]);

const LETTER_FOLDS: Record<string, string> = {
  æ: 'ae',
  ø: 'o',
  å: 'a',
  ä: 'a',
  ö: 'o',
  ü: 'u',
  ß: 'ss',
  ð: 'd',
  þ: 'th',
};

/** Lower-case, Nordic letters folded the way Norwegian domains spell them (æ→ae, ø→o, å→a). */
export function foldNordic(s: string): string {
  return s
    .toLowerCase()
    .replace(/[æøåäöüßðþ]/g, (c) => LETTER_FOLDS[c])
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** Folded words of a text: letters and digits only; "&" becomes its own word. */
function words(s: string): string[] {
  const folded = foldNordic(s)
    // "A/S", "A.S." and "A.S" are spellings of AS.
    .replace(/\ba\s*[/.]\s*s\b\.?/g, ' as ')
    .replace(/&/g, ' & ');
  return folded.split(/[^a-z0-9&]+/).filter((w) => w.length > 0);
}

/** The distinctive words of a company name: folded, legal form stripped at both ends. */
export function coreNameWords(name: string, orgFormCode?: string | null): string[] {
  const form = orgFormCode ? orgFormCode.toLowerCase() : null;
  const isForm = (w: string) => LEGAL_FORM_WORDS.has(w) || w === form;
  const w = words(name);
  while (w.length > 1 && isForm(w[w.length - 1])) w.pop();
  while (w.length > 1 && isForm(w[0])) w.shift();
  // A lone legal-form word left over means the name was nothing but a form: no core.
  if (w.length === 1 && isForm(w[0])) return [];
  return w;
}

/** A text as one space-separated run of folded words, padded for whole-word `includes`. */
export function matchableText(s: string): string {
  return ` ${words(s).join(' ')} `;
}
