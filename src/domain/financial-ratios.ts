// Ratios computed at read time from the stored key figures (marked `computed` in _sources).
// All percentages, rounded to two decimals; null when an input is missing or a divisor is 0.

interface KeyFigures {
  periodTo: string;
  accountsType: string;
  revenue: number | null;
  operatingProfit: number | null;
  netResult: number | null;
  equity: number | null;
  totalAssets: number | null;
}

interface Ratios {
  /** netResult / revenue */
  profitMargin: number | null;
  /** operatingProfit / revenue */
  operatingMargin: number | null;
  /** netResult / equity (only when equity is positive) */
  returnOnEquity: number | null;
  /** equity / totalAssets */
  equityRatio: number | null;
  /** revenue change against the previous year of the same accounts type */
  revenueGrowthYoY: number | null;
}

const pct = (a: number | null, b: number | null): number | null =>
  a === null || b === null || b === 0 ? null : Math.round((a / b) * 10000) / 100;

/** Ratios for each year; `years` may come in any order. */
export function computeRatios<T extends KeyFigures>(years: T[]): (T & Ratios)[] {
  const previous = (f: T): T | undefined => {
    const year = Number(f.periodTo.slice(0, 4));
    return years.find((o) => o.accountsType === f.accountsType && Number(o.periodTo.slice(0, 4)) === year - 1);
  };
  return years.map((f) => {
    const prev = previous(f);
    return {
      ...f,
      profitMargin: pct(f.netResult, f.revenue),
      operatingMargin: pct(f.operatingProfit, f.revenue),
      returnOnEquity: f.equity !== null && f.equity > 0 ? pct(f.netResult, f.equity) : null,
      equityRatio: pct(f.equity, f.totalAssets),
      revenueGrowthYoY:
        prev && prev.revenue !== null && prev.revenue !== 0 && f.revenue !== null
          ? Math.round(((f.revenue - prev.revenue) / Math.abs(prev.revenue)) * 10000) / 100
          : null,
    };
  });
}
