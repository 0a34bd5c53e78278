import { describe, expect, it } from 'vitest';
import { generateInspectionsCsv } from '../../../src/sources/mattilsynet/generate.ts';
import { parseInspectionsCsv, type InspectionParseStats } from '../../../src/sources/mattilsynet/parse.ts';
import { collect } from '../stream-helpers.ts';

const VENUES = [
  { orgNumber: '923609016', name: 'Kafé Ærlig AS' },
  { orgNumber: null, name: 'Pizzeria "Roma"; bar' },
  { orgNumber: '914778271', name: 'Bakeriet Ødegård' },
];

const text = async (seed: number) =>
  Buffer.concat(await collect<Buffer>(generateInspectionsCsv({ venues: VENUES, seed }))).toString('utf8');

describe('generateInspectionsCsv', () => {
  it('is deterministic per seed and differs between seeds', async () => {
    expect(await text(5)).toBe(await text(5));
    expect(await text(5)).not.toBe(await text(6));
  });

  it('writes rows the parser accepts, within the date range, with duplicates counted', async () => {
    const opts = {
      venues: VENUES,
      seed: 9,
      maxInspectionsPerVenue: 8,
      duplicateRate: 0.5,
      from: '2023-03-01',
      to: '2023-03-31',
    };
    const physicalRows =
      (await collect<Buffer>(generateInspectionsCsv(opts))).map(String).join('').trimEnd().split('\n').length - 1;
    const stats: InspectionParseStats = { records: 0, duplicatesDropped: 0 };
    const rows = await collect(parseInspectionsCsv(generateInspectionsCsv(opts), stats));
    expect(stats.records).toBe(rows.length);
    expect(stats.records + stats.duplicatesDropped).toBe(physicalRows);
    expect(stats.duplicatesDropped).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.name))).toEqual(new Set(VENUES.map((v) => v.name)));
    for (const r of rows) {
      expect(r.date >= '2023-03-01' && r.date <= '2023-03-31').toBe(true);
      const worst = Math.max(...r.themes.filter((t) => t.assessed).map((t) => t.grade!));
      expect(r.totalRating).toBe(Number.isFinite(worst) ? worst : 0);
    }
    expect(rows.filter((r) => r.name.startsWith('Pizzeria')).every((r) => r.orgNumber === null)).toBe(true);
  });

  it('rejects an inverted date range', () => {
    expect(() => generateInspectionsCsv({ venues: VENUES, seed: 1, from: '2024-01-02', to: '2024-01-01' })).toThrow(
      /date range/,
    );
  });
});
