// Market context: the statistics bureaus' figures for a municipality and a NACE division,
// shared by `GET /api/market-context`, `include=context` and the MCP tool get_market_context.
import { Type, type Static, type TSchema } from 'typebox';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Figure = Type.Object(
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

export const StatTable = Type.Object({
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
  { description: 'Market context of a municipality and a NACE division' },
);
export type MarketContextBody = Static<typeof MarketContextResponse>;
