// find_prospects: GET /api/companies sorted by size (employeeCount, largest first) with the
// search filters, each candidate as a short row plus its latest financial statement — what a
// prospecting agent ranks and reads without one lookup per company.
import { Type } from 'typebox';
import { compactRow, reshapedPage, SEARCH_FILTERS, type Row } from './company-tools.ts';
import { Country, Cursor, Limit, runTool, type ToolGroup } from './tool-kit.ts';

const ProspectInput = Type.Object({ country: Country, ...SEARCH_FILTERS, limit: Limit, cursor: Cursor });

type Financial = Record<string, unknown> & { periodTo?: string };

/** The latest statement's figures (the row's first financial: newest first). */
function latestFinancial(r: Row) {
  const f = (r.financials?.[0] ?? undefined) as Financial | undefined;
  if (!f) return null;
  return {
    year: f.periodTo ? Number(f.periodTo.slice(0, 4)) : null,
    currency: f.currency ?? null,
    revenue: f.revenue ?? null,
    operatingProfit: f.operatingProfit ?? null,
    netResult: f.netResult ?? null,
    equity: f.equity ?? null,
    totalAssets: f.totalAssets ?? null,
    profitMargin: f.profitMargin ?? null,
    revenueGrowthYoY: f.revenueGrowthYoY ?? null,
  };
}

export const prospectTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'find_prospects',
    {
      title: 'Find prospects',
      description:
        'Candidate companies for sales prospecting: the search_companies filters, sorted by size (employeeCount, largest first), ' +
        'each as a short row (name, form, industry, size, city, domain, status) with latestFinancial (year, revenue, operatingProfit, ' +
        'netResult, equity, totalAssets, margins; null when no accounts are filed). Cursor-paginated like search_companies ' +
        '(GET /api/companies?sort=employeeCount&order=desc). Free keys must give at least one filter.',
      inputSchema: ProspectInput,
      annotations: { readOnlyHint: true },
    },
    ({ query, ...rest }) =>
      runTool(log, 'find_prospects', async () => {
        const page = await services.search.search(caller, { ...rest, q: query, sort: 'employeeCount', order: 'desc' });
        return reshapedPage(page, (r) => ({ ...compactRow(r), latestFinancial: latestFinancial(r) }));
      }),
  );
};
