// Market-context tool: get_market_context (Orakel's name) — the statistics bureaus' figures for
// a company's municipality and industry (GET /api/companies/{orgNumber}?include=context, with
// the tables of GET /api/market-context).
import { Type } from 'typebox';
import { StringEnum } from '../contract/common.ts';
import { MarketContextResponse } from '../contract/market-context.ts';
import type { Country as CountryCode } from '../domain/org-number.ts';
import { Defaulted, OrgNumber, runTool, success, type ToolGroup } from './tool-kit.ts';

const Result = Type.Object({
  orgNumber: Type.String(),
  name: Type.String(),
  ...MarketContextResponse.properties,
});

const Input = Type.Object({
  orgNumber: OrgNumber,
  country: Defaulted(
    StringEnum(['NO', 'SE', 'FI', 'DK'] as const, { default: 'NO', description: 'NO (default), SE, FI or DK' }),
  ),
});

export const contextTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'get_market_context',
    {
      title: 'Market context of a company',
      description:
        "Figures for the company's municipality and industry from its country's statistics bureau (SSB, SCB, Statistics Finland, " +
        'Statistics Denmark): population, household income, enterprises and enterprises per 1,000 inhabitants; average monthly wage, ' +
        'enterprises and startup survival rate of its NACE division, each at the level the bureau publishes it (division, section or ' +
        'its own grouping, with `level` and `label`). Each figure names its bureau, table, year, unit, level and licence; a measure ' +
        'the bureau does not publish is `unavailable` with the reason.',
      inputSchema: Input,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ orgNumber, country }) =>
      runTool(log, 'get_market_context', async () => {
        const company = await services.companies.lookup(country as CountryCode, orgNumber, { context: true, caller });
        const place = 'context' in company ? company.context : null;
        const context = await services.market.query(
          country,
          place?.municipality.code ?? null,
          place?.industry.naceDivision ?? null,
        );
        return success(Result, { orgNumber: company.orgNumber, name: company.name, ...context });
      }),
  );
};
