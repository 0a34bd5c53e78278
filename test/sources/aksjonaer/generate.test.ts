import { describe, expect, it } from 'vitest';
import { generateShareholderCsv } from '../../../src/sources/aksjonaer/generate.ts';
import { parseShareholderCsv } from '../../../src/sources/aksjonaer/parse.ts';
import { collect } from '../stream-helpers.ts';

const COMPANIES = [
  { orgNumber: '923609016', name: 'Equinor ASA' },
  { orgNumber: '979938799', name: 'NEL ASA' },
  { orgNumber: '914778271', name: 'Fjellbakeriet Ødegård AS' },
  { orgNumber: '998367891', name: 'Care of Sweden AS' },
];

async function text(seed: number, withCountryColumn = true) {
  const chunks = await collect<Buffer>(generateShareholderCsv({ companies: COMPANIES, seed, withCountryColumn }));
  return Buffer.concat(chunks).toString('utf8');
}

describe('generateShareholderCsv', () => {
  it('is deterministic per seed and differs between seeds', async () => {
    expect(await text(7)).toBe(await text(7));
    expect(await text(7)).not.toBe(await text(8));
  });

  it('writes the real layout (BOM, header) that the parser accepts, in both header variants', async () => {
    const withCountry = await text(1);
    expect(
      withCountry.startsWith('\uFEFFOrgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;'),
    ).toBe(true);
    for (const variant of [true, false]) {
      const rows = await collect(
        parseShareholderCsv(generateShareholderCsv({ companies: COMPANIES, seed: 3, withCountryColumn: variant })),
      );
      expect(rows.length).toBeGreaterThanOrEqual(COMPANIES.length);
      expect(new Set(rows.map((r) => r.orgNumber))).toEqual(new Set(COMPANIES.map((c) => c.orgNumber)));
      expect(rows.every((r) => (variant ? r.countryCode !== null : r.countryCode === null))).toBe(true);
    }
  });

  it('lets holdings of each share class add up to the company total', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rows = await collect(parseShareholderCsv(generateShareholderCsv({ companies: COMPANIES, seed })));
      const sums = new Map<string, { sum: number; total: number | null }>();
      for (const r of rows) {
        const key = `${r.orgNumber}/${r.shareClass}`;
        const s = sums.get(key) ?? { sum: 0, total: r.totalSharesInCompany };
        s.sum += r.shareCount;
        sums.set(key, s);
      }
      for (const { sum, total } of sums.values()) expect(sum).toBe(total);
    }
  });

  it('produces all holder kinds, company holders drawn from the list but never the investee itself', async () => {
    const rows = await collect(
      parseShareholderCsv(generateShareholderCsv({ companies: COMPANIES, seed: 11, maxHoldersPerClass: 12 })),
    );
    expect(new Set(rows.map((r) => r.holderType))).toEqual(new Set(['company', 'person', 'foreign']));
    const known = new Set(COMPANIES.map((c) => c.orgNumber));
    for (const r of rows.filter((x) => x.holderType === 'company')) {
      expect(known.has(r.holderOrgNumber!)).toBe(true);
      expect(r.holderOrgNumber).not.toBe(r.orgNumber);
    }
  });
});
