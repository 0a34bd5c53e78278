// Market context (include=context, GET /api/market-context, MCP get_market_context): the
// statistics bureaus' figures for a municipality and a NACE division (population, household
// income, enterprises and enterprises per 1,000 inhabitants; average monthly wage, enterprises,
// startup survival), beside the store's own aggregates (companies and median employee count in
// the same municipality and division). An industry figure is the division's own where the bureau
// publishes one, else its section's or the bureau's grouping's, with `level` and `label` saying
// which; a measure the bureau publishes no usable table for is `unavailable` with the reason. The store aggregates are cached for ten minutes, so a
// page of search results costs at most a few aggregate queries; the figures are one primary-key
// read per call, so a new sync shows at once.
import type { Clock } from '../../domain/clock.ts';
import {
  isListedCountry,
  listedMunicipality,
  municipalityOfAddress,
  storedSpellingsOf,
} from '../../domain/municipalities/index.ts';
import type { ReferenceData } from '../../domain/reference-data.ts';
import type { FigureValue, MarketContextBody, UnavailableValue } from '../../contract/market-context.ts';
import { dstGroupKey, dstGroupOfDivision, sectionOf } from '../../sources/statistics/codes.ts';
import { BUREAUS, type StatCountry } from '../../sources/statistics/tables.ts';
import type { CompanyReadRepository } from '../../store/company-reads.ts';
import type { StatisticsFigureRow, StatisticsRepository, StatisticsTableRow } from '../../store/statistics.ts';

const TTL_MS = 10 * 60_000;

type Fig = FigureValue | UnavailableValue | null;

interface PlaceFigures {
  population: Fig;
  householdIncome: Fig;
  enterprises: Fig;
  enterprisesPer1000: Fig;
}
interface IndustryFigures {
  averageMonthlyWage: Fig;
  enterprises: Fig;
  startupSurvivalRate: Fig;
}

interface MarketContext {
  municipality: { code: string | null; companies: number; medianEmployees: number | null } & PlaceFigures;
  industry: { naceDivision: string | null; companies: number; medianEmployees: number | null } & IndustryFigures;
  /** The bureaus whose figures are in it (for `_sources`). */
  bureaus: string[];
}

export interface MarketContextDeps {
  reads: CompanyReadRepository;
  statistics: StatisticsRepository;
  reference: ReferenceData;
  clock: Clock;
}

const isStatCountry = (c: string): c is StatCountry => c in BUREAUS;

/** The keys a division's industry figures are stored under: itself, its NACE section, Statistics Denmark's 10-group. */
function industryKeys(country: string, division: string | null): string[] {
  if (division === null) return [];
  const section = sectionOf(division);
  const group = country === 'DK' ? dstGroupOfDivision(division) : null;
  return [division, ...(section ? [section] : []), ...(group ? [dstGroupKey(group)] : [])];
}

/** The most specific level first: a division's own figure over its section's over a grouping's. */
const LEVEL_RANK: Record<string, number> = { municipality: 0, division: 0, section: 1, grouping: 2 };

function figuresOf(country: string, rows: StatisticsFigureRow[], tables: StatisticsTableRow[]) {
  const bureau = isStatCountry(country) ? BUREAUS[country] : null;
  const source = bureau?.name ?? country;
  const licence = bureau?.licence ?? '';
  const unavailable = (scope: string, measure: string): Fig => {
    const checked = tables.find((t) => t.scope === scope && t.measure === measure && t.unavailable !== null);
    if (checked) return { unavailable: true, reason: checked.unavailable!, source, table: checked.table };
    const absent = bureau?.absent.find((a) => a.scope === scope && a.measure === measure);
    return absent ? { unavailable: true, reason: absent.reason, source, table: null } : null;
  };
  const get = (scope: string, measure: string): Fig => {
    const r = rows
      .filter((x) => x.scope === scope && x.measure === measure)
      .sort((a, b) => (LEVEL_RANK[a.level] ?? 9) - (LEVEL_RANK[b.level] ?? 9))[0];
    if (!r) return unavailable(scope, measure);
    return {
      value: r.value,
      unit: r.unit,
      year: r.year,
      source,
      table: r.table,
      level: r.level as FigureValue['level'],
      label: r.label,
      licence,
      ...(r.cohort !== null ? { cohort: r.cohort } : {}),
    };
  };
  const isFigure = (f: Fig): f is FigureValue => f !== null && !('unavailable' in f);
  const population = get('municipality', 'population');
  const enterprises = get('municipality', 'enterprises');
  const place: PlaceFigures = {
    population,
    householdIncome: get('municipality', 'householdIncome'),
    enterprises,
    enterprisesPer1000:
      isFigure(population) && isFigure(enterprises) && population.value > 0
        ? {
            value: Math.round((enterprises.value / population.value) * 100_000) / 100,
            unit: `${enterprises.unit} per 1,000 inhabitants`,
            year: enterprises.year,
            source,
            table: `${enterprises.table}+${population.table}`,
            level: 'municipality',
            label: null,
            licence,
            computed: true,
          }
        : enterprises !== null && 'unavailable' in enterprises
          ? { ...enterprises, reason: `computed from enterprises, which is unavailable: ${enterprises.reason}` }
          : null,
  };
  const industry: IndustryFigures = {
    averageMonthlyWage: get('industry', 'averageMonthlyWage'),
    enterprises: get('industry', 'enterprises'),
    startupSurvivalRate: get('industry', 'startupSurvivalRate'),
  };
  return { place, industry, bureaus: rows.length ? [source] : [], licence };
}

