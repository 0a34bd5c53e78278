// GET /api/inspections: the inspection row, the query and the page. (Licence rows reuse the `License` schema of
// company records, so a licence has one shape in lists and on companies.)
import { Type, type Static, type TSchema } from 'typebox';
import { NorwegianOrgNumber, StringEnum } from './common.ts';
import { INSPECTION_EXAMPLE, pageExample } from './examples.ts';
import { CursorParam, LimitParam, OrderParam, Page } from './pagination.ts';

// Nullable scalars as JSON Schema type arrays, as in company.ts: the serializer writes them
// directly instead of trying anyOf branches for every value.
function N<T extends TSchema>(t: T) {
  const { type, ...rest } = t as unknown as { type: string };
  return Type.Unsafe<import('typebox').Static<T> | null>({ ...rest, type: [type, 'null'] });
}
const Str = N(Type.String());

const Theme = Type.Object({
  number: Type.Integer({ minimum: 1, maximum: 4 }),
  nameNo: Str,
  nameNn: Str,
  grade: N(
    Type.Integer({ minimum: 0, maximum: 5, description: '0 no breach … 3 serious; 4 not applicable, 5 not assessed' }),
  ),
  applicable: Type.Boolean({ description: 'false for grade 4 (ikke aktuelt)' }),
  assessed: Type.Boolean({ description: 'true when graded 0–3' }),
});

export const Inspection = Type.Object({
  id: Type.String(),
  orgNumber: N(
    Type.String({
      description: 'As Mattilsynet gives it (venue or legal entity); null when blank or invalid upstream',
    }),
  ),
  name: Type.String(),
  postnr: N(Type.String({ description: '4-digit postal code' })),
  totalRating: Type.Integer({ minimum: 0, maximum: 3, description: '0 best … 3 worst' }),
  date: Type.String({ format: 'date-time', description: 'Day of the visit, midnight UTC' }),
  office: N(Type.String({ description: 'Mattilsynet region, derived from the municipality' })),
  municipality: N(Type.String({ description: 'Municipality name, from the postal code' })),
  municipalityNo: N(Type.String({ description: '4-digit municipality number, from the postal code' })),
  upstreamId: Type.String({ description: "Mattilsynet's tilsynid" }),
  venueId: N(Type.String({ description: "Mattilsynet's tilsynsobjektid (the venue)" })),
  address: Str,
  poststed: Str,
  inspectionType: N(Type.String({ description: 'ordinary or follow-up (oppfølgingstilsyn)' })),
  themes: Type.Array(Theme),
});

// ---- GET /api/inspections: the filters (the store's and the MCP tool's too), sort and page ----

export const INSPECTION_SORTS = ['date', 'totalRating', 'name'] as const;

const Rating = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description }));
const IsoDate = (description: string) =>
  Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description }));

export const InspectionFilters = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  minRating: Rating('Lowest totalRating, inclusive (0 best … 3 worst)'),
  maxRating: Rating('Highest totalRating, inclusive'),
  postnr: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: '4-digit postal code' })),
  fromDate: IsoDate('Visits on or after this day (YYYY-MM-DD)'),
  toDate: IsoDate('Visits on or before this day (YYYY-MM-DD)'),
});
export type InspectionFilters = Static<typeof InspectionFilters>;

export const InspectionsQuery = Type.Object({
  ...InspectionFilters.properties,
  sort: Type.Optional(StringEnum(INSPECTION_SORTS, { default: 'date' })),
  order: OrderParam('desc'),
  limit: LimitParam,
  cursor: CursorParam,
});
export type InspectionsQuery = Static<typeof InspectionsQuery>;

export const InspectionsPage = Page(Inspection, { examples: [pageExample(INSPECTION_EXAMPLE)] });
