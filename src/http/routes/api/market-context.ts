// GET /api/market-context — the statistics bureaus' figures for a municipality and/or a NACE
// division of NO, SE, FI or DK, each with its bureau, table, reference year and unit.
import { errorResponses } from '../../../contract/common.ts';
import { MarketContextQuery, MarketContextResponse } from '../../../contract/market-context.ts';
import { invalid } from '../../../errors.ts';
import type { Api, RouteDeps } from '../../types.ts';

/** Municipality code length per country: NO and SE 4 digits, FI and DK 3. */
const CODE_LENGTH: Record<string, number> = { NO: 4, SE: 4, FI: 3, DK: 3 };

export default function marketContextRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/market-context',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['reference'],
        summary: 'Market context of a municipality and an industry',
        description:
          "Figures from SSB (NO), SCB (SE), Statistics Finland (FI) and Statistics Denmark (DK), synced monthly: per municipality the latest population, household income (median; mean for DK), enterprises and enterprises per 1,000 inhabitants; for a NACE division the average monthly wage, enterprises and the startup survival rate, each at the level the bureau publishes it: the division, else its NACE section or the bureau's own grouping (`level` and `label` say which; such a figure is never the division's). Each figure names its bureau, table, year, unit, level and licence; a measure the bureau publishes no usable table for is `{unavailable: true, reason}`; null: no figure stored for that municipality or industry. `tables` lists the tables with licence and vintage, `_sources.licences` each bureau's licence.",
        security: [{ bearer: [] }],
        querystring: MarketContextQuery,
        response: { 200: MarketContextResponse, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    async (req) => {
      const country = req.query.country ?? 'NO';
      const { municipality, nace } = req.query;
      if (municipality === undefined && nace === undefined) throw invalid('query', 'give municipality, nace or both');
      if (municipality !== undefined && municipality.length !== CODE_LENGTH[country])
        throw invalid('query.municipality', `a ${country} municipality code has ${CODE_LENGTH[country]} digits`);
      return services.market.query(country, municipality ?? null, nace ?? null);
    },
  );
}
