// Per-bureau table definitions: which table answers which measure, the query that asks for the
// latest period of it, and how the bureau writes its area and industry codes. The measures
// (docs in README.md beside this file):
// - per municipality: population, household income (median; mean where the bureau publishes
//   no median), number of enterprises;
// - per industry (NACE division): average monthly wage, number of enterprises, and the startup
//   survival rate where the bureau publishes it (SSB, Statistics Denmark).
// A measure a bureau has no table for here is absent (null in the API): SCB publishes no
// enterprises per municipality in a table we could confirm (FDBR07N is by industry and size
// class), Statistics Denmark no wage per NACE division (LONS20 is by occupation, LONS40 by
// section only). How far each table was confirmed: README.md.
import {
  dstDivision,
  dstMunicipality,
  scbMunicipality,
  ssbMunicipality,
  statfiMunicipality,
  twoDigitDivision,
} from './codes.ts';
import type { RolePatterns, Wanted } from './metadata.ts';

export type StatCountry = 'NO' | 'SE' | 'FI' | 'DK';
export const STAT_COUNTRIES: readonly StatCountry[] = ['NO', 'SE', 'FI', 'DK'];

export type PlaceMeasure = 'population' | 'householdIncome' | 'enterprises';
export type IndustryMeasure = 'averageMonthlyWage' | 'enterprises' | 'startupSurvivalRate';

export type TableDef = {
  /** The bureau's table id, as its API and web statbank name it (SCB: the table's PxWeb name). */
  table: string;
  title: string;
  unit: string;
  /** Request path under the bureau's base URL. */
  path: string;
  /** PxWeb query (POSTed); absent: a GET of `path` (StatBank). */
  query?: unknown;
  /**
   * The dimension holding the municipality or NACE code, and the time dimension. With `wanted`
   * they are found in the table's metadata on each run, and these only say what is expected.
   */
  keyDim: string;
  timeDim: string;
  /** Read the table's metadata first and build the query from it (instead of `query`). */
  wanted?: Wanted[];
} & ({ scope: 'municipality'; measure: PlaceMeasure } | { scope: 'industry'; measure: IndustryMeasure });

export interface Bureau {
  country: StatCountry;
  /** Attribution name (what `_sources` and each figure's `source` say). */
  name: string;
  licence: string;
  tables: TableDef[];
  /** The bureau's municipality code as our list writes it, or null for other areas (country, county). */
  municipality(code: string): string | null;
  /** The NACE division of the bureau's industry code, or null for totals, sections and groupings. */
  division(code: string): string | null;
  /** How the bureau codes its area, industry and contents variables (tables' metadata are read by these). */
  roles: RolePatterns;
}

/** A NACE division ("47") from an industry code of any bureau: "47", "47000"; never a total, group or section. */
export function naceDivision(code: string): string | null {
  return twoDigitDivision(code) ?? dstDivision(code);
}

/** PxWeb v1 query: the given selections plus the latest period (`top 1`), answered as JSON-stat 2.0. */
function px(select: Record<string, string[]>, time: string, keyFilter?: { code: string; filter: string }) {
  const query = Object.entries(select).map(([code, values]) => ({
    code,
    selection: { filter: keyFilter?.code === code ? keyFilter.filter : 'item', values },
  }));
  query.push({ code: time, selection: { filter: 'top', values: ['1'] } });
  return { query, response: { format: 'json-stat2' } };
}

const all = ['*'];

const SSB: Bureau = {
  country: 'NO',
  name: 'SSB',
  // SSB's own API guide: "API-et benytter Creative Commons-lisensen CC BY 4.0".
  licence: 'CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)',
  municipality: ssbMunicipality,
  division: twoDigitDivision,
  // NACE2007 today; the SN2025 tables that succeed it (14933) name theirs alike.
  roles: { area: /^Region$/, industry: /^NACE20\d\d$/, contents: /^ContentsCode$/ },
  tables: [
    {
      scope: 'municipality',
      measure: 'population',
      table: '07459',
      title: 'Population, by region (1 January)',
      unit: 'persons',
      path: 'no/table/07459/',
      query: px({ Region: all, ContentsCode: ['Personer1'] }, 'Tid', { code: 'Region', filter: 'all' }),
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'householdIncome',
      table: '06944',
      title: 'Household income after taxes, median, all households',
      unit: 'NOK',
      path: 'no/table/06944/',
      query: px({ Region: all, HusholdType: ['0000'], ContentsCode: ['InntSkatt'] }, 'Tid', {
        code: 'Region',
        filter: 'all',
      }),
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'enterprises',
      table: '07091',
      title: 'Establishments (bedrifter), by region, all industries (01-99), all sizes',
      unit: 'enterprises',
      path: 'no/table/07091/',
      query: px({ Region: all, NACE2007: ['01-99'], AntAnsatte: ['99'] }, 'Tid', { code: 'Region', filter: 'all' }),
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'averageMonthlyWage',
      // 11419 is by industry; 11418 (its sibling) is by occupation. Yrke and Sektor are eliminated
      // (all occupations, all sectors); its NACE2007 holds divisions and wage groups ("10-33").
      table: '11419',
      title: 'Monthly earnings, average, by industry (SN2007), all occupations and sectors',
      unit: 'NOK per month',
      path: 'no/table/11419/',
      query: px({ MaaleMetode: ['02'], NACE2007: all, ContentsCode: ['Manedslonn'] }, 'Tid', {
        code: 'NACE2007',
        filter: 'all',
      }),
      keyDim: 'NACE2007',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'enterprises',
      table: '10308',
      title: 'Enterprises, by industry division (SN2007)',
      unit: 'enterprises',
      path: 'no/table/10308/',
      query: px({ NACE2007: all, ContentsCode: ['Foretak'] }, 'Tid', { code: 'NACE2007', filter: 'all' }),
      keyDim: 'NACE2007',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'startupSurvivalRate',
      table: '09016',
      title: 'Newly established enterprises still active after five years, by industry',
      unit: 'percent',
      path: 'no/table/09016/',
      query: px({ NACE2007: all, ContentsCode: ['Overlevelse5'] }, 'Tid', { code: 'NACE2007', filter: 'all' }),
      keyDim: 'NACE2007',
      timeDim: 'Tid',
    },
  ],
};

