// The JSON-stat adapter and the per-bureau mapping, on the fixtures of the four bureaus.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUREAUS,
  extractFigures,
  JsonStatError,
  naceDivision,
  planQuery,
  readJsonStat,
  readPxMetadata,
  STAT_COUNTRIES,
  type TableDef,
} from '../../../src/sources/statistics/index.ts';
import { readFixture, readMetaFixture } from '../../fakes/statistics.ts';
import { SAMPLE_INDUSTRIES, SAMPLE_PLACES } from '../../fixtures/statistics/expected.ts';

const dataset = (over: Record<string, unknown> = {}) => ({
  version: '2.0',
  class: 'dataset',
  id: ['Region', 'Tid'],
  size: [2, 2],
  dimension: {
    Region: { category: { index: { '0301': 0, '4601': 1 }, label: { '0301': 'Oslo', '4601': 'Bergen' } } },
    Tid: { category: { index: ['2024', '2025'] } },
  },
  value: [1, 2, 3, 4],
  ...over,
});

describe('readJsonStat', () => {
  it('reads a JSON-stat 2.0 dataset in storage order, the last dimension fastest', () => {
    const t = readJsonStat(dataset());
    expect(t.ids).toEqual(['Region', 'Tid']);
    expect(t.categories).toEqual({ Region: ['0301', '4601'], Tid: ['2024', '2025'] });
    expect(t.labels.Region).toEqual({ '0301': 'Oslo', '4601': 'Bergen' });
    expect([...t.cells()]).toEqual([
      { codes: { Region: '0301', Tid: '2024' }, value: 1 },
      { codes: { Region: '0301', Tid: '2025' }, value: 2 },
      { codes: { Region: '4601', Tid: '2024' }, value: 3 },
      { codes: { Region: '4601', Tid: '2025' }, value: 4 },
    ]);
  });

  it('reads sparse values (an object of positions) and null cells', () => {
    const t = readJsonStat(dataset({ value: { '1': 7, '3': null } }));
    expect([...t.cells()].map((c) => c.value)).toEqual([null, 7, null, null]);
  });

  it('reads Statistics Denmark’s JSON-stat 1.x bundle', () => {
    const t = readJsonStat(readFixture('DK', BUREAUS.DK.tables[0]));
    expect(t.ids).toEqual(['OMRÅDE', 'KØN', 'ALDER', 'CIVILSTAND', 'ContentsCode', 'Tid']);
    expect(t.source).toBe('Danmarks Statistik');
    expect(t.categories['OMRÅDE']).toEqual(['000', '084', '101', '751', '461']);
    // StatBank answers the latest period alone when the query leaves `Tid` out: one per area.
    expect([...t.cells()]).toHaveLength(5);
  });

  it.each([
    ['not an object', []],
    ['a collection', { class: 'collection', link: {} }],
    ['no dataset', { foo: 1 }],
    ['size not matching id', dataset({ size: [2] })],
    ['categories not matching size', dataset({ size: [3, 2] })],
    ['values not matching the cells', dataset({ value: [1, 2, 3] })],
    ['a text value', dataset({ value: [1, 'x', 3, 4] })],
    ['a value index out of range', dataset({ value: { '9': 1 } })],
    [
      'a dimension without category',
      dataset({ dimension: { Region: {}, Tid: { category: { index: ['2024', '2025'] } } } }),
    ],
    ['no value', dataset({ value: undefined })],
  ])('refuses %s', (_name, doc) => {
    expect(() => readJsonStat(doc)).toThrow(JsonStatError);
  });

  it('reads every well-formed dataset it is given, cell for cell', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }), (sizes) => {
        const ids = sizes.map((_, i) => `d${i}`);
        const total = sizes.reduce((a, b) => a * b, 1);
        const dimension = Object.fromEntries(
          ids.map((id, i) => [id, { category: { index: Array.from({ length: sizes[i] }, (_, k) => `${id}c${k}`) } }]),
        );
        const value = Array.from({ length: total }, (_, k) => k);
        const cells = [...readJsonStat({ class: 'dataset', id: ids, size: sizes, dimension, value }).cells()];
        expect(cells.map((c) => c.value)).toEqual(value);
        // The last cell holds the last category of every dimension.
        expect(cells.at(-1)!.codes).toEqual(Object.fromEntries(ids.map((id, i) => [id, `${id}c${sizes[i] - 1}`])));
      }),
      { numRuns: 50 },
    );
  });
});

describe('naceDivision', () => {
  it.each([
    ['47', '47'],
    ['47000', '47'],
    ['01', '01'],
    ['47.1', null],
    ['G', null],
    ['00-99', null],
    ['10-33', null], // SSB wage group (11419)
    ['56.1_56.3', null],
    ['TOT', null],
  ])('%s -> %s', (code, division) => expect(naceDivision(code)).toBe(division));
});

