// screen_company: PEP and sanctions screening of a company, its roles and owners
// (GET /api/screening/{orgNumber}); screen_entity: screening of any persons or organisations
// by name (POST /api/screening/match).
import { Type } from 'typebox';
import type { Country as CountryCode } from '../domain/org-number.ts';
import { ScreeningResult } from '../contract/screening.ts';
import { MatchBody, MatchResult, MAX_MATCH_QUERIES } from '../contract/screening-match.ts';
import { Country, Described, OrgNumber, runTool, success, type ToolGroup } from './tool-kit.ts';

// The REST body's pieces (POST /api/screening/match) under the same names, so a caller moving
// between the two sends the same fields (screen_entity took `entities` for `queries` before).
const { queries, threshold, limit } = MatchBody.properties;

const CompanyInput = Type.Object({
  orgNumber: OrgNumber,
  country: Country,
  threshold: Described(threshold, 'Lowest score reported'),
});
const EntityInput = Type.Object({
  queries: Described(queries, 'Persons or organisations keyed by your own id, as POST /api/screening/match'),
  threshold: Described(threshold, 'Score at or above which a result is a match (default 0.75)'),
  limit: Described(limit, 'Results per entity (default 5)'),
});

export const screeningTools: ToolGroup = (server, { services, log, caller }) => {
  server.registerTool(
    'screen_company',
    {
      title: 'PEP and sanctions screening',
      description:
        'Screens the company name, its active roles and the holders of its latest shareholder year against the loaded PEP and sanctions ' +
        'lists. Every match is a possible match with a score in [0, 1] for a person to review. The company must be in the store ' +
        '(call lookup_company first).',
      inputSchema: CompanyInput,
      annotations: { readOnlyHint: true },
    },
    ({ orgNumber, country, threshold }) =>
      runTool(log, 'screen_company', async () =>
        success(
          ScreeningResult,
          await services.screening.screen(country as CountryCode, orgNumber, {
            threshold,
            audit: { ...caller, via: 'mcp' },
          }),
        ),
      ),
  );

  server.registerTool(
    'screen_entity',
    {
      title: 'Screen persons or organisations by name',
      description:
        `Screens 1–${MAX_MATCH_QUERIES} persons or organisations (need not be in our store) against the loaded PEP and sanctions ` +
        'lists, keyed by your own ids. Per key: the best results with score, match flag (score ≥ threshold), features and an ' +
        'explanation; with the list versions and the algorithm version for the audit trail.',
      inputSchema: EntityInput,
      annotations: { readOnlyHint: true },
    },
    ({ queries, threshold, limit }) =>
      runTool(log, 'screen_entity', async () =>
        success(MatchResult, await services.screening.match({ queries, threshold, limit }, { ...caller, via: 'mcp' })),
      ),
  );
};
