// The XBRL key-figure parser over a Danish annual report (test/fixtures/cvr/aarsrapport.xml).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseXbrlKeyFigures, toFinancialInput, XbrlError } from '../../../src/sources/cvr/xbrl.ts';

const xml = readFileSync(new URL('../../fixtures/cvr/aarsrapport.xml', import.meta.url), 'utf8');

describe('XBRL key figures', () => {
  it('reads the current year, field for field, ignoring the comparative year and dimensional facts', () => {
    expect(parseXbrlKeyFigures(xml)).toEqual({
      periodFrom: '2023-01-01',
      periodTo: '2023-12-31',
      currency: 'DKK',
      revenue: 84512000,
      revenueKind: 'revenue',
      operatingProfit: 5118000,
      netResult: 3764000,
      equity: 21450000,
      totalAssets: 52300000,
      totalLiabilities: 29870000,
      employees: 55,
    });
  });

  it('falls back to gross profit when a small company reports no revenue', () => {
    const k = parseXbrlKeyFigures(xml.replace(/<fsa:Revenue [^>]*>\d+<\/fsa:Revenue>/g, ''));
    expect(k).toMatchObject({ revenue: 31207000, revenueKind: 'grossProfit' });
    expect(toFinancialInput(k, 'pub-1', 'CVR')).toMatchObject({
      upstreamId: 'pub-1',
      accountsType: 'SELSKAP',
      periodTo: '2023-12-31',
      revenue: 31207000,
    });
  });

  it('refuses a malformed document and one without a reporting period, with a clear message', () => {
    expect(() => parseXbrlKeyFigures(xml.slice(0, 3000))).toThrow(XbrlError);
    expect(() => parseXbrlKeyFigures(xml.slice(0, 3000))).toThrow(/not well-formed XML/);
    expect(() =>
      parseXbrlKeyFigures(xml.replace(/<gsd:ReportingPeriodEndDate[^]*?<\/gsd:ReportingPeriodEndDate>/, '')),
    ).toThrow(/no gsd:ReportingPeriodEndDate/);
  });
});
