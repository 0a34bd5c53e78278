// Company tools: lookup_company, search_companies, get_financials, get_corporate_group
// (GET /api/companies/{orgNumber}, GET /api/companies, …/group).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Type } from 'typebox';
import * as z from 'zod';
import type { Country as CountryCode } from '../domain/org-number.ts';
import { ApiError } from '../errors.ts';
import { Page } from '../contract/pagination.ts';
import { GroupTree } from '../contract/shareholders.ts';
import { ownershipCountry } from './ownership-tools.ts';
import {
  Country,
  Cursor,
  Limit,
  OwnershipOrgNumber,
  Order,
  OrgNumber,
  runTool,
  success,
  type ToolGroup,
} from './tool-kit.ts';

const Lookup = Type.Ref('CompanyLookup');
const SearchPage = Page(Type.Ref('CompanyRow'));
const Financials = Type.Object({
  orgNumber: Type.String(),
  country: Type.String(),
  name: Type.String(),
  financials: Type.Array(Type.Ref('Financial')),
  _sources: Type.Ref('Sources'),
});

export type Row = Record<string, unknown> & { financials?: { periodTo?: string; revenue?: number | null }[] };

/** The filters of GET /api/companies, as Orakel's tools name them (`query`, not `q`). */
export const SEARCH_FILTERS = {
  query: z.string().min(1).max(200).optional().describe('Case-insensitive name match'),
  nace: z
    .string()
    .regex(/^[0-9]{2}(\.[0-9]{1,3})?$/, 'must be a NACE code or prefix such as 56 or 56.101')
    .optional(),
  orgForm: z
    .string()
    .regex(/^[A-Za-z0-9]{1,10}$/, 'must be a legal form code such as AS')
    .optional(),
  county: z
    .string()
    .regex(/^[0-9]{2}$/, 'must be 2 digits')
    .optional()
    .describe('2-digit county number (NO)'),
  municipality: z
    .string()
    .regex(/^[0-9]{4}$/, 'must be 4 digits')
    .optional()
    .describe('4-digit municipality number (NO)'),
  minEmployees: z.number().int().min(0).optional(),
  maxEmployees: z.number().int().min(0).optional(),
  minRevenue: z.number().optional().describe('NOK, on the latest financial'),
  maxRevenue: z.number().optional().describe('NOK, on the latest financial'),
  isBankrupt: z.boolean().optional(),
  isInGroup: z.boolean().optional(),
  hasParent: z.boolean().optional(),
  hasTechnology: z.string().min(1).max(100).optional().describe('Exact technology name, e.g. WordPress'),
  hasAnyAdPixel: z.boolean().optional(),
};

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
      inputSchema: { orgNumber: OrgNumber, country: Country },
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
      inputSchema: {
        country: Country,
        ...SEARCH_FILTERS,
        compact: z.boolean().default(false).describe('Short rows instead of full rows'),
        sort: z.enum(['name', 'employeeCount', 'foundingDate', 'updatedAt']).optional(),
        order: Order,
        limit: Limit,
        cursor: Cursor,
      },
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
      inputSchema: { orgNumber: OrgNumber, country: Country },
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
      inputSchema: { orgNumber: OwnershipOrgNumber, country: Country },
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
