// Company size in Orakel's three buckets, by the EU SME definition (Commission Recommendation
// 2003/361/EC, Annex art. 2): micro < 10 staff and turnover <= EUR 2 m, small < 50 and <= 10 m,
// medium < 250 and <= 50 m, otherwise large. Micro and small both answer `small`. Only staff
// and turnover are read (the recommendation's balance-sheet alternative is not applied), and
// when one of them is unknown the other decides alone.

export type SizeClass = 'small' | 'medium' | 'large';

/**
 * EUR per unit of each currency: fixed rates (ECB euro reference rates, 2024 annual average),
 * so a company's class does not move with the exchange rate from one day to the next.
 */
export const EUR_PER_UNIT: Record<string, number> = {
  EUR: 1,
  NOK: 1 / 11.629,
  SEK: 1 / 11.433,
  DKK: 1 / 7.4589,
};

const SMALL = { staff: 50, turnoverEur: 10_000_000 };
const MEDIUM = { staff: 250, turnoverEur: 50_000_000 };

/** Revenue in EUR at the fixed rate; null when the currency is not one we hold a rate for. */
export function revenueInEur(revenue: number | null, currency: string | null): number | null {
  if (revenue === null) return null;
  const rate = EUR_PER_UNIT[(currency ?? 'NOK').toUpperCase()];
  return rate === undefined ? null : revenue * rate;
}

function bucket(value: number, small: number, medium: number, inclusive: boolean): SizeClass {
  if (inclusive ? value <= small : value < small) return 'small';
  if (inclusive ? value <= medium : value < medium) return 'medium';
  return 'large';
}

const RANK: Record<SizeClass, number> = { small: 0, medium: 1, large: 2 };

/** The size class from staff headcount and turnover in EUR; null when neither is known. */
export function sizeClass(employees: number | null, turnoverEur: number | null): SizeClass | null {
  const byStaff = employees === null ? null : bucket(employees, SMALL.staff, MEDIUM.staff, false);
  const byTurnover = turnoverEur === null ? null : bucket(turnoverEur, SMALL.turnoverEur, MEDIUM.turnoverEur, true);
  if (byStaff === null) return byTurnover;
  if (byTurnover === null) return byStaff;
  // Both ceilings must hold for a class, so the larger of the two decides.
  return RANK[byStaff] >= RANK[byTurnover] ? byStaff : byTurnover;
}
