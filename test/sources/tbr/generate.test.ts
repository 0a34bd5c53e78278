import { describe, expect, it } from 'vitest';
import { generateLicensesCsv } from '../../../src/sources/tbr/generate.ts';
import { parseLicenses, type LicenseRecord } from '../../../src/sources/tbr/parse.ts';
import { collect } from '../stream-helpers.ts';

const COMPANIES = [
  { orgNumber: '923609016', name: 'Kafé Ærlig AS' },
  { orgNumber: '914778271', name: 'Fjord Tobakk AS' },
  { orgNumber: '979938799', name: 'Nordisk Vin AS' },
  { orgNumber: '998367891', name: 'Bryggeriet "Øl"; Bergen AS' },
];
const opts = { companies: COMPANIES, seed: 4, maxLicensesPerCompany: 6 };
const text = async (seed: number, format: 'csv' | 'ndjson' | 'json' = 'csv') =>
  Buffer.concat(await collect<Buffer>(generateLicensesCsv({ ...opts, seed }, format))).toString('utf8');
const strip = (rs: LicenseRecord[]) => rs.map(({ line: _line, ...rest }) => rest);

describe('generateLicensesCsv', () => {
  it('is deterministic per seed and differs between seeds', async () => {
    expect(await text(4)).toBe(await text(4));
    expect(await text(4)).not.toBe(await text(5));
  });

  it('writes the same valid records as CSV, NDJSON and a JSON array', async () => {
    const csv = strip(await collect(parseLicenses(generateLicensesCsv(opts), 'auto')));
    expect(csv.length).toBeGreaterThan(0);
    expect(strip(await collect(parseLicenses(generateLicensesCsv(opts, 'ndjson'), 'auto')))).toEqual(csv);
    expect(strip(await collect(parseLicenses(generateLicensesCsv(opts, 'json'), 'auto')))).toEqual(csv);
    expect(new Set(csv.map((r) => r.licenseNumber)).size).toBe(csv.length);
    for (const r of csv) {
      expect(r.validFrom! <= r.validTo!).toBe(true);
      expect(r.licenseTypeDescription).not.toBeNull();
      const alcohol = r.registerType === 'Alkoholsbevilling';
      expect(r.productGroups.every((g) => g.startsWith('GRP') === alcohol)).toBe(true);
    }
  });

  it('starts the CSV with a BOM and the documented header', async () => {
    expect((await text(1)).split('\n')[0]).toBe(
      '\uFEFFlicenseNumber;registerType;licenseTypeCode;licenseTypeDescription;orgNumber;holderName;venueName;venueOrgNumber;productGroups;address;postnr;poststed;municipality;municipalityNo;issuingAuthority;validFrom;validTo',
    );
  });
});
