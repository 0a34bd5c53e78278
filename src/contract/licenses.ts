// GET /api/licenses: the filters (the store's and the MCP tool's too), sort and page. A licence
// row is the `License` schema of company records (company.ts): one shape in lists and on companies.
import { Type, type Static } from 'typebox';
import { NorwegianOrgNumber, StringEnum } from './common.ts';
import { LICENSE_EXAMPLE, pageExample } from './examples.ts';
import { CursorParam, LimitParam, OrderParam, Page } from './pagination.ts';

export const LICENSE_REGISTER_TYPES = ['Alkoholsbevilling', 'Tobakksbevilling'] as const;
export const LICENSE_SORTS = ['validFrom', 'validTo', 'venueName', 'municipality'] as const;

export const LicenseFilters = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  registerType: Type.Optional(StringEnum(LICENSE_REGISTER_TYPES)),
  licenseTypeCode: Type.Optional(
    Type.String({
      pattern: '^[0-9A-Za-z]{1,16}$',
      description: 'e.g. 01SKJE (on-premise serving), 11ENGR (wholesale), 18TBIM, 19TBEK',
    }),
  ),
  municipalityNo: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: '4-digit municipality number' })),
  activeOnly: Type.Optional(
    Type.Boolean({
      description: 'true: only licences whose validTo is in the future (no validTo = open-ended = active)',
    }),
  ),
});
export type LicenseFilters = Static<typeof LicenseFilters>;

export const LicensesQuery = Type.Object({
  ...LicenseFilters.properties,
  sort: Type.Optional(StringEnum(LICENSE_SORTS, { default: 'validFrom' })),
  order: OrderParam('desc'),
  limit: LimitParam,
  cursor: CursorParam,
});
export type LicensesQuery = Static<typeof LicensesQuery>;

export const LicensesPage = Page(Type.Ref('License'), { examples: [pageExample(LICENSE_EXAMPLE)] });
