// Per-bureau table definitions, every table, variable and value code as
// ../shared/upstream/statistics-tables.md records it (row id and evidence grade beside each),
// and how the bureau writes its area and industry codes. The measures (README.md beside this file):
// - per municipality: population, household income (median; mean where the bureau publishes
//   no median), number of enterprises;
// - per industry: average monthly wage, number of enterprises, startup survival rate, each at
//   the level the bureau publishes it (NACE division, NACE section, or its own grouping).
// No definition names a fixed query: each names the variables it wants by role and the value
// codes it wants, and the sync reads the table's metadata first (PxWeb GET of the table URL,
// StatBank `tableinfo`) and builds the query from it (metadata.ts). A row the evidence could not
// confirm is checked the same way; when its check fails, the measure is reported unavailable
// with the reason. A measure a bureau has no table for is listed in `absent` with the reason.
import {
  dstDivision,
  dstMunicipality,
  scbMunicipality,
  ssbMunicipality,
  statfiMunicipality,
  twoDigitDivision,
} from './codes.ts';
import type { Wanted } from './metadata.ts';
import type { Bureau, StatCountry } from './table-types.ts';

export * from './table-types.ts';

/** A NACE division ("47") from an industry code of any bureau: "47", "47000"; never a total, group or section. */
export function naceDivision(code: string): string | null {
  return twoDigitDivision(code) ?? dstDivision(code);
}

const area = { find: 'area', values: 'all' } as const;
const industry = { find: 'industry', values: 'all' } as const;
const latest = { find: 'time', values: 'latest' } as const;
const contents = (...codes: string[]): Wanted => ({ find: 'contents', values: codes });
const pick = (code: string, ...values: string[]): Wanted => ({ find: { code }, values });

const SSB: Bureau = {
  country: 'NO',
  name: 'SSB',
  // SSB's own API guide: "API-et benytter Creative Commons-lisensen CC BY 4.0".
  licence: 'CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)',
  api: 'pxweb',
  municipality: ssbMunicipality,
  division: twoDigitDivision,
  // NACE2007 today; the SN2025 tables that succeed it (14933) name theirs alike.
  roles: { area: /^Region$/, industry: /^NACE20\d\d$/, contents: /^ContentsCode$/ },
  tables: [
    {
      scope: 'municipality',
      measure: 'population',
      table: '07459',
      evidence: { row: 'N1', status: 'confirmed', grade: 'B, C' },
      title: 'Population, by region (1 January)',
      unit: 'persons',
      path: 'no/table/07459/',
      wanted: [area, contents('Personer1'), latest],
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'householdIncome',
      table: '06944',
      evidence: { row: 'N2', status: 'confirmed', grade: 'B' },
      title: 'Household income after taxes, median, all households',
      unit: 'NOK',
      path: 'no/table/06944/',
      // Region 9999 (uoppgitt) is dropped by the municipality filter.
      wanted: [area, pick('HusholdType', '0000'), contents('InntSkatt'), latest],
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'enterprises',
      table: '07091',
      evidence: { row: 'N3', status: 'confirmed', grade: 'B' },
      title: 'Establishments (bedrifter), by region, all industries (01-99), all sizes',
      unit: 'establishments',
      path: 'no/table/07091/',
      // The contents code is not recorded: the table's only content is taken (more than one is a problem).
      wanted: [area, { find: 'industry', values: ['01-99'] }, pick('AntAnsatte', '99'), latest],
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'averageMonthlyWage',
      // Recorded metadata (grade A): MaaleMetode and ContentsCode not eliminable; Yrke, Sektor,
      // Kjonn, AvtaltVanlig eliminated. NACE2007 holds divisions, SSB groups and sections: a
      // division inside a group only ("10-12") gets its section's figure, labelled so.
      table: '11419',
      evidence: { row: 'N4', status: 'confirmed', grade: 'A' },
      title: 'Monthly earnings, average, by industry (SN2007), all occupations and sectors',
      unit: 'NOK per month',
      path: 'no/table/11419/',
      wanted: [pick('MaaleMetode', '02'), industry, contents('Manedslonn'), latest],
      levels: ['division', 'section'],
      keyDim: 'NACE2007',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'enterprises',
      // Unconfirmed candidate (10308 exists nowhere): structural business statistics 12817,
      // ContentsCode Foretak, seen by section only; used when its live metadata fits.
      table: '12817',
      evidence: { row: 'N5', status: 'unconfirmed', grade: 'B (section)' },
      title: 'Enterprises, structural business statistics, by industry (SN2007)',
      unit: 'enterprises',
      path: 'no/table/12817/',
      wanted: [industry, contents('Foretak'), latest],
      levels: ['division', 'section'],
      keyDim: 'NACE2007',
      timeDim: 'Tid',
    },
  ],
  absent: [
    {
      scope: 'industry',
      measure: 'startupSurvivalRate',
      reason:
        'SSB publishes startup survival by section (næringshovedområde) only, and no current table of it was found (09016 exists nowhere; statistics-tables.md N6)',
    },
  ],
};

