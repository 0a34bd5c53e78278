// A partner's share as the registry writes it ("50%", " 12,5 %", "1/3") as a number of percent.
// The typed record computes it here; the change feed and search lists have the database write it
// into their JSON text (store/record-json.ts) from the same patterns. Inside the digit bounds
// below, the number prints the same from JSON.stringify and from PostgreSQL's trimmed numeric
// (15 significant digits at most, never below 1e-6 but 0), so both paths write the same bytes.
// Outside them the text is no percentage a register holds, and the share is null.

/** The whitespace allowed around the parts, spelled the same for JavaScript and PostgreSQL regexes. */
const SPACE = '[ \\t\\n\\r\\u00a0]*';

/** `12,5 %`, `50%`: up to 9 whole digits, up to 6 decimals (comma or point). */
export const SHARE_PERCENT = `^${SPACE}([0-9]{1,9}(?:[.,][0-9]{1,6})?)${SPACE}%${SPACE}$`;
/** `1/3`: numerator and denominator of up to 9 digits each. */
export const SHARE_FRACTION = `^${SPACE}([0-9]{1,9})${SPACE}/${SPACE}([0-9]{1,9})${SPACE}$`;

const percent = new RegExp(SHARE_PERCENT);
const fraction = new RegExp(SHARE_FRACTION);

/** The share in percent: a fraction rounded to two decimals (half up); null when not a share. */
export function sharePercent(share: string | null): number | null {
  if (!share) return null;
  const pct = percent.exec(share);
  if (pct) return Number(pct[1].replace(',', '.'));
  const frac = fraction.exec(share);
  if (frac && Number(frac[2]) > 0) return Math.round((Number(frac[1]) / Number(frac[2])) * 10000) / 100;
  return null;
}
