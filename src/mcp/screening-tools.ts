// screen_company: PEP and sanctions screening of a company, its roles and owners
// (GET /api/screening/{orgNumber}); screen_entity: screening of any persons or organisations
// by name (POST /api/screening/match).
import * as z from 'zod';
import type { Country as CountryCode } from '../domain/org-number.ts';
import { MAX_MATCH_RESULTS, THRESHOLD_BOUNDS } from '../domain/screening/rank.ts';
import { ScreeningResult } from '../contract/screening.ts';
import { MatchResult, MAX_MATCH_QUERIES, QUERY_KEY } from '../contract/screening-match.ts';
import { Country, OrgNumber, runTool, success, type ToolGroup } from './tool-kit.ts';

const Threshold = z.number().min(THRESHOLD_BOUNDS.min).max(THRESHOLD_BOUNDS.max).optional();
const Iso2 = z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code');

const Entity = z.object({
  schema: z.enum(['Person', 'Company', 'Organization']),
  name: z.string().min(1).max(300),
  birthDate: z
    .string()
    .regex(/^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$/, 'must be YYYY, YYYY-MM or YYYY-MM-DD')
    .optional()
    .describe('Persons only; only the year is compared'),
  nationality: Iso2.optional(),
  country: Iso2.optional(),
  identifiers: z.array(z.string().min(1).max(100)).max(20).optional(),
});

export const screeningTools: ToolGroup = (server, { services, log }) => {
  server.registerTool(
    'screen_company',
    {
      title: 'PEP and sanctions screening',
      description:
        'Screens the company name, its active roles and the holders of its latest shareholder year against the loaded PEP and sanctions ' +
        'lists. Every match is a possible match with a score in [0, 1] for a person to review. The company must be in the store ' +
        '(call lookup_company first).',
      inputSchema: { orgNumber: OrgNumber, country: Country, threshold: Threshold.describe('Lowest score reported') },
      annotations: { readOnlyHint: true },
    },
    ({ orgNumber, country, threshold }) =>
      runTool(log, 'screen_company', async () =>
        success(ScreeningResult, await services.screening.screen(country as CountryCode, orgNumber, { threshold })),
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
      inputSchema: {
        entities: z
          .record(z.string().regex(new RegExp(QUERY_KEY)), Entity)
          .refine((r) => Object.keys(r).length >= 1 && Object.keys(r).length <= MAX_MATCH_QUERIES, {
            message: `must hold 1–${MAX_MATCH_QUERIES} entities`,
          })
          .describe('Entities keyed by your own id'),
        threshold: Threshold.describe('Score at or above which a result is a match (default 0.75)'),
        limit: z.number().int().min(1).max(MAX_MATCH_RESULTS).optional().describe('Results per entity (default 5)'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ entities, threshold, limit }) =>
      runTool(log, 'screen_entity', async () =>
        success(MatchResult, await services.screening.match({ queries: entities, threshold, limit })),
      ),
  );
};
