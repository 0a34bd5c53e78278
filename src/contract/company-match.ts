// POST /api/companies/match: company names (with optional place, postcode, website, form), or a
// web domain or e-mail address, to ranked registry candidates with explained scores, and the
// auto-match when it is clear.
import { Type, type Static } from 'typebox';
import { MATCH_MARGIN, MATCH_THRESHOLD } from '../domain/company-match/score.ts';
import { DOMAIN_EVIDENCE } from '../domain/company-match/domain-score.ts';
import { NAME_LIKENESS_RULE } from '../domain/company-domain.ts';
import { StringEnum } from './common.ts';

export const MAX_COMPANY_MATCH_QUERIES = 100;
export const MAX_COMPANY_MATCH_CANDIDATES = 10;
export const MATCH_COUNTRIES = ['NO', 'SE', 'FI', 'DK'] as const;

const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, description });

export const CompanyMatchQuery = Type.Object(
  {
    name: Type.Optional(
      Text(
        300,
        'Company name as you have it (legal form, abbreviations and word order may differ). A query gives a name, a domain or an email',
      ),
    ),
    domain: Type.Optional(
      Text(
        253,
        'Web domain, hostname or URL instead of (or beside) the name: reduced to its registrable domain over the Public ' +
          'Suffix List ("https://www.example.no/x", "shop.example.no" -> example.no) and matched against the registry ' +
          'homepage and the domains the enrichment pipeline confirmed',
      ),
    ),
    email: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 320,
        description:
          "E-mail address (e.g. a sender's) instead of a domain: its domain part is matched as `domain` is. Free-mail and ISP " +
          'domains (gmail.com, outlook.com, online.no, live.se, …) match nothing, with `reason`. `domain` wins when both are given',
      }),
    ),
    country: Type.Optional(StringEnum(MATCH_COUNTRIES, { description: 'Only candidates of this country' })),
    municipality: Type.Optional(Text(100, 'Municipality name')),
    city: Type.Optional(Text(100, 'City or post town')),
    postalCode: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z -]{3,10}$', description: 'Postal code' })),
    address: Type.Optional(Text(200, 'Street address (echoed; place and postcode are compared)')),
    website: Type.Optional(Text(200, 'Website or domain, e.g. "https://www.example.no" or "example.no"')),
    orgForm: Type.Optional(
      Type.String({ pattern: '^[0-9A-Za-z]{1,10}$', description: 'Organisation form code, e.g. AS, ENK, AB, 16' }),
    ),
    includeInactive: Type.Optional(
      Type.Boolean({
        description:
          'Score deleted, dissolved and bankrupt companies as live ones (default false: they score 0.15 less)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CompanyMatchQuery = Static<typeof CompanyMatchQuery>;

export const CompanyMatchBody = Type.Object(
  {
    queries: Type.Array(CompanyMatchQuery, {
      minItems: 1,
      maxItems: MAX_COMPANY_MATCH_QUERIES,
      description: `1–${MAX_COMPANY_MATCH_QUERIES} names; results come back in the same order`,
    }),
    threshold: Type.Optional(
      Type.Number({
        minimum: 0.5,
        maximum: 1,
        description: `Score the top candidate needs to be the match (default ${MATCH_THRESHOLD}); it must also lead the second by ${MATCH_MARGIN}`,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_COMPANY_MATCH_CANDIDATES,
        description: 'Candidates per query (default 5)',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ queries: [{ name: 'Fjord Bygg', city: 'Bergen', country: 'NO' }, { name: 'Nordlys Eiendom AS' }] }],
  },
);
export type CompanyMatchBody = Static<typeof CompanyMatchBody>;

const AGREEMENT = ['match', 'mismatch', 'unknown'] as const;
const Agreement = (description: string) => StringEnum(AGREEMENT, { description });

const MatchFeatures = Type.Object({
  nameSimilarity: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'Word-aligned name similarity after legal-form and abbreviation normalisation',
  }),
  matchedName: Type.String({ description: 'The registry name that matched (current or former)' }),
  formerName: Type.Boolean({ description: 'The name matched is a former name' }),
  place: Agreement('City or municipality against the business and postal addresses'),
  postalCode: Agreement('Postal code against the business and postal addresses'),
  domain: Agreement('Website domain against the registered website and detected domains'),
  orgForm: Agreement('Organisation form code'),
  status: Type.String({ description: 'active, deleted, bankrupt, dissolving, or the registry status' }),
  adjustments: Type.Array(Type.Object({ feature: Type.String(), delta: Type.Number() }), {
    description:
      'Score changes beside the name (0.9 × nameSimilarity). In a query by domain or e-mail without a name they are the ' +
      `whole score: homepage +${DOMAIN_EVIDENCE.homepage}, enrichedDomain +${DOMAIN_EVIDENCE.enrichedDomain}, nameLikeness ` +
      `${DOMAIN_EVIDENCE.nameLikeness} × domainEvidence.nameLikeness, then place, postalCode, orgForm and status`,
  }),
  domainEvidence: Type.Optional(
    Type.Object(
      {
        domain: Type.String({ description: 'The registrable domain the query was matched by' }),
        homepage: Type.Boolean({ description: "The registry's homepage lies in the domain" }),
        enrichedDomain: Type.Boolean({
          description: 'The enrichment pipeline confirmed the domain (primaryDomain or enrichedDomains)',
        }),
        nameLikeness: Type.Number({
          minimum: 0,
          maximum: 1,
          description: `How much the name looks like the domain: ${NAME_LIKENESS_RULE}`,
        }),
      },
      { description: 'Present when the query gives a domain, an e-mail address, or a website' },
    ),
  ),
});

export const MatchCandidate = Type.Object({
  orgNumber: Type.String(),
  country: Type.String(),
  name: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  features: MatchFeatures,
});
export type MatchCandidate = Static<typeof MatchCandidate>;

export const MATCH_REASONS = ['free_mail_domain', 'work_budget_exhausted', 'lookup_timed_out'] as const;
export type MatchReasonCode = (typeof MATCH_REASONS)[number];
export const MATCH_STATUSES = ['done', 'not_attempted'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

const CompanyMatchResult = Type.Object({
  query: CompanyMatchQuery,
  status: StringEnum(MATCH_STATUSES, {
    description:
      'done: the query was looked up and its candidates ranked. not_attempted: the work bound of the call was ' +
      'reached before this query was looked up (no candidates; `reason` says which bound): send it again, in a ' +
      'call with fewer names. The call still answers 200 with the results of the queries that were done',
  }),
  domain: Type.Optional(
    Type.String({ description: 'The registrable domain the query was matched by (from domain, email or website)' }),
  ),
  reason: Type.Optional(
    Type.Object(
      { code: StringEnum(MATCH_REASONS), message: Type.String() },
      {
        description:
          'Why a query matches nothing by design, or was not attempted: free_mail_domain = the domain is a free-mail or ' +
          'ISP domain, shared by unrelated people, so it identifies no company (no candidates are looked up by it); ' +
          'work_budget_exhausted = the store time (5 s) or the time (10 s) one call may spend on lookups was used up ' +
          'before this query ' +
          '(status not_attempted); lookup_timed_out = the lookup statement holding this query ran over its statement ' +
          'time (status not_attempted)',
      },
    ),
  ),
  match: Type.Union([MatchCandidate, Type.Null()], {
    description: 'The top candidate when its score clears the threshold with the margin, else null',
  }),
  candidates: Type.Array(MatchCandidate, {
    description:
      'Best first: by score, highest first, equal scores by orgNumber then country. `match`, when set, is the first. ' +
      'Deleted, dissolved and bankrupt companies score 0.15 less unless the query sets includeInactive',
  }),
});
type CompanyMatchResult = Static<typeof CompanyMatchResult>;

const CANDIDATE_EXAMPLE = {
  orgNumber: '923609016',
  country: 'NO',
  name: 'FJORD BYGG AS',
  score: 0.95,
  features: {
    nameSimilarity: 1,
    matchedName: 'FJORD BYGG AS',
    formerName: false,
    place: 'match',
    postalCode: 'unknown',
    domain: 'unknown',
    orgForm: 'unknown',
    status: 'active',
    adjustments: [{ feature: 'place', delta: 0.05 }],
  },
};

export const CompanyMatchResponse = Type.Object(
  {
    threshold: Type.Number(),
    results: Type.Array(CompanyMatchResult),
  },
  {
    examples: [
      {
        threshold: MATCH_THRESHOLD,
        results: [
          {
            query: { name: 'Fjord Bygg', city: 'Bergen', country: 'NO' },
            status: 'done',
            match: CANDIDATE_EXAMPLE,
            candidates: [CANDIDATE_EXAMPLE],
          },
          {
            query: { name: 'Общество с ограниченной ответственностью Северный Торговый Дом' },
            status: 'not_attempted',
            reason: {
              code: 'work_budget_exhausted',
              message:
                'the work budget of this call was used up before this name was looked up; send it again, in a call with fewer names',
            },
            match: null,
            candidates: [],
          },
        ],
      },
    ],
  },
);
