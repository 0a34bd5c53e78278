// The size class and the signals' rules on hand-computed inputs, at their boundaries.
import { describe, expect, it } from 'vitest';
import { companySignals, HEALTH_WEIGHTS, type SignalInputs } from '../../src/domain/company-signals.ts';
import { revenueInEur, sizeClass } from '../../src/domain/size-class.ts';
import { websiteUrl } from '../../src/domain/website-url.ts';

const NOW = new Date('2026-06-30T00:00:00Z');
const year = (
  y: number,
  revenue: number | null,
  netResult: number | null,
  equity: number | null,
  assets: number | null,
) => ({
  periodTo: `${y}-12-31`,
  accountsType: 'SELSKAP',
  revenue,
  netResult,
  equity,
  totalAssets: assets,
});
const base: SignalInputs = {
  financials: [],
  isBankrupt: false,
  isDissolving: false,
  isInDebtNegotiation: false,
  largestOwner: null,
  foreignShare: null,
  now: NOW,
};

describe('size class (2003/361/EC on staff and turnover)', () => {
  it('takes the larger class of the two figures, one alone when the other is unknown, null for neither', () => {
    expect(sizeClass(9, 1_000_000)).toBe('small');
    expect(sizeClass(49, 10_000_000)).toBe('small');
    expect(sizeClass(50, 1_000_000)).toBe('medium');
    expect(sizeClass(10, 10_000_001)).toBe('medium');
    expect(sizeClass(249, 50_000_000)).toBe('medium');
    expect(sizeClass(250, null)).toBe('large');
    expect(sizeClass(null, 60_000_000)).toBe('large');
    expect(sizeClass(null, null)).toBeNull();
  });

  it('converts at the fixed rate and knows no rate for an unknown currency', () => {
    expect(revenueInEur(11_629_000, 'NOK')).toBeCloseTo(1_000_000, 6);
    expect(revenueInEur(1, 'XYZ')).toBeNull();
  });
});

describe('signals', () => {
  it('sums the written weights to 100 and scores a company with every input at the top', () => {
    expect(Object.values(HEALTH_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
    const s = companySignals({ ...base, financials: [year(2025, 130, 20, 50, 100), year(2024, 100, 5, 40, 90)] });
    // equity 50 % -> 30, margin 15 % -> 25, growth 30 % -> 20, positive equity 15, 6 months old -> 10
    expect(s.financialHealthScore).toBe(100);
    expect(s.revenueCagr).toBe(0.3);
  });

  it('scores half for a missing input, zero for negative equity and an old filing, and caps in distress', () => {
    // one year: equity ratio -10 % -> 0, margin 0 % -> 12.5, trend missing -> 10, negative equity
    // -> 0, period ended 30 months ago -> 0: 22.5 -> 23
    const old = companySignals({ ...base, financials: [year(2023, 100, 0, -10, 100)] });
    expect(old.financialHealthScore).toBe(23);
    expect(old.revenueCagr).toBeNull();
    const healthy = [year(2025, 130, 20, 50, 100), year(2024, 100, 5, 40, 90)];
    expect(companySignals({ ...base, financials: healthy, isBankrupt: true }).financialHealthScore).toBe(10);
    expect(companySignals({ ...base, financials: healthy, isDissolving: true }).financialHealthScore).toBe(20);
    expect(companySignals({ ...base, financials: healthy, isInDebtNegotiation: true }).financialHealthScore).toBe(30);
  });

  it('is null, not 0, without inputs, and explains only the non-null signals', () => {
    const s = companySignals({ ...base, isInDebtNegotiation: null });
    expect(s).toEqual({
      financialHealthScore: null,
      revenueCagr: null,
      ownershipConcentrationPct: null,
      isForeignOwned: null,
      isInDebtNegotiation: null,
      explanation: {},
    });
  });

  it('takes the CAGR over at most the last five filed years, and 50 % foreign is not foreign-owned', () => {
    const years = [2025, 2024, 2023, 2022, 2021, 2020].map((y, i) =>
      year(y, i === 5 ? 1 : 2 ** (4 - Math.min(i, 4)) * 100, 1, 1, 2),
    );
    // 2021 revenue 100 -> 2025 revenue 1600 over 4 years: 16^(1/4) - 1 = 1
    expect(companySignals({ ...base, financials: years }).revenueCagr).toBe(1);
    const half = companySignals({
      ...base,
      foreignShare: { pct: 50, year: 2025 },
      largestOwner: { pct: 50, year: 2025 },
    });
    expect(half.isForeignOwned).toBe(false);
    expect(half.ownershipConcentrationPct).toBe(50);
    expect(half.explanation.isForeignOwned).toMatchObject({ inputs: { foreignOwnedPct: 50 }, year: 2025 });
  });

  it('serves the homepage as a URL', () => {
    expect(websiteUrl('www.brreg.no')).toBe('https://www.brreg.no');
    expect(websiteUrl('http://example.no')).toBe('http://example.no');
    expect(websiteUrl('  ')).toBeNull();
    expect(websiteUrl(null)).toBeNull();
  });
});
