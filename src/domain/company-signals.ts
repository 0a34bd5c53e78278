// Signals derived from stored facts, each by a fixed rule written here and in the OpenAPI
// description, each null when its inputs are missing, and each explained ({rule, inputs, year})
// so that a user can see why a score is what it is.

export interface SignalYear {
  periodTo: string;
  accountsType: string;
  revenue: number | null;
  netResult: number | null;
  equity: number | null;
  totalAssets: number | null;
}

export interface SignalInputs {
  financials: SignalYear[];
  isBankrupt: boolean;
  /** Voluntary liquidation or forced dissolution. */
  isDissolving: boolean;
  /** Reconstruction or debt negotiation; null when the registry does not say. */
  isInDebtNegotiation: boolean | null;
  /**
   * The largest owner's share (%) in the latest register year, with that year; for a register
   * of bands (CVR) the band's lower bound, its upper bound beside it and no year (CVR is current).
   */
  largestOwner: { pct: number; year: number | null; bandHighPct?: number } | null;
  /** The share (%) held by owners registered outside the company's country, with its year. */
  foreignShare: { pct: number; year: number } | null;
  now: Date;
}

type InputValue = number | boolean | string | null;
export interface Explanation {
  rule: string;
  inputs: Record<string, InputValue>;
  year: number | null;
}

/** Points of the health score, 100 in all; a component whose input is missing scores half. */
export const HEALTH_WEIGHTS = {
  /** equity / total assets: 0 % or less -> 0, 40 % or more -> all, linear between */
  equityRatio: 30,
  /** net result / revenue: -10 % or less -> 0, +10 % or more -> all, linear between */
  profitMargin: 25,
  /** revenue change against the previous filed year: -20 % -> 0, +20 % -> all, linear */
  revenueTrend: 20,
  /** equity above zero -> all, zero or negative -> 0 */
  positiveEquity: 15,
  /** the latest filed period ended at most 18 months ago -> all, else 0 */
  recentFiling: 10,
} as const;

/** The highest score a company in these states can have. */
export const HEALTH_CAPS = { bankrupt: 10, dissolving: 20, debtNegotiation: 30 } as const;

export const HEALTH_RULE =
  'Sum of points from the latest two filed years: equity ratio 30 (0 % -> 0, 40 % -> 30), profit margin 25 ' +
  '(-10 % -> 0, +10 % -> 25), revenue trend 20 (-20 % -> 0, +20 % -> 20), positive equity 15, a filing at ' +
  'most 18 months old 10; a missing input scores half its points. Capped at 10 when bankrupt, 20 when in ' +
  'liquidation or forced dissolution, 30 in debt negotiation. Rounded to an integer.';

const CAGR_RULE =
  '(latest revenue / oldest revenue)^(1 / years between) - 1, over up to the last five filed years with revenue';
const CONCENTRATION_RULE = "The largest owner's share (%) in the latest register year, all share classes";
const CONCENTRATION_BAND_RULE =
  "The largest legal owner's share (%) as CVR registers it, a band taken at its lower bound (the owner register is current, no year)";
const FOREIGN_RULE = 'Owners registered outside the company’s country hold more than 50 %';
const DEBT_RULE = 'The registry shows reconstruction or debt negotiation';

const yearOf = (periodTo: string) => Number(periodTo.slice(0, 4));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
const linear = (v: number, lo: number, hi: number, points: number) =>
  points * Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);

/** Company accounts where filed, else the group's; newest first, one per year. */
export function filedYears<T extends SignalYear>(financials: T[]): T[] {
  const own = financials.filter((f) => f.accountsType === 'SELSKAP');
  const pool = own.length ? own : financials;
  const byYear = new Map<number, T>();
  for (const f of pool) if (!byYear.has(yearOf(f.periodTo))) byYear.set(yearOf(f.periodTo), f);
  return [...byYear.values()].sort((a, b) => yearOf(b.periodTo) - yearOf(a.periodTo));
}

function monthsBetween(periodTo: string, now: Date): number {
  const end = new Date(`${periodTo}T00:00:00Z`);
  return (now.getUTCFullYear() - end.getUTCFullYear()) * 12 + (now.getUTCMonth() - end.getUTCMonth());
}