const divisionOf = (nace: string | null | undefined): string | null =>
  nace && /^\d{2}/.test(nace) ? nace.slice(0, 2) : null;

export function createMarketContext(deps: MarketContextDeps) {
  const cache = new Map<
    string,
    { at: number; value: { scope: string; companies: number; median_employees: number | null }[] }
  >();

  async function aggregates(country: string, municipality: string | null, division: string | null) {
    const k = `${country}|${municipality}|${division}`;
    const now = deps.clock.now().getTime();
    const hit = cache.get(k);
    if (hit && now - hit.at < TTL_MS) return hit.value;
    const value = await deps.reads.context(
      country,
      municipality === null ? null : storedSpellingsOf(country, municipality),
      division,
    );
    if (cache.size > 5000) cache.clear();
    cache.set(k, { at: now, value });
    return value;
  }

  /** The name and county of a municipality code of a country (NO from SSB Klass, others from our lists). */
  function place(country: string, code: string) {
    if (country === 'NO') {
      const m = deps.reference.municipality(code);
      return m ? { name: m.name, countyCode: m.countyCode, countyName: m.countyName } : null;
    }
    const m = isListedCountry(country) ? listedMunicipality(country, code) : null;
    return m ? { name: m.name, countyCode: m.countyCode, countyName: m.countyName } : null;
  }

  const api = {
    /** include=context: a company's municipality and industry, store aggregates beside the bureau's figures. */
    async for(country: string, municipalityNo: string | null, naceCode: string | null): Promise<MarketContext> {
      const division = divisionOf(naceCode);
      const [rows, figures, tables] = await Promise.all([
        aggregates(country, municipalityNo, division),
        deps.statistics.figures(country, municipalityNo, industryKeys(country, division)),
        deps.statistics.tables(country),
      ]);
      const m = rows.find((r) => r.scope === 'municipality')!;
      const i = rows.find((r) => r.scope === 'industry')!;
      const f = figuresOf(country, figures, tables);
      return {
        municipality: { code: municipalityNo, companies: m.companies, medianEmployees: m.median_employees, ...f.place },
        industry: {
          naceDivision: division,
          companies: i.companies,
          medianEmployees: i.median_employees,
          ...f.industry,
        },
        bureaus: f.bureaus,
      };
    },

    /** GET /api/market-context: the figures of a municipality and/or a NACE division, with their tables. */
    async query(country: string, municipality: string | null, nace: string | null): Promise<MarketContextBody> {
      const division = divisionOf(nace);
      const [figures, tables] = await Promise.all([
        deps.statistics.figures(country, municipality, industryKeys(country, division)),
        deps.statistics.tables(country),
      ]);
      const f = figuresOf(country, figures, tables);
      const at = municipality ? place(country, municipality) : null;
      const used = new Set(figures.map((r) => `${r.scope}:${r.measure}`));
      return {
        country,
        municipality: municipality
          ? {
              code: municipality,
              name: at?.name ?? null,
              countyCode: at?.countyCode ?? null,
              countyName: at?.countyName ?? null,
              ...f.place,
            }
          : null,
        industry: division ? { naceDivision: division, ...f.industry } : null,
        tables: tables
          .filter((t) => t.unavailable === null && t.year !== null && used.has(`${t.scope}:${t.measure}`))
          .map(({ updated: _u, unavailable: _n, year, ...t }) => ({ ...t, year: year! })),
        _sources: {
          attribution: f.bureaus,
          licences: f.bureaus.map((source) => ({ source, licence: f.licence })),
        },
      };
    },
  };

  return {
    ...api,
    /** A stored company's context: its address municipality mapped to the country's list (SE: by post town). */
    forCompany(row: {
      country: string;
      business_address_muni_no: string | null;
      business_address_city: string | null;
      postal_address_muni_no: string | null;
      postal_address_city: string | null;
      nace_code1: string | null;
    }): Promise<MarketContext> {
      // Bolagsverket's bulk file gives a postal address only; PRH a street address when it has one.
      const municipality = isListedCountry(row.country)
        ? (municipalityOfAddress(row.country, row.business_address_muni_no, row.business_address_city) ??
          municipalityOfAddress(row.country, row.postal_address_muni_no, row.postal_address_city))
        : row.business_address_muni_no;
      return api.for(row.country, municipality, row.nace_code1);
    },
  };
}

export type MarketContextService = ReturnType<typeof createMarketContext>;
