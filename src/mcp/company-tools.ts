// Company tools: lookup_company, search_companies, get_financials, get_corporate_group
// (GET /api/companies/{orgNumber}, GET /api/companies, …/group).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Type } from 'typebox';
import type { Country as CountryCode } from '../domain/org-number.ts';
import { ApiError } from '../errors.ts';
import { StringEnum } from '../contract/common.ts';
import { CompanySearchFilters, CompanySearchPage, SEARCH_SORTS } from '../contract/company-search.ts';
import { GroupTree } from '../contract/shareholders.ts';
import { ownershipCountry } from './ownership-tools.ts';
import {
  Country,
  Cursor,
  Defaulted,
  Described,
  Limit,
  OwnershipOrgNumber,
  Order,
  OrgNumber,
  runTool,
  success,
  type ToolGroup,
} from './tool-kit.ts';

const Lookup = Type.Ref('CompanyLookup');
const SearchPage = CompanySearchPage;
const Financials = Type.Object({
  orgNumber: Type.String(),
  country: Type.String(),
  name: Type.String(),
  financials: Type.Array(Type.Ref('Financial')),
  _sources: Type.Ref('Sources'),
});

export type Row = Record<string, unknown> & { financials?: { periodTo?: string; revenue?: number | null }[] };

/**
 * The filters of GET /api/companies (its contract), as Orakel's tools name them: `query`, not
 * `q`; `country` defaults to NO; deleted companies stay out, as the tools never offered them.
 */
const { country: _country, q, includeDeleted: _deleted, ...filters } = CompanySearchFilters.properties;
export const SEARCH_FILTERS = {
  query: Described(q, 'Case-insensitive name match'),
  ...filters,
  hasTechnology: Described(filters.hasTechnology, 'Exact technology name, e.g. WordPress'),
};

const CompanyInput = Type.Object({ orgNumber: OrgNumber, country: Country });
const GroupInput = Type.Object({ orgNumber: OwnershipOrgNumber, country: Country });
const SearchInput = Type.Object({
  country: Country,
  ...SEARCH_FILTERS,
  compact: Defaulted(Type.Boolean({ default: false, description: 'Short rows instead of full rows' })),
  sort: Type.Optional(StringEnum(SEARCH_SORTS)),
  order: Order,
  limit: Limit,
  cursor: Cursor,
});

/** A search page (cut to the REST schema) with each row reshaped: compact rows, prospects. */
export function reshapedPage(page: unknown, shape: (r: Row) => object): CallToolResult {
  const shaped = success(SearchPage, page).structuredContent as {
    data: Row[];
    nextCursor: string | null;
    hasMore: boolean;
  };
  const out = { ...shaped, data: shaped.data.map(shape) };
  return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
}

/** A search row cut to what a reader scans a list for; the full row is one lookup away. */
export function compactRow(r: Row) {
  const latest = r.financials?.[0];
  return {
    orgNumber: r.orgNumber,
    country: r.country,
    name: r.name,
    orgFormCode: r.orgFormCode,
    naceCode1: r.naceCode1,
    naceDescription1: r.naceDescription1,
    employeeCount: r.employeeCount,
    city: r.businessAddressCity,
    municipalityName: r.municipalityName ?? null,
    primaryDomain: r.primaryDomain,
    isBankrupt: r.isBankrupt,
    isDeleted: r.isDeleted,
    parentOrgNumber: r.parentOrgNumber,
    revenue: latest?.revenue ?? null,
    revenueYear: latest?.periodTo ? Number(latest.periodTo.slice(0, 4)) : null,
  };
}

export const companyTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'lookup_company',
    {
      title: 'Look up a company',
      description:
        'The full record of one company: firmographics, addresses, NACE and legal form with labels (naceName, orgFormName, countryName), ' +
        'financials with ratios, active roles, sub-units, licences and _sources. A Norwegian company missing from the store is fetched ' +
        'live from Brønnøysundregistrene; Finnish and Swedish companies come from bulk syncs only.',
      inputSchema: CompanyInput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ orgNumber, country }) =>
      runTool(log, 'lookup_company', async () =>
        success(Lookup, await services.companies.lookup(country as CountryCode, orgNumber, { caller })),
      ),
  );

  server.registerTool(
    'search_companies',
    {
      title: 'Search companies',
      description:
        'Filter companies of one registry (country, default NO) by name and firmographics; sorted, cursor-paginated (pass nextCursor as ' +
        'cursor for the next page). Free keys must give at least one filter (country, sort, order, limit and cursor do not count). ' +
        'compact=true returns short rows (name, form, industry, size, city, latest revenue).',
      inputSchema: SearchInput,
      annotations: { readOnlyHint: true },
    },
    ({ query, compact, ...rest }) =>
      runTool(log, 'search_companies', async () => {
        const page = await services.search.search(caller, { ...rest, q: query });
        return compact ? reshapedPage(page, compactRow) : success(SearchPage, page);
      }),
  );

  server.registerTool(
    'get_financials',
    {
      title: 'Financial statements',
      description:
        'Annual accounts of one company (revenue, results, equity, assets, liabilities) with computed ratios, newest first.',
      inputSchema: CompanyInput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ orgNumber, country }) =>
      runTool(log, 'get_financials', async () => {
        const c = await services.companies.lookup(country as CountryCode, orgNumber, { caller });
        const fields = Object.fromEntries(
          Object.entries(c._sources.fields).filter(([k]) => k === 'financials' || k === 'financialRatios'),
        );
        const attribution = [...new Set(Object.values(fields).map((v) => (typeof v === 'string' ? v : v.source)))];
        return success(Financials, {
          orgNumber: c.orgNumber,
          country: c.country,
          name: c.name,
          financials: c.financials,
          _sources: { attribution, fields },
        });
      }),
  );

  server.registerTool(
    'get_corporate_group',
    {
      title: 'Corporate group tree',
      description:
        'The group around a Norwegian or Danish company (country NO or DK): up parent links at most 5 levels to the root, then every descendant (at most 500). ' +
        'DK parents are the legal owner over 50 % in CVR. The company must be in the store: call lookup_company first if it is not.',
      inputSchema: GroupInput,
      annotations: { readOnlyHint: true },
    },
    ({ orgNumber, country }) =>
      runTool(log, 'get_corporate_group', async () => {
        try {
          return success(GroupTree, await services.groups.tree(orgNumber, ownershipCountry(country)));
        } catch (err) {
          if (err instanceof ApiError && err.code === 'company_not_found') {
            throw new ApiError('company_not_found', {
              message: `Company ${orgNumber} is not in the store; call lookup_company first to fetch it`,
            });
          }
          throw err;
        }
      }),
  );
};
