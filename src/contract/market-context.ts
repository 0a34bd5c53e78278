// Market context: the statistics bureaus' figures for a municipality and a NACE division,
// shared by `GET /api/market-context`, `include=context` and the MCP tool get_market_context.
import { Type, type Static, type TSchema } from 'typebox';
import { StringEnum } from './common.ts';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Figure = Type.Object(
  {
    value: Type.Number(),
    unit: Type.String({ description: 'e.g. persons, NOK, EUR per month, percent' }),
    year: Type.Integer({ description: 'Reference year of the figure' }),
    source: Type.String({ description: 'The bureau: SSB, SCB, Statistics Finland or Statistics Denmark' }),
    table: Type.String({ description: "The bureau's table id (two for a computed figure, joined with +)" }),
    computed: Type.Optional(Type.Boolean({ description: 'true: computed by us from the tables named' })),
  },
  { description: 'A figure with its source bureau, table, reference year and unit' },
);
export type FigureValue = Static<typeof Figure>;

const fig = nullable(Figure);

/** The place figures; null when the bureau publishes none (or none is stored yet). */
export const placeFigures = {
  population: fig,
  householdIncome: fig,
  enterprises: fig,
  enterprisesPer1000: fig,
};

/** The industry figures; startupSurvivalRate only where the bureau publishes it (NO, DK). */
export const industryFigures = {
  averageMonthlyWage: fig,
  enterprises: fig,
  startupSurvivalRate: fig,
};

const StatTable = Type.Object({
  source: Type.String(),
  scope: Type.Union([Type.Literal('municipality'), Type.Literal('industry')]),
  measure: Type.String(),
  table: Type.String(),
  title: Type.String(),
  unit: Type.String(),
  year: Type.Integer(),
  licence: Type.String(),
  url: Type.String(),
  fetchedAt: Type.String({ description: 'Vintage: when the figures were fetched' }),
});

const ssb = (value: number, unit: string, year: number, table: string) => ({ value, unit, year, source: 'SSB', table });

/** Documented example (figures illustrative). */
const MARKET_CONTEXT_EXAMPLE = {
  country: 'NO',
  municipality: {
    code: '0301',
    name: 'Oslo',
    countyCode: '03',
    countyName: 'Oslo',
    population: ssb(724290, 'persons', 2025, '07459'),
    householdIncome: ssb(565000, 'NOK', 2023, '06944'),
    enterprises: ssb(105876, 'enterprises', 2025, '07091'),
    enterprisesPer1000: { ...ssb(146.18, 'enterprises per 1,000 inhabitants', 2025, '07091+07459'), computed: true },
  },
  industry: {
    naceDivision: '47',
    averageMonthlyWage: ssb(41460, 'NOK per month', 2025, '11419'),
    enterprises: ssb(29876, 'enterprises', 2025, '10308'),
    startupSurvivalRate: ssb(24.3, 'percent', 2019, '09016'),
  },
  tables: [
    {
      source: 'SSB',
      scope: 'municipality' as const,
      measure: 'population',
      table: '07459',
      title: 'Population, by region (1 January)',
      unit: 'persons',
      year: 2025,
      licence:
        'NLOD (Norwegian Licence for Open Government Data; source: Statistics Norway, ssb.no/en/informasjon/copyright)',
      url: 'https://data.ssb.no/api/v0/no/table/07459/',
      fetchedAt: '2026-11-03T05:00:12.000Z',
    },
  ],
  _sources: { attribution: ['SSB'] },
};

export const MarketContextResponse = Type.Object(
  {
    country: Type.String(),
    municipality: nullable(
      Type.Object({
        code: Type.String(),
        name: nullable(Type.String()),
        countyCode: nullable(Type.String()),
        countyName: nullable(Type.String()),
        ...placeFigures,
      }),
    ),
    industry: nullable(Type.Object({ naceDivision: Type.String(), ...industryFigures })),
    tables: Type.Array(StatTable),
    _sources: Type.Object({ attribution: Type.Array(Type.String()) }),
  },
  { description: 'Market context of a municipality and a NACE division', examples: [MARKET_CONTEXT_EXAMPLE] },
);
export type MarketContextBody = Static<typeof MarketContextResponse>;

// GET /api/market-context: a municipality, an industry or both.
export const MarketContextQuery = Type.Object({
  country: Type.Optional(
    StringEnum(['NO', 'SE', 'FI', 'DK'] as const, {
      default: 'NO',
    }),
  ),
  municipality: Type.Optional(
    Type.String({ pattern: '^[0-9]{3,4}$', description: 'NO/SE 4 digits, FI/DK 3 digits', examples: ['0301'] }),
  ),
  nace: Type.Optional(
    Type.String({
      pattern: '^[0-9]{2}(\\.[0-9]{1,3})?$',
      description: 'NACE code or division',
      examples: ['47.1'],
    }),
  ),
});
