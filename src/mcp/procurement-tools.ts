// search_procurement: GET /api/procurement as an MCP tool, with Orakel's parameters (status
// "ACTIVE", deadlineAfter, a CPV code or prefix) and the rest of the REST filters.
import { Type } from 'typebox';
import * as z from 'zod';
import { PROCUREMENT_STATUSES } from '../contract/procurement.ts';
import { Page } from '../contract/pagination.ts';
import { Cursor, Limit, NorwegianOrgNumber, Order, runTool, success, type ToolGroup } from './tool-kit.ts';

const NoticePage = Page(Type.Ref('ProcurementNotice'));
const Instant = z
  .string()
  .regex(
    /^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9:]+)?)?$/,
    'must be an ISO date (YYYY-MM-DD) or date-time',
  );

export const procurementTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'search_procurement',
    {
      title: 'Public procurement notices',
      description:
        "Tenders and awards from Doffin (Norway) and TED (Nordic buyers), newest first by default. status ACTIVE = open for tenders (deadline ahead); AWARDED results name winners with org numbers and values. orgNumber with role buyer finds a public buyer's tenders, with role winner the contracts a company won. Cursor-paginated.",
      inputSchema: {
        orgNumber: NorwegianOrgNumber.optional(),
        role: z
          .enum(['buyer', 'winner'])
          .optional()
          .describe('With orgNumber: as buyer or as winner (default: either)'),
        status: z.enum(PROCUREMENT_STATUSES).optional(),
        cpv: z
          .string()
          .regex(/^[0-9]{2,8}$/, 'must be 2 to 8 digits')
          .optional()
          .describe('CPV code or prefix, e.g. 72 (IT services) or 90911200'),
        deadlineAfter: Instant.optional().describe('Tender deadline after this date'),
        publishedAfter: Instant.optional().describe('Published after this date'),
        q: z.string().min(2).max(200).optional().describe('Words of the title'),
        country: z.enum(['NO', 'SE', 'DK', 'FI', 'IS']).optional().describe("The buyer's country"),
        sort: z.enum(['publishedAt', 'deadline', 'value']).optional(),
        order: Order,
        limit: Limit,
        cursor: Cursor,
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(log, 'search_procurement', async () =>
        success(NoticePage, await services.procurement.list(caller, args)),
      ),
  );
};
