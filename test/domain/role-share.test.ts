// A partner's share in percent (domain/role-share.ts): the forms the registry writes, the bounds
// outside which a text is no share, and the half-up rounding of fractions. The database writes
// the same numbers for the change feed; test/e2e/updates-json.test.ts holds the two together.
import { describe, expect, it } from 'vitest';
import { sharePercent } from '../../src/domain/role-share.ts';

describe('sharePercent', () => {
  it('reads percentages with a point or a comma, and spaces around', () => {
    expect(sharePercent('50%')).toBe(50);
    expect(sharePercent(' 12,5 %')).toBe(12.5);
    expect(sharePercent('\u00a050 %')).toBe(50);
    expect(sharePercent('007.50%')).toBe(7.5);
    expect(sharePercent('0,000001%')).toBe(0.000001);
  });

  it('rounds fractions half up to two decimals', () => {
    expect(sharePercent('1/3')).toBe(33.33);
    expect(sharePercent('\t2/3\n')).toBe(66.67);
    expect(sharePercent('1/200')).toBe(0.5);
    expect(sharePercent('1/20000')).toBe(0.01);
    expect(sharePercent('1/2000000')).toBe(0);
    expect(sharePercent('999999999/1')).toBe(99999999900);
  });

  it('is null for anything else, and beyond 9 digits or 6 decimals', () => {
    for (const text of [null, '', 'x', '½', '50%%', '2/0', '1234567890%', '12.1234567%', '1/1234567890', '-5%'])
      expect(sharePercent(text)).toBeNull();
  });
});
