// Market-context figures for the demo: for each bureau's tables (sources/statistics/tables.ts:
// the same measures, table ids, titles and units the statistics job stores), a value per demo
// municipality and per NACE division of the demo's companies. The values are invented, in the
// range of the real figures, and say so in the source name; the statistics job replaces them
// with the bureaus' own when it runs.
import { BUREAUS, STAT_COUNTRIES, type StatCountry } from '../statistics/tables.ts';
import { DEMO_MUNICIPALITIES, type DemoWorld } from './world.ts';

type Scope = 'municipality' | 'industry';

const PLACES: Record<StatCountry, string[]> = {
  NO: DEMO_MUNICIPALITIES.map((m) => m[0]),
  FI: ['091', '049', '837', '853', '564'],
  SE: ['0180', '1480', '1280', '0380', '2380'],
  DK: ['101', '157', '751', '461', '851'],
};

/** Typical magnitude of each measure, by country (NOK, SEK thousands, EUR, DKK as the tables' units). */
const BASE: Record<string, Partial<Record<StatCountry, number>>> = {
  population: { NO: 60_000, SE: 90_000, FI: 70_000, DK: 80_000 },
  householdIncome: { NO: 620_000, SE: 420, FI: 24_000, DK: 380_000 },
  enterprises: { NO: 9_000, SE: 12_000, FI: 8_000, DK: 7_000 },
  averageMonthlyWage: { NO: 58_000, SE: 38_000, FI: 3_900, DK: 45_000 },
  startupSurvivalRate: { NO: 48, SE: 62, FI: 55, DK: 50 },
};

export interface DemoStatistics {
  country: StatCountry;
  data: {
    source: string;
    licence: string;
    fetchedAt: Date;
    figures: { scope: Scope; key: string; measure: string; value: number; year: number; table: string; unit: string }[];
    tables: {
      scope: Scope;
      measure: string;
      table: string;
      title: string;
      unit: string;
      year: number;
      url: string;
      updated: string | null;
    }[];
    keep: { scope: Scope; measure: string }[];
  };
}

const hash = (s: string) => [...s].reduce((a, ch) => (a * 31 + ch.charCodeAt(0)) >>> 0, 7);

export function demoStatistics(world: DemoWorld, now: Date): DemoStatistics[] {
  const divisions = [...new Set(world.companies.map((c) => c.nace.code.slice(0, 2)))].sort();
  const year = 2024;
  return STAT_COUNTRIES.map((country) => {
    const bureau = BUREAUS[country];
    const figures: DemoStatistics['data']['figures'] = [];
    const tables: DemoStatistics['data']['tables'] = [];
    for (const def of bureau.tables) {
      const keys = def.scope === 'municipality' ? PLACES[country] : divisions;
      const base = BASE[def.measure]?.[country] ?? 1000;
      for (const key of keys) {
        // A stable spread around the base: 0.5x to 1.5x (Oslo's population an order larger).
        const spread = 0.5 + (hash(`${country}${def.measure}${key}`) % 1000) / 1000;
        const boost = def.measure === 'population' && key === PLACES[country][0] ? 10 : 1;
        const value =
          def.measure === 'startupSurvivalRate'
            ? Math.round(base * spread * 10) / 10
            : Math.round(base * spread * boost);
        figures.push({
          scope: def.scope,
          key,
          measure: def.measure,
          value: Math.min(value, def.measure === 'startupSurvivalRate' ? 95 : value),
          year,
          table: def.table,
          unit: def.unit,
        });
      }
      tables.push({
        scope: def.scope,
        measure: def.measure,
        table: def.table,
        title: `${def.title} (demo figures)`,
        unit: def.unit,
        year,
        url: 'about:demo',
        updated: null,
      });
    }
    return {
      country,
      data: {
        source: `${bureau.name} (demo figures)`,
        licence: bureau.licence,
        fetchedAt: now,
        figures,
        tables,
        keep: [],
      },
    };
  });
}
