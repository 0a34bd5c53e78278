// Procurement notices (Doffin, TED): the row of GET /api/procurement and GET
// /api/procurement/{noticeId}, the procurement fields of company records, and the list's query.
import { Type, type Static, type TSchema } from 'typebox';
import { NorwegianOrgNumber, StringEnum } from './common.ts';
import { pageExample } from './examples.ts';
import { PROCUREMENT_EXAMPLE } from './examples/procurement.ts';
import { CursorParam, LimitParam, OrderParam, Page } from './pagination.ts';

// Nullable scalars as JSON Schema type arrays (as in company.ts and inspections.ts).
function N<T extends TSchema>(t: T) {
  const { type, ...rest } = t as unknown as { type: string };
  return Type.Unsafe<import('typebox').Static<T> | null>({ ...rest, type: [type, 'null'] });
}
const Str = N(Type.String());
const Num = N(Type.Number());
const When = N(Type.String({ format: 'date-time' }));

export const PROCUREMENT_STATUSES = ['ACTIVE', 'CLOSED', 'AWARDED', 'CANCELLED'] as const;
const NOTICE_TYPES = ['competition', 'result', 'cancellation'] as const;

const Lot = Type.Object({
  lotId: Type.String(),
  title: Str,
  cpvCodes: Type.Array(Type.String()),
  estimatedValue: Num,
  currency: Str,
  deadline: When,
  nutsCodes: Type.Array(Type.String()),
});

const Winner = Type.Object({
  name: Str,
  orgNumber: N(Type.String({ description: 'Norwegian org number (valid mod-11); null for other ids' })),
  companyId: N(Type.String({ description: 'The company id as the notice writes it' })),
  country: N(Type.String({ description: 'ISO 3166 alpha-2' })),
  value: Num,
  currency: Str,
  lots: Type.Array(Type.String()),
});

export const ProcurementNotice = Type.Object(
  {
    noticeId: Type.String({ description: 'Doffin id (2026-107304), else the TED publication number (712345-2026)' }),
    doffinId: Str,
    tedId: Str,
    eformsId: Type.String({ description: 'eForms notice identifier (BT-701), the same in Doffin and TED' }),
    procedureId: Str,
    noticeType: Type.Union(NOTICE_TYPES.map((t) => Type.Literal(t))),
    noticeTypeCode: N(Type.String({ description: 'eForms notice type, e.g. cn-standard, can-standard' })),
    status: Type.Union(
      PROCUREMENT_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          'ACTIVE while the tender deadline is ahead, CLOSED after it, AWARDED once a result names a winner, CANCELLED',
      },
    ),
    title: Type.String(),
    description: Str,
    orgNumber: N(Type.String({ description: "The buyer's org number; null when the notice's is not a valid one" })),
    contractingAuthority: Str,
    country: N(Type.String({ description: "The buyer's country, ISO 3166 alpha-2" })),
    cpvCodes: Type.Array(Type.String()),
    procedureType: N(Type.String({ description: 'eForms procurement-procedure-type, e.g. open, restricted' })),
    publishedDate: When,
    deadline: When,
    estimatedValue: Num,
    currency: Str,
    awardedValue: Num,
    lots: Type.Array(Lot),
    placeOfPerformance: Type.Array(Type.String({ description: 'NUTS code' })),
    winners: Type.Array(Winner),
    url: Type.String({ description: "The notice's public page (Doffin, else TED)" }),
    sources: Type.Array(Type.String()),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'ProcurementNotice', examples: [PROCUREMENT_EXAMPLE] },
);

/** The procurement fields of a Norwegian company record. */
export const companyProcurementFields = {
  activeTenders: Type.Optional(
    Type.Integer({ description: 'Open competitions (deadline ahead, no result) with this company as buyer' }),
  ),
  latestTenderUrl: Type.Optional(N(Type.String({ description: "The company's latest competition notice as buyer" }))),
  awardedContracts: Type.Optional(
    Type.Object({
      count: Type.Integer({ description: 'Result notices naming this company as a winner' }),
      latest: N(
        Type.Object({
          noticeId: Type.String(),
          title: Type.String(),
          value: Num,
          currency: Str,
          publishedDate: When,
          url: Type.String(),
        }),
      ),
    }),
  ),
};

// ---- GET /api/procurement: the filters (the store's and the MCP tool's too), sort and page ----

export const PROCUREMENT_SORTS = ['publishedAt', 'deadline', 'value'] as const;
export const PROCUREMENT_COUNTRIES = ['NO', 'SE', 'DK', 'FI', 'IS'] as const;

const Instant = (description: string) =>
  Type.Optional(
    Type.String({
      pattern:
        '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$',
      description,
    }),
  );

export const ProcurementFilters = Type.Object({
  orgNumber: Type.Optional(NorwegianOrgNumber),
  role: Type.Optional(
    StringEnum(['buyer', 'winner'] as const, {
      description: 'With orgNumber: the company as buyer or as a winner (default: either)',
    }),
  ),
  status: Type.Optional(StringEnum(PROCUREMENT_STATUSES)),
  cpv: Type.Optional(
    Type.String({
      pattern: '^[0-9]{2,8}$',
      description: 'A CPV code or its prefix (2–8 digits), e.g. 909 or 90911200',
    }),
  ),
  deadlineAfter: Instant('Notices whose tender deadline is after this date or instant (ISO)'),
  publishedAfter: Instant('Notices published after this date or instant (ISO)'),
  q: Type.Optional(Type.String({ minLength: 2, maxLength: 200, description: 'Words of the title, case-insensitive' })),
  country: Type.Optional(StringEnum(PROCUREMENT_COUNTRIES, { description: "The buyer's country" })),
});
export type ProcurementFilters = Static<typeof ProcurementFilters>;

export const ProcurementQuery = Type.Object({
  ...ProcurementFilters.properties,
  sort: Type.Optional(StringEnum(PROCUREMENT_SORTS, { default: 'publishedAt' })),
  order: OrderParam('desc'),
  limit: LimitParam,
  cursor: CursorParam,
});
export type ProcurementQuery = Static<typeof ProcurementQuery>;

export const NoticeParams = Type.Object({
  noticeId: Type.String({
    pattern: '^[0-9A-Za-z-]{6,64}$',
    description: 'Doffin id (2026-107304), TED publication number (712345-2026) or eForms notice id (a UUID)',
  }),
});

const ProcurementPageShape = Page(Type.Ref('ProcurementNotice'));
export const ProcurementPage = Type.Object(
  {
    ...ProcurementPageShape.properties,
    note: Type.Optional(
      Type.String({
        description:
          'On an empty first page when no source that publishes such notices (Doffin for NO, TED for every country) has been loaded on this server, e.g. "No procurement source with SE notices (TED) has been loaded on this server (an operator runs ncd sync procurement)". Absent otherwise.',
      }),
    ),
  },
  { examples: [pageExample(PROCUREMENT_EXAMPLE)] },
);
