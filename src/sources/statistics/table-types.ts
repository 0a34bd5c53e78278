// The shape of the statistics table definitions (tables.ts): the four bureaus, their tables, the
// measures and the levels a figure can be published at.
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
  /** PxWeb: the table URL under the bureau's base URL (metadata GET, data POST). StatBank: unused (tableinfo/ and data/ by id). */
  path: string;
  /** The row of statistics-tables.md, its status there and its evidence grade. */
  evidence: { row: string; status: Evidence; grade: string };
  /** The variables asked for, by role or code, and the value codes wanted (each checked against the metadata). */
  wanted: Wanted[];
  /** Industry tables: which of the key variable's codes become figures (default: divisions only). */
  levels?: IndustryLevel[];
  /** The key and time dimensions expected; the metadata names them on each run (`alue_*`: found by pattern). */
  keyDim: string;
  timeDim: string;
  /** Set from the plan at run time: dimensions whose selected values are added up, and the cohort dimension. */
  sumDims?: string[];
  cohortDim?: string;
} & ({ scope: 'municipality'; measure: PlaceMeasure } | { scope: 'industry'; measure: IndustryMeasure });

/** confirmed / corrected: used as they stand; unconfirmed: used only when the live metadata fits. */
export type Evidence = 'confirmed' | 'corrected' | 'unconfirmed';
export type IndustryLevel = 'division' | 'section' | 'grouping';

/** A measure a bureau publishes no usable table for, and why (shown as `unavailable`). */
export interface Absent {
  scope: 'municipality' | 'industry';
  measure: PlaceMeasure | IndustryMeasure;
  reason: string;
}

export interface Bureau {
  country: StatCountry;
  /** Attribution name (what `_sources` and each figure's `source` say). */
  name: string;
  licence: string;
  /** PxWeb v1 (SSB v0, SCB, StatFin) or StatBank (Statistics Denmark). */
  api: 'pxweb' | 'statbank';
  tables: TableDef[];
  absent: Absent[];
  /** The bureau's municipality code as our list writes it, or null for other areas (country, county). */
  municipality(code: string): string | null;
  /** The NACE division of the bureau's industry code, or null for totals, sections and groupings. */
  division(code: string): string | null;
  /** How the bureau codes its area, industry and contents variables (tables' metadata are read by these). */
  roles: RolePatterns;
}
