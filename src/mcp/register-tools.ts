// Register tools: search_inspections (Mattilsynet), search_licenses (TBR), list_municipalities
// (SSB Klass): GET /api/inspections, /api/licenses, /api/municipalities.
import { Type } from 'typebox';
import { StringEnum } from '../contract/common.ts';
import { INSPECTION_SORTS, InspectionFilters, InspectionsPage } from '../contract/inspections.ts';
import { LICENSE_SORTS, LicenseFilters, LicensesPage } from '../contract/licenses.ts';
import { Municipalities } from '../contract/municipalities.ts';
import { Cursor, Described, Limit, NorwegianOrgNumber, Order, runTool, success, type ToolGroup } from './tool-kit.ts';

// The REST filters (GET /api/inspections, /api/licenses), in the tools' own words; a pasted
// org number is trimmed; sort, order and limit have no default here (the service applies it).
const insp = InspectionFilters.properties;
const InspectionInput = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  minRating: Described(insp.minRating, 'Lowest totalRating, inclusive'),
  maxRating: Described(insp.maxRating, 'Highest totalRating, inclusive'),
  postnr: insp.postnr,
  fromDate: Described(insp.fromDate, 'Visits on or after this day'),
  toDate: Described(insp.toDate, 'Visits on or before this day'),
  sort: Type.Optional(StringEnum(INSPECTION_SORTS)),
  order: Order,
  limit: Limit,
  cursor: Cursor,
});
const lic = LicenseFilters.properties;
const LicenseInput = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  registerType: lic.registerType,
  licenseTypeCode: Described(lic.licenseTypeCode, 'e.g. 01SKJE on-premise serving, 11ENGR wholesale'),
  municipalityNo: lic.municipalityNo,
  activeOnly: Described(lic.activeOnly, 'Only licences whose validTo is in the future'),
  sort: Type.Optional(StringEnum(LICENSE_SORTS)),
  order: Order,
  limit: Limit,
  cursor: Cursor,
});
const MunicipalityInput = Type.Object({
  county: Type.Optional(Type.String({ pattern: '^[0-9]{2}$' })),
});

export const registerTools: ToolGroup = (server, { services, reference, caller, log }) => {
  server.registerTool(
    'search_inspections',
    {
      title: 'Food-safety inspections',
      description:
        "Mattilsynet's smilefjes inspections in Norway, newest first by default. totalRating runs from 0 (best) to 3 (worst). Cursor-paginated.",
      inputSchema: InspectionInput,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(log, 'search_inspections', async () =>
        success(InspectionsPage, await services.inspections.list(caller, args)),
      ),
  );

  server.registerTool(
    'search_licenses',
    {
      title: 'Alcohol and tobacco licences',
      description:
        "Licences from Helsedirektoratet's register (Norway), newest validFrom first by default. Cursor-paginated.",
      inputSchema: LicenseInput,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(log, 'search_licenses', async () => success(LicensesPage, await services.licenses.list(caller, args))),
  );

  server.registerTool(
    'list_municipalities',
    {
      title: 'Norwegian municipalities',
      description:
        'Municipalities grouped by county (2024 structure), for the county and municipality filters of search_companies. Norway only.',
      inputSchema: MunicipalityInput,
      annotations: { readOnlyHint: true },
    },
    ({ county }) =>
      runTool(log, 'list_municipalities', async () =>
        success(Municipalities, { data: reference.municipalityGroups(county) }),
      ),
  );
};