function healthScore(years: SignalYear[], i: SignalInputs): { value: number; why: Explanation } | null {
  const [latest, previous] = years;
  if (!latest || [latest.revenue, latest.netResult, latest.equity, latest.totalAssets].every((v) => v === null))
    return null;
  const w = HEALTH_WEIGHTS;
  const equityRatio = ratio(latest.equity, latest.totalAssets);
  const margin = ratio(latest.netResult, latest.revenue);
  const prevRevenue = previous?.revenue ?? null;
  const trend =
    prevRevenue !== null && prevRevenue !== 0 && latest.revenue !== null
      ? (latest.revenue - prevRevenue) / Math.abs(prevRevenue)
      : null;
  const months = monthsBetween(latest.periodTo, i.now);
  const points =
    (equityRatio === null ? w.equityRatio / 2 : linear(equityRatio, 0, 0.4, w.equityRatio)) +
    (margin === null ? w.profitMargin / 2 : linear(margin, -0.1, 0.1, w.profitMargin)) +
    (trend === null ? w.revenueTrend / 2 : linear(trend, -0.2, 0.2, w.revenueTrend)) +
    (latest.equity === null ? w.positiveEquity / 2 : latest.equity > 0 ? w.positiveEquity : 0) +
    (months <= 18 ? w.recentFiling : 0);
  const cap = i.isBankrupt
    ? HEALTH_CAPS.bankrupt
    : i.isDissolving
      ? HEALTH_CAPS.dissolving
      : i.isInDebtNegotiation
        ? HEALTH_CAPS.debtNegotiation
        : 100;
  return {
    value: Math.min(cap, Math.round(points)),
    why: {
      rule: HEALTH_RULE,
      inputs: {
        equityRatio: equityRatio === null ? null : round(equityRatio, 4),
        profitMargin: margin === null ? null : round(margin, 4),
        revenueTrend: trend === null ? null : round(trend, 4),
        equity: latest.equity,
        latestPeriodTo: latest.periodTo,
        monthsSinceLatestPeriod: months,
        isBankrupt: i.isBankrupt,
        isDissolving: i.isDissolving,
        isInDebtNegotiation: i.isInDebtNegotiation,
        cap: cap === 100 ? null : cap,
      },
      year: yearOf(latest.periodTo),
    },
  };
}

function revenueCagr(years: SignalYear[]): { value: number; why: Explanation } | null {
  const withRevenue = years.filter((y) => y.revenue !== null).slice(0, 5);
  if (withRevenue.length < 2) return null;
  const latest = withRevenue[0];
  const oldest = withRevenue[withRevenue.length - 1];
  const span = yearOf(latest.periodTo) - yearOf(oldest.periodTo);
  if (span <= 0 || oldest.revenue! <= 0 || latest.revenue! < 0) return null;
  const value = round((latest.revenue! / oldest.revenue!) ** (1 / span) - 1, 4);
  return {
    value,
    why: {
      rule: CAGR_RULE,
      inputs: {
        oldestYear: yearOf(oldest.periodTo),
        oldestRevenue: oldest.revenue,
        latestYear: yearOf(latest.periodTo),
        latestRevenue: latest.revenue,
      },
      year: yearOf(latest.periodTo),
    },
  };
}

export interface CompanySignals {
  financialHealthScore: number | null;
  revenueCagr: number | null;
  ownershipConcentrationPct: number | null;
  isForeignOwned: boolean | null;
  isInDebtNegotiation: boolean | null;
  explanation: Partial<Record<Exclude<keyof CompanySignals, 'explanation'>, Explanation>>;
}

export function companySignals(i: SignalInputs): CompanySignals {
  const years = filedYears(i.financials);
  const health = healthScore(years, i);
  const cagr = revenueCagr(years);
  const explanation: CompanySignals['explanation'] = {};
  if (health) explanation.financialHealthScore = health.why;
  if (cagr) explanation.revenueCagr = cagr.why;
  if (i.largestOwner)
    explanation.ownershipConcentrationPct = {
      rule: i.largestOwner.bandHighPct === undefined ? CONCENTRATION_RULE : CONCENTRATION_BAND_RULE,
      inputs:
        i.largestOwner.bandHighPct === undefined
          ? { largestOwnerPct: i.largestOwner.pct }
          : { largestOwnerPct: i.largestOwner.pct, bandHighPct: i.largestOwner.bandHighPct },
      year: i.largestOwner.year,
    };
  if (i.foreignShare)
    explanation.isForeignOwned = {
      rule: FOREIGN_RULE,
      inputs: { foreignOwnedPct: i.foreignShare.pct },
      year: i.foreignShare.year,
    };
  if (i.isInDebtNegotiation !== null)
    explanation.isInDebtNegotiation = {
      rule: DEBT_RULE,
      inputs: { isInDebtNegotiation: i.isInDebtNegotiation },
      year: null,
    };
  return {
    financialHealthScore: health?.value ?? null,
    revenueCagr: cagr?.value ?? null,
    ownershipConcentrationPct: i.largestOwner?.pct ?? null,
    isForeignOwned: i.foreignShare ? i.foreignShare.pct > 50 : null,
    isInDebtNegotiation: i.isInDebtNegotiation,
    explanation,
  };
}
