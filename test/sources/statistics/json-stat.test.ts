// The JSON-stat adapter and the per-bureau mapping, on the fixtures of the four bureaus.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUREAUS,
  extractFigures,
  JsonStatError,
  naceDivision,
  planQuery,
  MAX_CELLS,
  readJsonStat,
  readPxMetadata,
  readTableinfo,
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

/** A definition as the sync runs it: its key, time, sum and cohort dimensions from the table's metadata. */
function planned(country: (typeof STAT_COUNTRIES)[number], def: TableDef) {
  const key = def.scope === 'municipality' ? 'area' : 'industry';
  const doc = readMetaFixture(country, def);
  const meta = BUREAUS[country].api === 'statbank' ? readTableinfo(doc) : readPxMetadata(doc);
  const plan = planQuery(meta, def.wanted, BUREAUS[country].roles, key);
  return {
    plan,
    def: plan.ok
      ? {
          ...def,
          keyDim: plan.keyDim,
          timeDim: plan.timeDim,
          sumDims: plan.sumDims,
          ...(plan.cohortDim ? { cohortDim: plan.cohortDim } : {}),
        }
      : def,
  };
}

describe.each(STAT_COUNTRIES)('%s recorded tables map field for field', (country) => {
  const bureau = BUREAUS[country];
  const usable = bureau.tables.filter((def) => planned(country, def).plan.ok);
  const figures = usable.flatMap(
    (def) => extractFigures(bureau, planned(country, def).def, readFixture(country, def)).figures,
  );

  it('gives each sample municipality its latest value, year, table and unit', () => {
    for (const [code, measures] of Object.entries(SAMPLE_PLACES[country]))
      for (const [measure, [value, year]] of Object.entries(measures)) {
        const def = bureau.tables.find((t) => t.scope === 'municipality' && t.measure === measure)!;
        expect(figures.filter((f) => f.scope === 'municipality' && f.key === code && f.measure === measure)).toEqual([
          {
            scope: 'municipality',
            measure,
            key: code,
            level: 'municipality',
            label: null,
            cohort: null,
            value,
            year,
            table: def.table,
            unit: def.unit,
          },
        ]);
      }
  });

  it('gives each sample NACE division its figure at the level the bureau publishes it', () => {
    for (const measures of Object.values(SAMPLE_INDUSTRIES[country]))
      for (const [measure, [value, year, level, key]] of Object.entries(measures)) {
        const def = bureau.tables.find((t) => t.scope === 'industry' && t.measure === measure)!;
        expect(figures.filter((f) => f.scope === 'industry' && f.key === key && f.measure === measure)).toEqual([
          expect.objectContaining({ level, value, year, table: def.table, unit: def.unit, label: expect.any(String) }),
        ]);
      }
  });

  it('keeps municipalities, divisions, sections and DST 10-groups only (no country, county, total or mixed group)', () => {
    const places = new Set(figures.filter((f) => f.scope === 'municipality').map((f) => f.key));
    expect([...places].sort()).toEqual(Object.keys(SAMPLE_PLACES[country]).sort());
    for (const f of figures.filter((x) => x.scope === 'industry'))
      expect(`${f.level} ${f.key}`).toMatch(/^(division \d{2}|section [A-U]|grouping DB07-10:([1-9]|10))$/);
  });

  it('asks only for value codes the fixture answers with', () => {
    for (const def of usable) {
      const { plan } = planned(country, def);
      const t = readJsonStat(readFixture(country, def));
      for (const s of plan.ok ? plan.selections : [])
        if (Array.isArray(s.values)) expect(t.categories[s.code], `${def.table} ${s.code}`).toEqual(s.values);
    }
  });

  it('names every measure it has no table for, with the reason', () => {
    const measures = {
      municipality: ['population', 'householdIncome', 'enterprises'],
      industry: ['averageMonthlyWage', 'enterprises', 'startupSurvivalRate'],
    };
    for (const [scope, list] of Object.entries(measures))
      for (const measure of list) {
        const tables = bureau.tables.filter((t) => t.scope === scope && t.measure === measure);
        const absent = bureau.absent.filter((a) => a.scope === scope && a.measure === measure);
        expect(tables.length + absent.length, `${country} ${scope} ${measure}`).toBe(1);
        for (const a of absent) expect(a.reason).toMatch(/statistics-tables\.md/);
      }
  });
});

describe('a crafted JSON-stat document', () => {
  it('claiming huge dimensions is refused before any cell is walked', () => {
    const doc = dataset({ size: [100_000, 100_000], value: { '0': 1 } });
    expect(() => readJsonStat(doc)).toThrow(
      `JSON-stat claims 10000000000 cells (sizes 100000 x 100000), more than ${MAX_CELLS}`,
    );
  });

  it('whose sizes do not multiply to its value count is refused', () => {
    expect(() => readJsonStat(dataset({ size: [2, 3] }))).toThrow(JsonStatError);
    expect(() => readJsonStat(dataset({ value: [1, 2, 3, 4, 5] }))).toThrow(/5 values for 4 cells/);
  });

  it('with a category index pointing far past its categories (a sparse array) is refused', () => {
    const doc = dataset({
      size: [1_000_001, 2],
      dimension: { Region: { category: { index: { '0301': 1_000_000 } } }, Tid: dataset().dimension.Tid },
      value: { '0': 1 },
    });
    expect(() => readJsonStat(doc)).toThrow(JsonStatError);
    const gap = dataset({
      dimension: { Region: { category: { index: { '0301': 0, '4601': 5 } } }, Tid: dataset().dimension.Tid },
    });
    expect(() => readJsonStat(gap)).toThrow(/bad index of 4601/);
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