const SCB: Bureau = {
  country: 'SE',
  name: 'SCB',
  licence: 'CC0 1.0 (Statistics Sweden open data, scb.se/en/services/open-data-api)',
  api: 'pxweb',
  municipality: scbMunicipality,
  division: twoDigitDivision,
  roles: { area: /^Region$/, industry: /^SNI20\d\d$/, contents: /^ContentsCode$/ },
  tables: [
    {
      scope: 'municipality',
      measure: 'population',
      table: 'BefolkningNy',
      evidence: { row: 'S1', status: 'confirmed', grade: 'A' },
      title: 'Population by region, 31 December',
      unit: 'persons',
      path: 'sv/ssd/BE/BE0101/BE0101A/BefolkningNy',
      wanted: [area, contents('BE0101N1'), latest],
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'householdIncome',
      table: 'TabVX4bDispInkN',
      evidence: { row: 'S2', status: 'confirmed', grade: 'B' },
      title: 'Disposable income per household, median, all households, age 18+, by region',
      unit: 'SEK thousands',
      path: 'sv/ssd/HE/HE0110/HE0110G/TabVX4bDispInkN',
      wanted: [area, pick('Hushallstyp', 'E90'), pick('Alder', '18+'), contents('000006SY'), latest],
      keyDim: 'Region',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'averageMonthlyWage',
      // Corrected (LonesummaSNI2007 does not exist): LonSNIKonN publishes sections only (A–S),
      // so the figure is the section's. 000007CS (monthly salary) is checked against the metadata.
      table: 'LonSNIKonN',
      evidence: { row: 'S4', status: 'corrected', grade: 'B' },
      title: 'Average monthly salary, by industry section (SNI 2007), both sexes',
      unit: 'SEK per month',
      path: 'sv/ssd/AM/AM0110/AM0110C/LonSNIKonN',
      wanted: [industry, contents('000007CS'), latest],
      levels: ['division', 'section'],
      keyDim: 'SNI2007',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'enterprises',
      // Corrected: FDBR07N (2008–2025) by SNI 2007 and size class, one content (left out); the
      // size classes SGR0–SGR8 are added up.
      table: 'FDBR07N',
      evidence: { row: 'S5', status: 'corrected', grade: 'B' },
      title: 'Enterprises (FDB) by industry (SNI 2007), all size classes',
      unit: 'enterprises',
      path: 'sv/ssd/NV/NV0101/FDBR07N',
      wanted: [
        industry,
        { find: { code: 'Storleksklass' }, values: Array.from({ length: 9 }, (_, i) => `SGR${i}`), sum: true },
        latest,
      ],
      levels: ['division', 'section'],
      keyDim: 'SNI2007',
      timeDim: 'Tid',
    },
  ],
  absent: [
    {
      scope: 'municipality',
      measure: 'enterprises',
      reason:
        'SCB publishes no enterprises per kommun in a table that could be found (FDBR07N has no region; statistics-tables.md S3)',
    },
    {
      scope: 'industry',
      measure: 'startupSurvivalRate',
      reason: 'no SCB startup survival table is recorded in statistics-tables.md',
    },
  ],
};

const STATFI: Bureau = {
  country: 'FI',
  name: 'Statistics Finland',
  licence:
    'CC BY 4.0 (source: Statistics Finland, stat.fi/en/about-us/get-to-know-statistics-finland/legislation/terms-of-use)',
  api: 'pxweb',
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
      // Since 8 June 2026: short file name, dated area code, contentscode `vaerak-vaesto`, timeperiod_y.
      table: '11ra',
      evidence: { row: 'F1', status: 'corrected', grade: 'A' },
      title: 'Population by area, 31 December',
      unit: 'persons',
      path: 'fi/StatFin/vaerak/11ra.px',
      wanted: [area, contents('vaerak-vaesto'), latest],
      keyDim: 'alue_*',
      timeDim: 'timeperiod_y',
    },
    {
      scope: 'municipality',
      measure: 'householdIncome',
      // tjt/14ww, the median disposable cash income per consumption unit (equivalised, household
      // based); 12f1 was a postal-code (Paavo) table.
      table: '14ww',
      evidence: { row: 'F2', status: 'corrected', grade: 'A' },
      title: 'Disposable cash income per consumption unit (equivalised), median, by municipality',
      unit: 'EUR per consumption unit',
      path: 'fi/StatFin/tjt/14ww.px',
      wanted: [area, contents('tjt-ekvikturaha_med'), latest],
      keyDim: 'alue_*',
      timeDim: 'timeperiod_y',
    },
    {
      scope: 'municipality',
      measure: 'enterprises',
      // Unconfirmed: 13wz (establishments) exists; its post-June codes were not seen. No contents
      // code is named, so the check passes only when the table has one content.
      table: '13wz',
      evidence: { row: 'F3', status: 'unconfirmed', grade: 'B (before June 2026)' },
      title: 'Establishments of enterprises, by municipality',
      unit: 'establishments',
      path: 'fi/StatFin/alyr/13wz.px',
      wanted: [area, latest],
      keyDim: 'alue_*',
      timeDim: 'timeperiod_y',
    },
    {
      scope: 'industry',
      measure: 'enterprises',
      // Unconfirmed: 13ww (establishments by industry) exists; its variables were not seen.
      table: '13ww',
      evidence: { row: 'F5', status: 'unconfirmed', grade: 'D' },
      title: 'Establishments of enterprises, by industry (TOL 2008)',
      unit: 'establishments',
      path: 'fi/StatFin/alyr/13ww.px',
      wanted: [industry, latest],
      keyDim: 'toimiala_*',
      timeDim: 'timeperiod_y',
    },
  ],
  absent: [
    {
      scope: 'industry',
      measure: 'averageMonthlyWage',
      reason:
        'no Statistics Finland earnings table by industry (TOL 2008) was found; 13ms exists nowhere (statistics-tables.md F4)',
    },
    {
      scope: 'industry',
      measure: 'startupSurvivalRate',
      reason: 'no Statistics Finland startup survival table is recorded in statistics-tables.md',
    },
  ],
};

