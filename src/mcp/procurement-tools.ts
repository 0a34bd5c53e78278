// search_procurement: GET /api/procurement as an MCP tool, with Orakel's parameters (status
// "ACTIVE", deadlineAfter, a CPV code or prefix) and the rest of the REST filters.
import { Type } from 'typebox';
import { StringEnum } from '../contract/common.ts';
import { PROCUREMENT_SORTS, ProcurementFilters, ProcurementPage } from '../contract/procurement.ts';
import { Cursor, Described, Limit, NorwegianOrgNumber, Order, runTool, success, type ToolGroup } from './tool-kit.ts';

const { role, status, cpv, q, country } = ProcurementFilters.properties;
// Looser than the REST pattern, as the tool has always accepted (the service parses the instant).
const Instant = (description: string) =>
  Type.Optional(
    Type.String({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9:]+)?)?$',
      description,
    }),
  );

const Input = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  role: Described(role, 'With orgNumber: as buyer or as winner (default: either)'),
  status,
  cpv: Described(cpv, 'CPV code or prefix, e.g. 72 (IT services) or 90911200'),
  deadlineAfter: Instant('Tender deadline after this date'),
  publishedAfter: Instant('Published after this date'),
  q: Described(q, 'Words of the title'),
  country,
  sort: Type.Optional(StringEnum(PROCUREMENT_SORTS)),
  order: Order,
  limit: Limit,
  cursor: Cursor,
});

export const procurementTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'search_procurement',
    {
      title: 'Public procurement notices',
      description:
        "Tenders and awards from Doffin (Norway) and TED (Nordic buyers), newest first by default. status ACTIVE = open for tenders (deadline ahead); AWARDED results name winners with org numbers and values. orgNumber with role buyer finds a public buyer's tenders, with role winner the contracts a company won. Cursor-paginated.",
      inputSchema: Input,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(log, 'search_procurement', async () =>
        success(ProcurementPage, await services.procurement.list(caller, args)),
      ),
  );
};