const SCB: Bureau = {
  country: 'SE',
  name: 'SCB',
  licence: 'CC0 1.0 (Statistics Sweden open data, scb.se/en/services/open-data-api)',
  municipality: scbMunicipality,
  division: twoDigitDivision,
  roles: { area: /^Region$/, industry: /^SNI20\d\d$/, contents: /^ContentsCode$/ },
  tables: [
    {
      scope: 'municipality',
      measure: 'population',
      table: 'BefolkningNy',
      title: 'Population by region, 31 December',
      unit: 'persons',
      path: 'sv/ssd/BE/BE0101/BE0101A/BefolkningNy',
      query: px({ Region: all, ContentsCode: ['BE0101N1'] }, 'Tid', { code: 'Region', filter: 'all' }),
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'householdIncome',
      table: 'TabVX4bDispInkN',
      title: 'Disposable income per household, median, all households, age 18+, by region',
      unit: 'SEK thousands',
      path: 'sv/ssd/HE/HE0110/HE0110G/TabVX4bDispInkN',
      query: px({ Region: all, Hushallstyp: ['E90'], Alder: ['18+'], ContentsCode: ['000006SY'] }, 'Tid', {
        code: 'Region',
        filter: 'all',
      }),
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'averageMonthlyWage',
      table: 'LonesummaSNI2007',
      title: 'Average monthly salary, all sectors, by industry (SNI 2007)',
      unit: 'SEK per month',
      path: 'sv/ssd/AM/AM0110/AM0110A/LonesummaSNI2007',
      query: px({ SNI2007: all, ContentsCode: ['AM0110A8'] }, 'Tid', { code: 'SNI2007', filter: 'all' }),
      keyDim: 'SNI2007',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'enterprises',
      table: 'FDBR07',
      title: 'Enterprises by industry (SNI 2007)',
      unit: 'enterprises',
      path: 'sv/ssd/NV/NV0101/FDBR07',
      query: px({ SNI2007: all, ContentsCode: ['NV0101A2'] }, 'Tid', { code: 'SNI2007', filter: 'all' }),
      keyDim: 'SNI2007',
      timeDim: 'Tid',
    },
  ],
};

