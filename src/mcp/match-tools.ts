// match_companies: company names to organisation numbers (POST /api/companies/match).
import * as z from 'zod';
import {
  CompanyMatchResponse,
  MATCH_COUNTRIES,
  MAX_COMPANY_MATCH_CANDIDATES,
  MAX_COMPANY_MATCH_QUERIES,
} from '../contract/company-match.ts';
import { runTool, success, type ToolGroup } from './tool-kit.ts';

const Text = (max: number) => z.string().trim().min(1).max(max);

const Query = z.object({
  name: Text(300).describe('Company name as you have it'),
  country: z.enum(MATCH_COUNTRIES).optional().describe('Only candidates of this country'),
  municipality: Text(100).optional(),
  city: Text(100).optional(),
  postalCode: z
    .string()
    .regex(/^[0-9A-Za-z -]{3,10}$/, 'must be a postal code')
    .optional(),
  address: Text(200).optional(),
  website: Text(200).optional().describe('Website or domain'),
  orgForm: z
    .string()
    .regex(/^[0-9A-Za-z]{1,10}$/, 'must be an organisation form code')
    .optional(),
  includeInactive: z.boolean().optional().describe('Rank deleted and dissolved companies with live ones'),
});

export const matchTools: ToolGroup = (server, { services, log }) => {
  server.registerTool(
    'match_companies',
    {
      title: 'Match company names to organisation numbers',
      description:
        `Turns 1–${MAX_COMPANY_MATCH_QUERIES} company names (with optional country, city or municipality, postal code, website ` +
        'and organisation form) into organisation numbers across NO, SE, FI and DK, using current and former names. Per query: ' +
        'ranked candidates with a 0–1 score and the features behind it, and `match` (the top candidate when it is clearly ' +
        'best, else null: then show the candidates to the user instead of guessing).',
      inputSchema: {
        queries: z.array(Query).min(1).max(MAX_COMPANY_MATCH_QUERIES).describe('Names to match, answered in order'),
        threshold: z.number().min(0.5).max(1).optional().describe('Score the match needs (default 0.8)'),
        limit: z.number().int().min(1).max(MAX_COMPANY_MATCH_CANDIDATES).optional().describe('Candidates per query'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(log, 'match_companies', async () =>
        success(CompanyMatchResponse, await services.companyMatch.match(args)),
      ),
  );
};
