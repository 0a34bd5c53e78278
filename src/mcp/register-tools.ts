// Register tools: search_inspections (Mattilsynet), search_licenses (TBR), list_municipalities
// (SSB Klass): GET /api/inspections, /api/licenses, /api/municipalities.
import { Type } from 'typebox';
import * as z from 'zod';
import { Inspection } from '../contract/inspections.ts';
import { Page } from '../contract/pagination.ts';
import { Cursor, Limit, NorwegianOrgNumber, Order, runTool, success, type ToolGroup } from './tool-kit.ts';

const InspectionPage = Page(Inspection);
const LicensePage = Page(Type.Ref('License'));
const Municipalities = Type.Object({
  data: Type.Array(
    Type.Object({
      countyCode: Type.String(),
      countyName: Type.String(),
      municipalities: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
    }),
  ),
});
const Day = z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'must be YYYY-MM-DD');
const Rating = z.number().int().min(0).max(3).optional();

export const registerTools: ToolGroup = (server, { services, reference, caller, log }) => {
  server.registerTool(
    'search_inspections',
    {
      title: 'Food-safety inspections',
      description:
        "Mattilsynet's smilefjes inspections in Norway, newest first by default. totalRating runs from 0 (best) to 3 (worst). Cursor-paginated.",
      inputSchema: {
        orgNumber: NorwegianOrgNumber.optional(),
        minRating: Rating.describe('Lowest totalRating, inclusive'),
        maxRating: Rating.describe('Highest totalRating, inclusive'),
        postnr: z
          .string()
          .regex(/^[0-9]{4}$/, 'must be 4 digits')
          .optional(),
        fromDate: Day.optional().describe('Visits on or after this day'),
        toDate: Day.optional().describe('Visits on or before this day'),
        sort: z.enum(['date', 'totalRating', 'name']).optional(),
        order: Order,
        limit: Limit,
        cursor: Cursor,
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(log, 'search_inspections', async () =>
        success(InspectionPage, await services.inspections.list(caller, args)),
      ),
  );

  server.registerTool(
    'search_licenses',
    {
      title: 'Alcohol and tobacco licences',
      description:
        "Licences from Helsedirektoratet's register (Norway), newest validFrom first by default. Cursor-paginated.",
      inputSchema: {
        orgNumber: NorwegianOrgNumber.optional(),
        registerType: z.enum(['Alkoholsbevilling', 'Tobakksbevilling']).optional(),
        licenseTypeCode: z
          .string()
          .regex(/^[0-9A-Za-z]{1,16}$/)
          .optional()
          .describe('e.g. 01SKJE on-premise serving, 11ENGR wholesale'),
        municipalityNo: z
          .string()
          .regex(/^[0-9]{4}$/, 'must be 4 digits')
          .optional(),
        activeOnly: z.boolean().optional().describe('Only licences whose validTo is in the future'),
        sort: z.enum(['validFrom', 'validTo', 'venueName', 'municipality']).optional(),
        order: Order,
        limit: Limit,
        cursor: Cursor,
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(log, 'search_licenses', async () => success(LicensePage, await services.licenses.list(caller, args))),
  );

  server.registerTool(
    'list_municipalities',
    {
      title: 'Norwegian municipalities',
      description:
        'Municipalities grouped by county (2024 structure), for the county and municipality filters of search_companies. Norway only.',
      inputSchema: {
        county: z
          .string()
          .regex(/^[0-9]{2}$/, 'must be 2 digits, zero-padded (e.g. 03)')
          .optional(),
      },
      annotations: { readOnlyHint: true },
    },
    ({ county }) =>
      runTool(log, 'list_municipalities', async () =>
        success(Municipalities, { data: reference.municipalityGroups(county) }),
      ),
  );
};
