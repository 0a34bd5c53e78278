// PRH's XBRL statements (hand-written to the OYTP format, see test/fixtures/prh-xbrl/README.md):
// the key figures of three filings field for field (a profitable year, a loss-making one, one
// rounded to thousands), the comparative year ignored, and the reasons bad documents are refused.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePrhXbrl, PrhXbrlError } from '../../../src/sources/prh-xbrl/index.ts';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/prh-xbrl/${name}`, import.meta.url), 'utf8');

describe('PRH XBRL key figures', () => {
  it('maps a profitable year field for field and ignores the comparative (fi_dim:REF) year', () => {
    expect(parsePrhXbrl(fixture('3470101-6_2024-12-31.xml'))).toEqual({
      businessId: '3470101-6',
      periodFrom: '2024-01-01',
      periodTo: '2024-12-31',
      currency: 'EUR',
      revenue: 1250400,
      operatingProfit: 98750,
      netResult: 71200,
      equity: 412900,
      totalAssets: 860300,
      totalLiabilities: 447400,
    });
  });

  it('keeps a loss negative and a broken financial year as filed', () => {
    expect(parsePrhXbrl(fixture('3470102-4_2024-06-30.xml'))).toEqual({
      businessId: '3470102-4',
      periodFrom: '2023-07-01',
      periodTo: '2024-06-30',
      currency: 'EUR',
      revenue: 318250,
      operatingProfit: -142800,
      netResult: -151320,
      equity: -38900,
      totalAssets: 205640,
      totalLiabilities: 244540,
    });
  });

  it('a statement rounded to thousands (decimals -3) stays in euros', () => {
    expect(parsePrhXbrl(fixture('3470103-2_2024-12-31.xml'))).toMatchObject({
      revenue: 48312000,
      operatingProfit: 3920000,
      netResult: 2874000,
      equity: 22800000,
      totalAssets: 61450000,
      totalLiabilities: 38650000,
    });
  });

  it.each([
    ['bad-truncated.xml', /not well-formed XML/],
    ['bad-unknown-taxonomy.xml', /unknown taxonomy \(schemaRef http:\/\/www\.esma/],
    ['bad-figure.xml', /the revenue amount \(fi_MC:x673\) is not a number/],
  ])('refuses %s with its reason', (name, reason) => {
    expect(() => parsePrhXbrl(fixture(name))).toThrow(PrhXbrlError);
    expect(() => parsePrhXbrl(fixture(name))).toThrow(reason);
  });

  it('refuses a document that is no XBRL instance, and one without the period end', () => {
    expect(() => parsePrhXbrl('<html><body>Palvelu ei ole käytettävissä</body></html>')).toThrow(
      /not an XBRL instance/,
    );
    const noEnd = fixture('3470101-6_2024-12-31.xml').replace(/<fi_met:di121[^\n]*\n/, '');
    expect(() => parsePrhXbrl(noEnd)).toThrow(/no accounting period end/);
  });
});
