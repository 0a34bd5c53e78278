// GET /api/companies: the search filters, defined once. The REST query, the MCP search tools'
// inputs (search_companies, find_prospects) and the store's filter type all derive from them.
import { Type, type Static } from 'typebox';
import { StringEnum } from './common.ts';
import { COMPANY_ROW_EXAMPLE, pageExample } from './examples.ts';
import { CursorParam, LimitParam, OrderParam, Page } from './pagination.ts';

export const SEARCH_COUNTRIES = ['NO', 'FI', 'SE', 'DK'] as const;
export const SEARCH_SORTS = ['name', 'employeeCount', 'foundingDate', 'updatedAt'] as const;

/** What narrows the result set (country scopes it; the rest are the filters of the free-tier rule). */
export const CompanySearchFilters = Type.Object({
  country: Type.Optional(StringEnum(SEARCH_COUNTRIES, { description: 'Scope to one registry' })),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Case-insensitive name match: substring from 3 characters, name prefix for 1–2 characters',
      examples: ['equinor'],
    }),
  ),
  nace: Type.Optional(
    Type.String({
      pattern: '^[0-9]{2}(\\.[0-9]{1,3})?$',
      description: 'NACE code or prefix, e.g. 56, 56.1, 56.101',
      examples: ['06.1'],
    }),
  ),
  orgForm: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9]{1,10}$', description: 'Legal form code, e.g. AS, ASA, ENK, AB, 16' }),
  ),
  municipality: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: '4-digit municipality number (NO)' })),
  county: Type.Optional(Type.String({ pattern: '^[0-9]{2}$', description: '2-digit county number (NO)' })),
  minEmployees: Type.Optional(Type.Integer({ minimum: 0 })),
  maxEmployees: Type.Optional(Type.Integer({ minimum: 0 })),
  minRevenue: Type.Optional(
    Type.Number({
      description:
        "On the latest financial, in the currency of the company's country: NOK (NO), EUR (FI), SEK (SE), DKK (DK); no conversion, so combine it with country",
    }),
  ),
  maxRevenue: Type.Optional(
    Type.Number({
      description:
        "On the latest financial, in the currency of the company's country: NOK (NO), EUR (FI), SEK (SE), DKK (DK); no conversion, so combine it with country",
    }),
  ),
  isBankrupt: Type.Optional(Type.Boolean()),
  marketingProtected: Type.Optional(
    Type.Boolean({
      description:
        'false: leave out companies that declined advertising (DK reklamebeskyttet, SE reklamspärr); companies of countries without such a register (NO, FI) stay in. true: only those that declined.',
    }),
  ),
  isInGroup: Type.Optional(Type.Boolean()),
  hasParent: Type.Optional(Type.Boolean({ description: 'true: parentOrgNumber is set' })),
  hasTechnology: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Exact technology name, e.g. WordPress, Shopify' }),
  ),
  hasAnyAdPixel: Type.Optional(Type.Boolean()),
  domain: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 253,
      description:
        'Company by web domain: a domain, hostname or URL, reduced to its registrable domain over the Public Suffix ' +
        'List ("https://www.example.no/kontakt" and "shop.example.no" both mean example.no). Matches companies whose ' +
        'registry homepage, primaryDomain or enrichedDomains lie in that domain. Not a domain: 400. A free-mail or ISP ' +
        'domain (gmail.com, online.no, …) identifies no company and returns an empty page.',
      examples: ['example.no'],
    }),
  ),
  includeDeleted: Type.Optional(
    Type.Boolean({ description: 'Also return deleted/deregistered companies (default false)' }),
  ),
});
export type CompanySearchFilters = Static<typeof CompanySearchFilters>;

export const CompanySearchQuery = Type.Object({
  ...CompanySearchFilters.properties,
  include: Type.Optional(StringEnum(['context'] as const, { description: 'Append aggregate context per row' })),
  sort: Type.Optional(StringEnum(SEARCH_SORTS, { default: 'name' })),
  order: OrderParam('asc'),
  limit: LimitParam,
  cursor: CursorParam,
});
export type CompanySearchQuery = Static<typeof CompanySearchQuery>;

export const CompanySearchPage = Page(Type.Ref('CompanyRow'), { examples: [pageExample(COMPANY_ROW_EXAMPLE)] });
