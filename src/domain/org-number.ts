// Organisation-number formats and check digits of the Nordic registries.
//   NO: 9 digits, mod-11 check digit with weights 3 2 7 6 5 4 3 2 (brreg)
//   FI: business ID "NNNNNNN-N", mod-11 check digit with weights 7 9 10 5 8 4 2 (PRH)
//   SE: 10 digits, Luhn check digit over all ten (Bolagsverket / Skatteverket)
//   DK: 8-digit CVR number, mod-11 with weights 2 7 6 5 4 3 2 1 over all eight (Erhvervsstyrelsen)

export type Country = 'NO' | 'FI' | 'SE' | 'DK';
export const COUNTRIES: readonly Country[] = ['NO', 'FI', 'SE', 'DK'];

export function isValidNorwegianOrgNumber(s: string): boolean {
  if (!/^[0-9]{9}$/.test(s)) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(s[i]), 0);
  const rest = sum % 11;
  const check = rest === 0 ? 0 : 11 - rest;
  return check !== 10 && check === Number(s[8]);
}

export function isValidFinnishBusinessId(s: string): boolean {
  if (!/^[0-9]{7}-[0-9]$/.test(s)) return false;
  const weights = [7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(s[i]), 0);
  const rest = sum % 11;
  if (rest === 1) return false;
  const check = rest === 0 ? 0 : 11 - rest;
  return check === Number(s[8]);
}

export function isValidSwedishOrgNumber(s: string): boolean {
  if (!/^[0-9]{10}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    let d = Number(s[i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** CVR numbers: the weighted sum of all eight digits is divisible by 11 (no leading zero). */
export function isValidDanishCvrNumber(s: string): boolean {
  if (!/^[1-9][0-9]{7}$/.test(s)) return false;
  const weights = [2, 7, 6, 5, 4, 3, 2, 1];
  return weights.reduce((acc, w, i) => acc + w * Number(s[i]), 0) % 11 === 0;
}

/** Accepts "123 456 789"/"5560000001"/"556000-0001" spellings and returns the canonical form. */
export function canonicalOrgNumber(country: Country, s: string): string {
  const t = s.trim();
  if (country === 'FI') return t.replace(/\s+/g, '');
  return t.replace(/[\s-]+/g, '');
}

export function isValidOrgNumber(country: Country, s: string): boolean {
  switch (country) {
    case 'NO':
      return isValidNorwegianOrgNumber(s);
    case 'FI':
      return isValidFinnishBusinessId(s);
    case 'SE':
      return isValidSwedishOrgNumber(s);
    case 'DK':
      return isValidDanishCvrNumber(s);
  }
}

/** The format each country's numbers take, for error messages. */
export const ORG_NUMBER_FORMAT: Record<Country, string> = {
  NO: '9 digits with a valid check digit',
  FI: 'a business ID NNNNNNN-N with a valid check digit',
  SE: '10 digits with a valid Luhn check digit',
  DK: 'a CVR number of 8 digits with a valid mod-11 check',
};
