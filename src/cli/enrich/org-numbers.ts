// Turns a cell into the org number the API expects, or null when it cannot be one. Checked here
// (check digits included) because one bad number makes the server reject the whole batch of 100.
import { canonicalOrgNumber, isValidOrgNumber, type Country } from '../../domain/org-number.ts';

export function normaliseOrgNumber(country: Country, cell: string | undefined): string | null {
  if (cell === undefined) return null;
  let s = cell.trim();
  // Norwegian VAT spelling "NO 923 609 016 MVA" and dotted "923.609.016" are common in sheets.
  if (country === 'NO')
    s = s
      .replace(/^NO\s*/i, '')
      .replace(/\s*MVA$/i, '')
      .replace(/\./g, '');
  s = canonicalOrgNumber(country, s);
  return isValidOrgNumber(country, s) ? s : null;
}
