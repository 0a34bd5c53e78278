// Country names as the UN list writes them ("Iran (Islamic Republic of)", "Viet Nam") to ISO-2.
// i18n-iso-countries knows most English names and aliases; the table below adds the UN's
// formal names it does not, and a parenthesised qualifier is dropped as a last resort.
import countries from 'i18n-iso-countries';
import { iso2 } from './common.ts';

const UN_FORMAL_NAMES: Record<string, string> = {
  'viet nam': 'vn',
  'united kingdom of great britain and northern ireland': 'gb',
  "democratic people's republic of korea": 'kp',
  'republic of moldova': 'md',
  syria: 'sy',
  'netherlands (kingdom of the)': 'nl',
  'micronesia (federated states of)': 'fm',
  'bolivia (plurinational state of)': 'bo',
  'iran (islamic republic of)': 'ir',
  'venezuela (bolivarian republic of)': 've',
};

/** ISO-2 lower case for an English country name or code, or null when unknown. */
export function countryToIso2(value: string): string | null {
  const name = value.replace(/\s+/g, ' ').replace(/[’`]/g, "'").trim();
  if (name === '') return null;
  if (/^[a-z]{2}$/i.test(name)) return iso2(name);
  const lower = name.toLowerCase();
  const code =
    UN_FORMAL_NAMES[lower] ??
    countries.getAlpha2Code(name, 'en') ??
    countries.getAlpha2Code(name.replace(/\s*\([^)]*\)/g, '').trim(), 'en');
  return code ? code.toLowerCase() : null;
}
