import { describe, expect, it } from 'vitest';
import { inspectionOfficeForCounty, inspectionOfficeForMunicipality } from '../../src/domain/mattilsynet-offices.ts';

describe('inspectionOfficeForCounty', () => {
  it('maps every 2024 county to one of the five regions', () => {
    const expected: Record<string, string> = {
      '03': 'Region Stor-Oslo',
      '31': 'Region Stor-Oslo',
      '32': 'Region Stor-Oslo',
      '33': 'Region Øst',
      '34': 'Region Øst',
      '39': 'Region Øst',
      '40': 'Region Øst',
      '11': 'Region Sør og Vest',
      '42': 'Region Sør og Vest',
      '46': 'Region Sør og Vest',
      '15': 'Region Midt',
      '50': 'Region Midt',
      '18': 'Region Nord',
      '55': 'Region Nord',
      '56': 'Region Nord',
    };
    for (const [county, office] of Object.entries(expected)) expect(inspectionOfficeForCounty(county)).toBe(office);
  });

  it('returns null for unknown, ambiguous (30 Viken) or odd input', () => {
    for (const code of ['30', '99', '', '3', 'constructor', '__proto__'])
      expect(inspectionOfficeForCounty(code)).toBeNull();
    expect(inspectionOfficeForCounty('54')).toBe('Region Nord');
  });

  it('derives the county from a municipality number', () => {
    expect(inspectionOfficeForMunicipality('0301')).toBe('Region Stor-Oslo');
    expect(inspectionOfficeForMunicipality('5001')).toBe('Region Midt');
    expect(inspectionOfficeForMunicipality('301')).toBeNull();
    expect(inspectionOfficeForMunicipality('3001')).toBeNull();
  });
});
