// Organisation names write numbers and common words in several ways: "1st" / "First",
// "Forty-Four" / "44", "Int'l" / "International". Both sides are brought to one form (digits,
// full words) before comparison. English only: the lists we screen against are published with
// English names or transliterations. Tokens are ASCII lower case (after any-ascii).

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40, // a common misspelling, written as often as the right one in names
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/** "1st", "2nd", "3rd", "44th" → the digits. */
const ORDINAL_DIGITS = /^([0-9]+)(st|nd|rd|th)$/;

/** Number words and ordinals as digits; "forty four" (from "Forty-Four") becomes one token "44". */
export function numbersAsDigits(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const ordinal = ORDINAL_DIGITS.exec(t);
    if (ordinal) {
      out.push(ordinal[1]);
    } else if (t in TENS) {
      const next = tokens[i + 1];
      const unit = next !== undefined ? (UNITS[next] ?? (/^[1-9]$/.test(next) ? Number(next) : undefined)) : undefined;
      if (unit !== undefined && unit >= 1 && unit <= 9) {
        out.push(String(TENS[t] + unit));
        i++;
      } else {
        out.push(String(TENS[t]));
      }
    } else if (t in UNITS) {
      out.push(String(UNITS[t]));
    } else {
      out.push(t);
    }
  }
  return out;
}

/** Abbreviations of organisation words, written out. */
const ABBREVIATIONS: Record<string, string> = {
  intl: 'international',
  natl: 'national',
  dept: 'department',
  univ: 'university',
  assn: 'association',
  assoc: 'association',
  bros: 'brothers',
  mfg: 'manufacturing',
  mgmt: 'management',
  svcs: 'services',
  tech: 'technology',
  ind: 'industries',
  inds: 'industries',
};

export const expandAbbreviations = (tokens: string[]): string[] => tokens.map((t) => ABBREVIATIONS[t] ?? t);
