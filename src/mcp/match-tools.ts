// match_companies: company names, web domains or e-mail addresses to organisation numbers
// (POST /api/companies/match).
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
  name: Trimmed(Described(m.name, 'Company name as you have it; or give domain or email instead')),
  domain: Trimmed(
    Described(m.domain, 'Web domain, hostname or URL of the company (reduced to its registrable domain)'),
  ),
  email: Trimmed(
    Described(
      m.email,
      'An e-mail address of the company (e.g. a sender); free-mail domains match nothing, with a reason',
    ),
  ),
  country: m.country,
  municipality: Trimmed(m.municipality),
  city: Trimmed(m.city),
  postalCode: m.postalCode,
  address: Trimmed(m.address),
  website: Trimmed(Described(m.website, 'Website or domain')),
  orgForm: m.orgForm,
  includeInactive: Described(m.includeInactive, 'Score deleted and dissolved companies as live ones (else 0.15 less)'),
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
        'and organisation form) into organisation numbers across NO, SE, FI and DK, using current and former names. A query ' +
        'may give a web domain or an e-mail address instead of the name: ranked by the registry homepage, the enrichment ' +
        "pipeline's confirmed domains and the name's likeness to the domain; a free-mail or ISP address (gmail.com, online.no, " +
        '…) matches nothing and the result says why (`reason`). Per query: ' +
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
