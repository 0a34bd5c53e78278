// Queries built from a table's own metadata, on metadata written in the bureaus' formats
// (test/fixtures/statistics/meta/README.md names each file's source row in
// upstream/statistics-tables.md): variables found by role, wanted values checked, the
// variables a bureau cannot eliminate always listed, and every misfit reported.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BUREAUS,
  MetadataError,
  planQuery,
  pxQueries,
  readPxMetadata,
  readTableinfo,
  statbankPath,
  type Plan,
  type TableMeta,
  type Wanted,
} from '../../../src/sources/statistics/index.ts';

const meta = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/statistics/meta/${name}.json`, import.meta.url), 'utf8'));

const ok = (plan: Plan) => {
  if (!plan.ok) throw new Error(plan.problems.join('; '));
  return plan;
};

const fiPopulation: Wanted[] = [
  { find: 'area', values: 'all' },
  { find: 'contents', values: ['vaerak-vaesto'] },
  { find: 'time', values: 'latest' },
];

describe('Statistics Finland after 8 June 2026 (F1)', () => {
  const m = readPxMetadata(meta('fi-11ra'));

  it('finds the dated area code, contentscode and timeperiod_y and asks for them', () => {
    const plan = ok(planQuery(m, fiPopulation, BUREAUS.FI.roles, 'area'));
    expect(plan).toMatchObject({ keyDim: 'alue_23_20260101', timeDim: 'timeperiod_y' });
    expect(pxQueries(plan, m, 100_000)).toEqual([
      {
        query: [
          { code: 'alue_23_20260101', selection: { filter: 'all', values: ['*'] } },
          { code: 'contentscode', selection: { filter: 'item', values: ['vaerak-vaesto'] } },
          { code: 'timeperiod_y', selection: { filter: 'top', values: ['1'] } },
        ],
        response: { format: 'json-stat2' },
      },
    ]);
  });

  it('follows the area variable when its regional division is renamed between two runs', () => {
    const next: TableMeta = {
      ...m,
      variables: m.variables.map((v) => (v.code.startsWith('alue_') ? { ...v, code: 'alue_23_20270101' } : v)),
    };
    expect(ok(planQuery(next, fiPopulation, BUREAUS.FI.roles, 'area')).keyDim).toBe('alue_23_20270101');
  });

  it('reports the pre-June definition (Alue, Tiedot vaesto) instead of querying it', () => {
    const old: Wanted[] = [
      { find: { code: 'Alue' }, values: 'all' },
      { find: { code: 'Tiedot' }, values: ['vaesto'] },
      { find: { code: 'Vuosi' }, values: 'latest' },
    ];
    const plan = planQuery(m, old, BUREAUS.FI.roles, 'area');
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.problems).toEqual([
      'variable Alue is missing (variables: alue_23_20260101, contentscode, timeperiod_y)',
      'variable Tiedot is missing (variables: alue_23_20260101, contentscode, timeperiod_y)',
      'variable Vuosi is missing (variables: alue_23_20260101, contentscode, timeperiod_y)',
      'contentscode cannot be eliminated and the definition chooses none of its 4 values ' +
        '(vaerak-vaesto, vaesto_alle15_p, vaesto_yli64_p, vaesto_keski_ika)',
    ]);
  });

  it('reports a value code that is gone (the pre-June vaesto, now vaerak-vaesto)', () => {
    const plan = planQuery(m, [fiPopulation[0], { find: 'contents', values: ['vaesto'] }], BUREAUS.FI.roles, 'area');
    expect(!plan.ok && plan.problems).toEqual(['contentscode has no value vaesto']);
  });

  it('always lists contentscode (StatFin answers 400 when it is left out)', () => {
    const plan = planQuery(m, [fiPopulation[0], fiPopulation[2]], BUREAUS.FI.roles, 'area');
    expect(!plan.ok && plan.problems).toEqual([
      'contentscode cannot be eliminated and the definition chooses none of its 4 values ' +
        '(vaerak-vaesto, vaesto_alle15_p, vaesto_yli64_p, vaesto_keski_ika)',
    ]);
  });

  it('splits a query over the cell limit along the key variable', () => {
    const plan = ok(planQuery(m, fiPopulation, BUREAUS.FI.roles, 'area'));
    const queries = pxQueries(plan, m, 2) as { query: { code: string; selection: { values: string[] } }[] }[];
    expect(queries.map((q) => q.query[0].selection.values)).toEqual([
      ['SSS', 'KU091'],
      ['KU837', 'KU853'],
      ['MK01', 'SK011'],
    ]);
  });
});

describe('SSB 11419 (N4, recorded metadata)', () => {
  const m = readPxMetadata(meta('no-11419'));
  const wage: Wanted[] = [
    { find: { code: 'MaaleMetode' }, values: ['02'] },
    { find: 'industry', values: 'all' },
    { find: 'contents', values: ['Manedslonn'] },
    { find: 'time', values: 'latest' },
  ];

  it('lists the non-eliminable MaaleMetode and ContentsCode and eliminates Yrke, Sektor, Kjonn, AvtaltVanlig', () => {
    const plan = ok(planQuery(m, wage, BUREAUS.NO.roles, 'industry'));
    expect(plan.keyDim).toBe('NACE2007');
    expect(plan.selections.map((s) => s.code)).toEqual(['MaaleMetode', 'NACE2007', 'ContentsCode', 'Tid']);
  });

  it('reports MaaleMetode when the definition chooses none of its values', () => {
    const plan = planQuery(m, wage.slice(1), BUREAUS.NO.roles, 'industry');
    expect(!plan.ok && plan.problems).toEqual([
      'MaaleMetode cannot be eliminated and the definition chooses none of its 6 values (02, 01, 051, 061, 10, 11)',
    ]);
  });
});

describe('SCB BefolkningNy (S1, recorded metadata)', () => {
  const m = readPxMetadata(meta('se-BefolkningNy'));

  it('eliminates Civilstand, Alder and Kon and asks for Region, ContentsCode BE0101N1, Tid', () => {
    const plan = ok(
      planQuery(
        m,
        [
          { find: 'area', values: 'all' },
          { find: 'contents', values: ['BE0101N1'] },
        ],
        BUREAUS.SE.roles,
        'area',
      ),
    );
    expect(plan.selections.map((s) => [s.code, s.values])).toEqual([
      ['Region', 'all'],
      ['ContentsCode', ['BE0101N1']],
      ['Tid', 'latest'],
    ]);
  });
});

describe('Statistics Denmark GF11 tableinfo (D5)', () => {
  const m = readTableinfo(meta('dk-GF11'));
  const firms: Wanted[] = [
    { find: 'industry', values: 'all' },
    { find: { code: 'MÆNGDE4' }, values: ['AFI'] },
  ];

  it('builds the StatBank data path with the Danish variable code encoded, Tid left out for the latest', () => {
    const plan = ok(planQuery(m, firms, BUREAUS.DK.roles, 'industry', '-'));
    expect(plan).toMatchObject({ keyDim: 'BRANCHEDB071019127', timeDim: 'Tid' });
    expect(statbankPath('GF11', plan)).toBe('data/GF11/JSONSTAT?lang=en&BRANCHEDB071019127=*&M%C3%86NGDE4=AFI');
  });

  it('reports a changed unit', () => {
    const plan = planQuery(m, firms, BUREAUS.DK.roles, 'industry', 'antal');
    expect(!plan.ok && plan.problems).toEqual(['unit is now "-", was "antal"']);
  });

  it('reads the values of each variable', () => {
    expect(m.variables.map((v) => [v.code, v.values.length, v.elimination, v.time])).toEqual([
      ['BRANCHEDB071019127', 8, true, false],
      ['MÆNGDE4', 3, false, false],
      ['Tid', 2, false, true],
    ]);
  });
});

describe('definitions of the corrected rows against their metadata', () => {
  const def = (country: 'SE' | 'DK', table: string) => BUREAUS[country].tables.find((t) => t.table === table)!;

  it('DK DEMO16 (D6): every cohort and year asked for, STARTAAR the cohort dimension', () => {
    const plan = ok(
      planQuery(readTableinfo(meta('dk-DEMO16')), def('DK', 'DEMO16').wanted, BUREAUS.DK.roles, 'industry'),
    );
    expect(plan).toMatchObject({ keyDim: 'BRANCHEDB0710', timeDim: 'Tid', cohortDim: 'STARTAAR', sumDims: [] });
    expect(statbankPath('DEMO16', plan)).toBe(
      'data/DEMO16/JSONSTAT?lang=en&BRANCHEDB0710=*&ENHED=SURV&STARTAAR=*&Tid=*',
    );
  });

  it('DK GF12 (D3): KOMK by the area role, BRANCHEDB0710TIL127=TOT, Tid left out', () => {
    const plan = ok(planQuery(readTableinfo(meta('dk-GF12')), def('DK', 'GF12').wanted, BUREAUS.DK.roles, 'area'));
    expect(statbankPath('GF12', plan)).toBe('data/GF12/JSONSTAT?lang=en&KOMK=*&BRANCHEDB0710TIL127=TOT');
  });

  it('SE FDBR07N (S5): the nine size classes asked for and added up, no contents variable', () => {
    const plan = ok(
      planQuery(readPxMetadata(meta('se-FDBR07N')), def('SE', 'FDBR07N').wanted, BUREAUS.SE.roles, 'industry'),
    );
    expect(plan.sumDims).toEqual(['Storleksklass']);
    expect(plan.selections.map((s) => [s.code, s.count])).toEqual([
      ['SNI2007', 6],
      ['Storleksklass', 9],
      ['Tid', 1],
    ]);
  });

  it('SE LonSNIKonN (S4): 000007CS checked; a table without it is reported, not queried', () => {
    const m = readPxMetadata(meta('se-LonSNIKonN'));
    expect(ok(planQuery(m, def('SE', 'LonSNIKonN').wanted, BUREAUS.SE.roles, 'industry')).keyDim).toBe('SNI2007');
    const gone = {
      ...m,
      variables: m.variables.map((v) => (v.code === 'ContentsCode' ? { ...v, values: ['000007CQ'] } : v)),
    };
    const plan = planQuery(gone, def('SE', 'LonSNIKonN').wanted, BUREAUS.SE.roles, 'industry');
    expect(!plan.ok && plan.problems).toEqual(['ContentsCode has no value 000007CS']);
  });
});

describe('malformed metadata', () => {
  it.each([
    ['not an object', []],
    ['no variables', { title: 'x' }],
    ['an empty variable list', { variables: [] }],
    ['a variable without values', { variables: [{ code: 'Region' }] }],
  ])('PxWeb: %s', (_n, doc) => expect(() => readPxMetadata(doc)).toThrow(MetadataError));

  it('StatBank: a variable without id', () =>
    expect(() => readTableinfo({ variables: [{ text: 'x', values: [] }] })).toThrow(MetadataError));
});