const STATFI: Bureau = {
  country: 'FI',
  name: 'Statistics Finland',
  licence:
    'CC BY 4.0 (source: Statistics Finland, stat.fi/en/about-us/get-to-know-statistics-finland/legislation/terms-of-use)',
  // StatFin writes municipalities "KU091" (whole country "SSS", regions "MK01").
  municipality: statfiMunicipality,
  division: twoDigitDivision,
  // Since 8 June 2026 the area code carries the date of its regional division (alue_23_20260101,
  // kunta_85_20190101), and the date differs between databases.
  roles: { area: /^(alue|kunta)_/, industry: /^toimiala/i, contents: /^contentscode$/ },
  tables: [
    {
      scope: 'municipality',
      measure: 'population',
      // Since 8 June 2026 (statistics-tables.md F1, grade A): short file name, dated area code,
      // contentscode `vaerak-vaesto`, timeperiod_y; read from the table's metadata on every run.
      table: '11ra',
      title: 'Population by area, 31 December',
      unit: 'persons',
      path: 'fi/StatFin/vaerak/11ra.px',
      wanted: [
        { find: 'area', values: 'all' },
        { find: 'contents', values: ['vaerak-vaesto'] },
        { find: 'time', values: 'latest' },
      ],
      keyDim: 'alue_*',
      timeDim: 'timeperiod_y',
    },
    {
      scope: 'municipality',
      measure: 'householdIncome',
      // F2 (grade A): tjt/14ww, the median disposable cash income per consumption unit
      // (equivalised, household based); 12f1 was a postal-code (Paavo) table.
      table: '14ww',
      title: 'Disposable cash income per consumption unit (equivalised), median, by municipality',
      unit: 'EUR per consumption unit',
      path: 'fi/StatFin/tjt/14ww.px',
      wanted: [
        { find: 'area', values: 'all' },
        { find: 'contents', values: ['tjt-ekvikturaha_med'] },
        { find: 'time', values: 'latest' },
      ],
      keyDim: 'alue_*',
      timeDim: 'timeperiod_y',
    },
    {
      scope: 'municipality',
      measure: 'enterprises',
      // 13wz: establishments of enterprises by municipality (Kunta, KU-codes). StatFin has no
      // table 13v3 (was here before); the Tiedot code below is not confirmed.
      table: '13wz',
      title: 'Establishments of enterprises, by municipality',
      unit: 'establishments',
      path: 'fi/StatFin/alyr/statfin_alyr_pxt_13wz.px',
      query: px({ Kunta: all, Tiedot: ['yrlkm'] }, 'Vuosi', { code: 'Kunta', filter: 'all' }),
      keyDim: 'Kunta',
      timeDim: 'Vuosi',
    },
    {
      scope: 'industry',
      measure: 'averageMonthlyWage',
      table: '13ms',
      title: 'Average monthly earnings of full-time wage and salary earners, by industry (TOL 2008)',
      unit: 'EUR per month',
      path: 'fi/StatFin/palk/statfin_palk_pxt_13ms.px',
      query: px({ Toimiala: all, Tiedot: ['kokmaksu_ka'] }, 'Vuosi', { code: 'Toimiala', filter: 'all' }),
      keyDim: 'Toimiala',
      timeDim: 'Vuosi',
    },
    {
      scope: 'industry',
      measure: 'enterprises',
      table: '13ww',
      title: 'Enterprises by industry (TOL 2008)',
      unit: 'enterprises',
      path: 'fi/StatFin/alyr/statfin_alyr_pxt_13ww.px',
      query: px({ Toimiala: all, Tiedot: ['yrlkm'] }, 'Vuosi', { code: 'Toimiala', filter: 'all' }),
      keyDim: 'Toimiala',
      timeDim: 'Vuosi',
    },
  ],
};

/** StatBank GET: `data/{table}/JSONSTAT?…`; the latest period is what StatBank answers when `Tid` is left out. */
const statbank = (table: string, vars: string) => `data/${table}/JSONSTAT?lang=en&${vars}`;

const DST: Bureau = {
  country: 'DK',
  name: 'Statistics Denmark',
  licence: 'CC BY 4.0 (source: Danmarks Statistik, dst.dk/da/Statistik/hjaelp-til-statistikbanken/api)',
  // OMRÅDE holds the country (000), the regions (081–085) and the municipalities (101–860).
  municipality: dstMunicipality,
  division: dstDivision,
  roles: { area: /^(OMRÅDE|KOMK)$/, industry: /^BRANCHE/, contents: /^ContentsCode$/ },
  tables: [
    {
      scope: 'municipality',
      measure: 'population',
      table: 'FOLK1A',
      title: 'Population on the first day of the quarter, by municipality',
      unit: 'persons',
      path: statbank('FOLK1A', 'OMR%C3%85DE=*&K%C3%98N=TOT&ALDER=IALT&CIVILSTAND=TOT'),
      keyDim: 'OMRÅDE',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'householdIncome',
      table: 'INDKF132',
      title: 'Disposable income of families, average, by municipality (no median is published per municipality)',
      unit: 'DKK',
      // ENHED 117 = average for the families in the group (DKK), FAMTYP FAIA = all families,
      // INDKINTB 99 = all income brackets (README.md beside this file: where these were found).
      path: statbank('INDKF132', 'OMR%C3%85DE=*&ENHED=117&FAMTYP=FAIA&INDKINTB=99'),
      keyDim: 'OMRÅDE',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'enterprises',
      // GF02: firms by the municipality of their head office (Statistics Denmark's own
      // announcement of the table); its variable codes below are not confirmed.
      table: 'GF02',
      title: 'Firms, by municipality of the head office (all industries)',
      unit: 'enterprises',
      path: statbank('GF02', 'KOMK=*&BRANCHE07=TOT&ENHED=ANTFIRM'),
      keyDim: 'KOMK',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'enterprises',
      table: 'GF1',
      title: 'Firms, by industry (DB07)',
      unit: 'enterprises',
      path: statbank('GF1', 'BRANCHE07=*&ENHED=ANTFIRM'),
      keyDim: 'BRANCHE07',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'startupSurvivalRate',
      table: 'NYV3',
      title: 'New enterprises surviving the first years, share, by industry (DB07)',
      unit: 'percent',
      path: statbank('NYV3', 'BRANCHE07=*&OVERLEV=OVERANDEL'),
      keyDim: 'BRANCHE07',
      timeDim: 'Tid',
    },
  ],
};

export const BUREAUS: Record<StatCountry, Bureau> = { NO: SSB, SE: SCB, FI: STATFI, DK: DST };