const DST: Bureau = {
  country: 'DK',
  name: 'Statistics Denmark',
  licence: 'CC BY 4.0 (source: Danmarks Statistik, dst.dk/da/Statistik/hjaelp-til-statistikbanken/api)',
  api: 'statbank',
  // OMRÅDE/KOMK hold the country (000), the regions (081–085) and the municipalities (101–860).
  municipality: dstMunicipality,
  division: dstDivision,
  roles: { area: /^(OMRÅDE|KOMK)$/, industry: /^BRANCHE/, contents: /^ContentsCode$/ },
  tables: [
    {
      scope: 'municipality',
      measure: 'population',
      table: 'FOLK1A',
      evidence: { row: 'D1', status: 'confirmed', grade: 'C' },
      title: 'Population on the first day of the quarter, by municipality',
      unit: 'persons',
      path: 'FOLK1A',
      wanted: [area, pick('KØN', 'TOT'), pick('ALDER', 'IALT'), pick('CIVILSTAND', 'TOT'), latest],
      keyDim: 'OMRÅDE',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'householdIncome',
      // ENHED 117 = average for the families in the group (DKK), FAMTYP FAIA = all families,
      // INDKINTB 99 = all income brackets. No median is published per kommune.
      table: 'INDKF132',
      evidence: { row: 'D2', status: 'confirmed', grade: 'C' },
      title: 'Disposable income of families, average, by municipality (no median is published per municipality)',
      unit: 'DKK',
      path: 'INDKF132',
      wanted: [area, pick('ENHED', '117'), pick('FAMTYP', 'FAIA'), pick('INDKINTB', '99'), latest],
      keyDim: 'OMRÅDE',
      timeDim: 'Tid',
    },
    {
      scope: 'municipality',
      measure: 'enterprises',
      // GF12 (the series restarted in 2019; GF02 is the old one): firms by the kommune of the
      // head office, all industries; no ENHED variable (a firm count).
      table: 'GF12',
      evidence: { row: 'D3', status: 'corrected', grade: 'B, C' },
      title: 'Firms, by municipality of the head office (all industries)',
      unit: 'firms',
      path: 'GF12',
      wanted: [area, { find: 'industry', values: ['TOT'] }, latest],
      keyDim: 'KOMK',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'enterprises',
      // GF11: the 127-grouping equals a division only as `dd000`; the 19-grouping letters are sections.
      table: 'GF11',
      evidence: { row: 'D5', status: 'corrected', grade: 'B, C' },
      title: 'Firms, by industry (DB07 127-grouping where it is a whole division, else the section)',
      unit: 'firms',
      path: 'GF11',
      wanted: [industry, pick('MÆNGDE4', 'AFI'), latest],
      levels: ['division', 'section'],
      keyDim: 'BRANCHEDB071019127',
      timeDim: 'Tid',
    },
    {
      scope: 'industry',
      measure: 'startupSurvivalRate',
      // DEMO16: survival by DST's DB07 10-grouping only (neither division nor section). Every
      // cohort and year is asked for; the figure is the oldest cohort at the newest year.
      table: 'DEMO16',
      evidence: { row: 'D6', status: 'corrected', grade: 'C' },
      title: 'Business demography: share of new firms still active, by DB07 10-grouping',
      unit: 'percent',
      path: 'DEMO16',
      wanted: [
        industry,
        pick('ENHED', 'SURV'),
        { find: { code: 'STARTAAR' }, values: 'all', cohort: true },
        { find: 'time', values: 'all' },
      ],
      levels: ['grouping'],
      keyDim: 'BRANCHEDB0710',
      timeDim: 'Tid',
    },
  ],
  absent: [
    {
      scope: 'industry',
      measure: 'averageMonthlyWage',
      reason:
        'Statistics Denmark publishes no wage by NACE division: LONS40 has sections, sub-sections and its own aggregates only (statistics-tables.md D4)',
    },
  ],
};

export const BUREAUS: Record<StatCountry, Bureau> = { NO: SSB, SE: SCB, FI: STATFI, DK: DST };
