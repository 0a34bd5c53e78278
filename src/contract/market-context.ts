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
    level: StringEnum(['municipality', 'division', 'section', 'grouping'] as const, {
      description:
        "What the figure is of: the municipality, the NACE division, the division's NACE section, or the bureau's own " +
        "grouping the division falls in (Statistics Denmark's DB07 10-grouping) — never a section's or grouping's figure as the division's",
    }),
    label: Type.Union([Type.String(), Type.Null()], {
      description: "The bureau's name of the division, section or grouping the figure is of (null for a municipality)",
    }),
    licence: Type.String({ description: "The bureau's licence of the figure" }),
    cohort: Type.Optional(Type.Integer({ description: 'Startup survival: the year the firms started' })),
    computed: Type.Optional(Type.Boolean({ description: 'true: computed by us from the tables named' })),
  },
  { description: 'A figure with its source bureau, table, reference year, unit, level and licence' },
);
export type FigureValue = Static<typeof Figure>;

const Unavailable = Type.Object(
  {
    unavailable: Type.Literal(true),
    reason: Type.String({ description: 'Why the bureau has no figure for this measure at this level' }),
    source: Type.String(),
    table: Type.Union([Type.String(), Type.Null()], { description: 'The table that was checked, if any' }),
  },
  { description: 'The bureau publishes no usable figure for this measure: why' },
);
export type UnavailableValue = Static<typeof Unavailable>;

const fig = Type.Union([Figure, Unavailable, Type.Null()], {
  description: 'The figure, why it is unavailable, or null (no figure stored for this municipality or industry)',
});

/** The place figures. */
export const placeFigures = {
  population: fig,
  householdIncome: fig,
  enterprises: fig,
  enterprisesPer1000: fig,
};

/** The industry figures, each at the level the bureau publishes it (division, section or its grouping). */
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

const SSB_LICENCE = 'CC BY 4.0 (source: Statistics Norway, ssb.no/api/api-mot-statistikkbanken--brukerveiledning)';
const ssb = (
  value: number,
  unit: string,
  year: number,
  table: string,
  level = 'municipality',
  label: string | null = null,
) => ({
  value,
  unit,
  year,
  source: 'SSB',
  table,
  level,
  label,
  licence: SSB_LICENCE,
});

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
    enterprises: ssb(105876, 'establishments', 2025, '07091'),
    enterprisesPer1000: { ...ssb(146.18, 'establishments per 1,000 inhabitants', 2025, '07091+07459'), computed: true },
  },
  industry: {
    naceDivision: '47',
    averageMonthlyWage: ssb(
      41460,
      'NOK per month',
      2025,
      '11419',
      'division',
      'Retail trade, except of motor vehicles and motorcycles',
    ),
    enterprises: ssb(
      29876,
      'enterprises',
      2025,
      '12817',
      'section',
      'Wholesale and retail trade; repair of motor vehicles and motorcycles',
    ),
    startupSurvivalRate: {
      unavailable: true,
      reason:
        'SSB publishes startup survival by section (næringshovedområde) only, and no current table of it was found',
      source: 'SSB',
      table: null,
    },
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
      licence: SSB_LICENCE,
      url: 'https://data.ssb.no/api/v0/no/table/07459/',
      fetchedAt: '2026-11-03T05:00:12.000Z',
    },
  ],
  _sources: { attribution: ['SSB'], licences: [{ source: 'SSB', licence: SSB_LICENCE }] },
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
    _sources: Type.Object({
      attribution: Type.Array(Type.String()),
      licences: Type.Array(Type.Object({ source: Type.String(), licence: Type.String() }), {
        description: "Each bureau's licence of its figures",
      }),
    }),
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
