// match_companies: company names to organisation numbers (POST /api/companies/match).
import { Type } from 'typebox';
import {
  CompanyMatchBody,
  CompanyMatchQuery,
  CompanyMatchResponse,
  MAX_COMPANY_MATCH_QUERIES,
} from '../contract/company-match.ts';
import { Described, runTool, success, Trimmed, type ToolGroup } from './tool-kit.ts';

// POST /api/companies/match's body, in the tool's own words; its free-text fields are trimmed.
const m = CompanyMatchQuery.properties;
const Query = Type.Object({
  name: Trimmed(Described(m.name, 'Company name as you have it')),
  country: m.country,
  municipality: Trimmed(m.municipality),
  city: Trimmed(m.city),
  postalCode: m.postalCode,
  address: Trimmed(m.address),
  website: Trimmed(Described(m.website, 'Website or domain')),
  orgForm: m.orgForm,
  includeInactive: Described(m.includeInactive, 'Rank deleted and dissolved companies with live ones'),
});
const { threshold, limit } = CompanyMatchBody.properties;
const Input = Type.Object({
  queries: Type.Array(Query, {
    minItems: 1,
    maxItems: MAX_COMPANY_MATCH_QUERIES,
    description: 'Names to match, answered in order',
  }),
  threshold: Described(threshold, 'Score the match needs (default 0.8)'),
  limit: Described(limit, 'Candidates per query'),
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
      inputSchema: Input,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(log, 'match_companies', async () =>
        success(CompanyMatchResponse, await services.companyMatch.match(args)),
      ),
  );
};
