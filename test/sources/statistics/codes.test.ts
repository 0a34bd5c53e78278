// The code filters: only real municipalities and NACE divisions pass; the bureaus' totals,
// groupings and "unknown" codes (upstream/statistics-tables.md §1.3) never do, neither alone
// nor inside an answer read by the sync.
import { describe, expect, it } from 'vitest';
import {
  BUREAUS,
  dstDivision,
  dstMunicipality,
  extractFigures,
  isNaceDivision,
  naceDivision,
  scbMunicipality,
  ssbMunicipality,
  statfiMunicipality,
  twoDigitDivision,
  type TableDef,
} from '../../../src/sources/statistics/index.ts';

describe('NACE divisions', () => {
  it.each([
    // DST DB07 10-grouping (GF11, GF12, DEMO16): "Kultur, fritid og anden service", "Uoplyst aktivitet".
    ['10', null],
    ['11', null],
    ['1', null],
    ['TOT', null],
    ['G', null],
    // DST 127-grouping: whole divisions only as dd000.
    ['47000', '47'],
    ['62000', '62'],
    ['13000', '13'],
    ['01000', '01'],
    ['10001', null],
    ['10005', null],
    ['08090', null],
    ['00000', null],
    ['04000', null],
  ])('DST %s -> %s', (code, expected) => expect(dstDivision(code)).toBe(expected));

  it.each([
    ['00', null], // SSB uoppgitt (07091, 11419)
    ['00.0', null],
    ['01-99', null],
    ['A-S', null],
    ['10-33', null],
    ['56.1_56.3', null],
    ['47.1', null],
    ['04', null], // no such division
    ['47', '47'],
    ['62', '62'],
    ['01', '01'],
    ['99', '99'],
  ])('SSB/SCB/StatFin %s -> %s', (code, expected) => expect(twoDigitDivision(code)).toBe(expected));

  it('knows the 88 divisions of NACE Rev. 2', () => {
    const all = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0')).filter(isNaceDivision);
    expect(all).toHaveLength(88);
    expect(all).not.toContain('00');
    expect(naceDivision('00')).toBeNull();
  });
});

describe('municipalities', () => {
  it.each([
    ['9999', null], // SSB 06944: uoppgitt
    ['0000', null],
    ['0', null],
    ['03', null],
    ['030101', null], // Oslo bydel (06944)
    ['0301', '0301'],
    ['K-0301', '0301'],
    ['5001', '5001'],
  ])('SSB %s -> %s', (code, expected) => expect(ssbMunicipality(code)).toBe(expected));

  it.each([
    ['00', null],
    ['01', null],
    ['0180', '0180'],
    ['9999', null],
  ])('SCB %s -> %s', (code, expected) => expect(scbMunicipality(code)).toBe(expected));

  it.each([
    ['SSS', null],
    ['MK01', null],
    ['SK011', null],
    ['HVA01', null],
    ['KU091', '091'],
  ])('StatFin %s -> %s', (code, expected) => expect(statfiMunicipality(code)).toBe(expected));

  it.each([
    ['000', null],
    ['084', null],
    ['10', null],
    ['11', null],
    ['101', '101'],
    ['860', '860'],
    ['950', null],
  ])('DST %s -> %s', (code, expected) => expect(dstMunicipality(code)).toBe(expected));
});

/** A JSON-stat 2.0 answer with one key dimension and one year. */
function answer(dim: string, codes: string[]) {
  return {
    version: '2.0',
    class: 'dataset',
    id: [dim, 'Tid'],
    size: [codes.length, 1],
    dimension: {
      [dim]: { category: { index: codes } },
      Tid: { category: { index: ['2025'] } },
    },
    value: codes.map((_, i) => 100 + i),
  };
}

const def = (country: 'NO' | 'DK', scope: 'municipality' | 'industry', keyDim: string): TableDef =>
  ({ ...BUREAUS[country].tables.find((t) => t.scope === scope)!, keyDim, timeDim: 'Tid' }) as TableDef;

describe('the sync never files a total or grouping as a place or an industry', () => {
  it('SSB 00 and 9999 are dropped from an answer', () => {
    const industry = extractFigures(BUREAUS.NO, def('NO', 'industry', 'NACE2007'), answer('NACE2007', ['00', '62']));
    expect(industry.figures.map((f) => f.key)).toEqual(['62']);
    const places = extractFigures(
      BUREAUS.NO,
      def('NO', 'municipality', 'Region'),
      answer('Region', ['9999', '0301', '0']),
    );
    expect(places.figures.map((f) => f.key)).toEqual(['0301']);
  });

  it('DST 10 and 11 are dropped from an answer, 47000 is division 47', () => {
    const industry = extractFigures(
      BUREAUS.DK,
      def('DK', 'industry', 'BRANCHEDB071019127'),
      answer('BRANCHEDB071019127', ['TOT', '10', '11', '10001', '47000']),
    );
    expect(industry.figures.map((f) => [f.key, f.value])).toEqual([['47', 104]]);
  });

  it('an answer of groupings only holds no figure at all', () => {
    expect(() =>
      extractFigures(BUREAUS.DK, def('DK', 'industry', 'BRANCHE'), answer('BRANCHE', ['TOT', '10', '11'])),
    ).toThrow(/no industry figures/);
  });
});