/** A definition as the sync runs it: with `wanted`, its key and time dimensions from the table's metadata. */
function planned(country: (typeof STAT_COUNTRIES)[number], def: TableDef): TableDef {
  if (!def.wanted) return def;
  const key = def.scope === 'municipality' ? 'area' : 'industry';
  const plan = planQuery(readPxMetadata(readMetaFixture(country, def)), def.wanted, BUREAUS[country].roles, key);
  if (!plan.ok) throw new Error(plan.problems.join('; '));
  return { ...def, keyDim: plan.keyDim, timeDim: plan.timeDim };
}

type PxQuery = { query: { code: string; selection: { filter: string; values: string[] } }[] };

/** The codes a table's request selects, per dimension; null: all of them, or the latest period. */
function selectionsOf(def: TableDef): Record<string, string[] | null> {
  if (def.query) {
    const q = (def.query as PxQuery).query;
    return Object.fromEntries(q.map((v) => [v.code, v.selection.filter === 'item' ? v.selection.values : null]));
  }
  // StatBank: `data/{table}/JSONSTAT?lang=en&VAR=code&…`; `Tid` left out is the latest period.
  const params = [...new URL(def.path, 'http://statbank/').searchParams].filter(([k]) => k !== 'lang');
  return { ...Object.fromEntries(params.map(([k, v]) => [k, v === '*' ? null : [v]])), [def.timeDim]: null };
}

describe.each(STAT_COUNTRIES)('%s recorded tables map field for field', (country) => {
  const bureau = BUREAUS[country];
  const figures = bureau.tables.flatMap(
    (def) => extractFigures(bureau, planned(country, def), readFixture(country, def)).figures,
  );

  it('gives each sample municipality its latest value, year, table and unit', () => {
    for (const [code, measures] of Object.entries(SAMPLE_PLACES[country]))
      for (const [measure, [value, year]] of Object.entries(measures)) {
        const def = bureau.tables.find((t) => t.scope === 'municipality' && t.measure === measure)!;
        expect(figures.filter((f) => f.scope === 'municipality' && f.key === code && f.measure === measure)).toEqual([
          { scope: 'municipality', measure, key: code, value, year, table: def.table, unit: def.unit },
        ]);
      }
  });

  it('gives each sample NACE division its latest value, year, table and unit', () => {
    for (const [division, measures] of Object.entries(SAMPLE_INDUSTRIES[country]))
      for (const [measure, [value, year]] of Object.entries(measures)) {
        const def = bureau.tables.find((t) => t.scope === 'industry' && t.measure === measure)!;
        expect(figures.filter((f) => f.scope === 'industry' && f.key === division && f.measure === measure)).toEqual([
          { scope: 'industry', measure, key: division, value, year, table: def.table, unit: def.unit },
        ]);
      }
  });

  it('keeps municipalities and divisions only (no country, county, section or group totals)', () => {
    const places = new Set(figures.filter((f) => f.scope === 'municipality').map((f) => f.key));
    expect([...places].sort()).toEqual(Object.keys(SAMPLE_PLACES[country]).sort());
    for (const f of figures.filter((x) => x.scope === 'industry')) expect(f.key).toMatch(/^\d{2}$/);
  });

  it('holds, in each fixture, exactly the dimensions and codes its query selects', () => {
    // A definition that reads its metadata first builds its query at run time (metadata.test.ts).
    for (const def of bureau.tables.filter((t) => !t.wanted)) {
      const t = readJsonStat(readFixture(country, def));
      const selected = selectionsOf(def);
      // Left out of a query: eliminated (absent from the answer), or a table's only content.
      for (const id of t.ids) if (id !== 'ContentsCode') expect(selected, `${def.table} ${id}`).toHaveProperty(id);
      for (const [id, codes] of Object.entries(selected)) {
        expect(t.ids, `${def.table} ${id}`).toContain(id);
        if (codes) expect(t.categories[id], `${def.table} ${id}`).toEqual(codes);
      }
    }
  });

  it('publishes startup survival only where the bureau does (NO, DK)', () => {
    const has = bureau.tables.some((t) => t.measure === 'startupSurvivalRate');
    expect(has).toBe(country === 'NO' || country === 'DK');
  });
});

describe('extractFigures refuses answers it cannot place', () => {
  const bureau = BUREAUS.NO;
  const def = bureau.tables[0];

  it('a table without the key or time dimension', () => {
    expect(() =>
      extractFigures(
        bureau,
        def,
        dataset({
          id: ['Fylke', 'Tid'],
          dimension: { Fylke: dataset().dimension.Region, Tid: dataset().dimension.Tid },
        }),
      ),
    ).toThrow(/Region is missing/);
  });

  it('a table with more than one category in another dimension', () => {
    const doc = dataset({
      id: ['Region', 'Kjonn', 'Tid'],
      size: [2, 2, 2],
      dimension: { ...dataset().dimension, Kjonn: { category: { index: ['1', '2'] } } },
      value: [1, 2, 3, 4, 5, 6, 7, 8],
    });
    expect(() => extractFigures(bureau, def, doc)).toThrow(/Kjonn has 2 categories/);
  });

  it('a table with no municipality figure at all', () => {
    const doc = dataset({
      dimension: { ...dataset().dimension, Region: { category: { index: ['0', '03'] } } },
    });
    expect(() => extractFigures(bureau, def, doc)).toThrow(/no municipality figures/);
  });
});
