// The SE, FI and DK municipality lists and the mapping of a stored address to them.
import { describe, expect, it } from 'vitest';
import { countyGroups, listedMunicipality, municipalityOfAddress } from '../../src/domain/municipalities/index.ts';

describe('municipality lists', () => {
  it.each([
    ['SE', 21, 290, 4],
    ['FI', 19, 309, 3],
    ['DK', 5, 98, 3],
  ] as const)(
    '%s: %i counties, %i municipalities of %i digits, unique and sorted',
    (country, counties, count, digits) => {
      const groups = countyGroups(country);
      expect(groups).toHaveLength(counties);
      const codes = groups.flatMap((g) => g.municipalities.map((m) => m.code));
      expect(codes).toHaveLength(count);
      expect(new Set(codes).size).toBe(count);
      for (const c of codes) expect(c).toMatch(new RegExp(`^\\d{${digits}}$`));
      expect(groups.map((g) => g.countyCode)).toEqual(groups.map((g) => g.countyCode).sort());
    },
  );

  it('puts each Swedish kommun in the län of its first two digits', () => {
    for (const g of countyGroups('SE')) for (const m of g.municipalities) expect(m.code.slice(0, 2)).toBe(g.countyCode);
  });

  it('looks a municipality up with its county', () => {
    expect(listedMunicipality('FI', '091')).toEqual({
      code: '091',
      name: 'Helsinki',
      countyCode: '01',
      countyName: 'Uusimaa',
    });
    expect(listedMunicipality('DK', '751')).toMatchObject({ name: 'Aarhus', countyName: 'Region Midtjylland' });
    expect(listedMunicipality('SE', '9999')).toBeNull();
  });
});

describe('municipalityOfAddress', () => {
  it('keeps a listed code', () => expect(municipalityOfAddress('FI', '091', 'HELSINKI')).toBe('091'));
  it('maps a Swedish post town to the kommun of that name, case-insensitively', () => {
    expect(municipalityOfAddress('SE', null, 'GÖTEBORG')).toBe('1480');
    expect(municipalityOfAddress('SE', null, 'upplands väsby')).toBe('0114');
    expect(municipalityOfAddress('SE', null, 'KISTA')).toBeNull();
  });
  it('reads a four-digit Danish kommunekode', () => expect(municipalityOfAddress('DK', '0101', null)).toBe('101'));
  it('answers null for an unknown code without a town', () =>
    expect(municipalityOfAddress('FI', '999', null)).toBeNull());
});
