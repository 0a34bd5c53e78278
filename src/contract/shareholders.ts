// Shareholder rows (SPEC "Shareholder position row" / "Shareholder holding row") and the group
// tree. Inline schemas (no $id): only the routes of this area use them.
import { Type, type Static, type TSchema } from 'typebox';
import { StringEnum } from './common.ts';
import { GROUP_EXAMPLE, HOLDINGS_EXAMPLE, SHAREHOLDERS_EXAMPLE } from './examples.ts';

const N = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** The countries with an owner register we serve: Aksjonærregisteret (NO) and CVR's (DK). */
export const OwnershipCountry = StringEnum(['NO', 'DK'] as const, { default: 'NO' });

/** Path parameter of the ownership routes: a NO organisation number or a DK CVR number. */
export const OwnershipOrgNumberParams = Type.Object({
  orgNumber: Type.String({
    pattern: '^[0-9]{8,9}$',
    description: 'NO: 9-digit organisation number; DK: 8-digit CVR number',
  }),
});

export const Year = Type.Integer({
  minimum: 2000,
  maximum: 2100,
  description: 'Register year (the snapshot as of 31 December)',
});

const PctRange = Type.Object(
  { low: Type.Number(), high: Type.Number() },
  {
    description:
      "DK only: the band CVR registers the owner's share in (EJERANDEL_PROCENT), in percent; ownershipPct is its lower bound",
  },
);

const NO_ONLY = (description: string) => ({ description: `${description}; NO only (CVR registers no share counts)` });

export const ShareholderPosition = Type.Object({
  shareholderName: N(Type.String()),
  shareholderOrgNumber: Type.Optional(
    N(Type.String({ description: 'Company holders; null for foreign holders, absent for natural persons' })),
  ),
  shareholderType: Type.String({
    enum: ['company', 'person', 'foreign', 'other'],
    description: 'other (DK): an owner that is neither a person nor a company with a CVR number',
  }),
  shareholderBirthYear: Type.Optional(
    N(Type.Integer({ description: 'NO natural persons only (includePersons=true); never a full birth date' })),
  ),
  postalCode: Type.Optional(N(Type.String({ description: 'Entity holders only' }))),
  location: Type.Optional(N(Type.String({ description: 'Entity holders only' }))),
  countryCode: Type.Optional(N(Type.String({ description: 'Entity holders only (ISO 3166-1 alpha-2)' }))),
  shareClass: Type.Optional(Type.String(NO_ONLY('Share class'))),
  shareCount: Type.Optional(Type.Integer(NO_ONLY('Shares held'))),
  totalSharesInCompany: Type.Optional(
    Type.Integer(NO_ONLY('Shares of the class; the sum of the stored positions when the register gives none')),
  ),
  year: Type.Optional(Type.Integer(NO_ONLY('Register year'))),
  ownershipPct: Type.Number({
    description:
      'NO: shareCount / totalSharesInCompany × 100, computed at read time; DK: the lower bound of ownershipPctRange',
  }),
  ownershipPctRange: Type.Optional(PctRange),
});

export const ShareholderHolding = Type.Object({
  orgNumber: Type.String(),
  companyName: N(Type.String({ description: 'Null only for a Danish company that is not in the store' })),
  orgFormCode: N(Type.String()),
  employeeCount: N(Type.Integer()),
  shareClass: Type.Optional(Type.String(NO_ONLY('Share class'))),
  shareCount: Type.Optional(Type.Integer(NO_ONLY('Shares held'))),
  totalSharesInCompany: Type.Optional(Type.Integer(NO_ONLY('Shares of the class'))),
  year: Type.Optional(Type.Integer(NO_ONLY('Register year'))),
  ownershipPct: Type.Number({
    description:
      'The holder’s share of the company; with transitive=true the effective share (effectivePct, DK its lower bound)',
  }),
  ownershipPctRange: Type.Optional(PctRange),
  effectivePct: Type.Optional(
    N(
      Type.Number({
        description:
          'transitive=true: the product of the shares along each path, summed over paths; null when banded (DK)',
      }),
    ),
  ),
  effectivePctRange: Type.Optional(
    Type.Object(
      { low: Type.Number(), high: Type.Number() },
      { description: 'transitive=true, DK: the band the effective share lies in' },
    ),
  ),
  controls: Type.Optional(
    N(
      Type.Boolean({
        description: 'transitive=true: a majority at every step of some path; null when a band cannot tell',
      }),
    ),
  ),
  depth: Type.Optional(
    Type.Integer({ description: 'transitive=true: the fewest layers on any path (1: held directly)' }),
  ),
  pathCount: Type.Optional(
    Type.Integer({ description: 'transitive=true: paths to this company (at most 20 are listed)' }),
  ),
  paths: Type.Optional(
    Type.Array(
      Type.Array(
        Type.Object({
          orgNumber: Type.String({ description: 'The company held at this step' }),
          name: N(Type.String()),
          pct: N(Type.Number({ description: 'The share held in it by the step before; null when banded (DK)' })),
          pctRange: Type.Optional(PctRange),
          year: N(Type.Integer({ description: 'Its register year (NO); null for DK' })),
          shareClass: N(Type.String()),
        }),
      ),
      { description: 'transitive=true: each path from the holder down to this company' },
    ),
  ),
});

const nodeFields = {
  orgNumber: Type.String(),
  name: Type.String(),
  orgFormCode: N(Type.String()),
  employeeCount: N(Type.Integer()),
};

const GroupNode = Type.Cyclic(
  { GroupNode: Type.Object({ ...nodeFields, children: Type.Array(Type.Ref('GroupNode')) }) },
  'GroupNode',
);

/** GET /api/companies/{orgNumber}/group: whose register the parents come from. */
export const GroupQuery = Type.Object({ country: Type.Optional(OwnershipCountry) });

export const GroupTree = Type.Object(
  {
    root: GroupNode,
    totalMembers: Type.Integer({ description: 'Members in this tree (at most 500)' }),
    truncated: Type.Optional(Type.Boolean({ description: 'Present (true) when the group has more than 500 members' })),
    message: Type.Optional(Type.String({ description: 'Set for a company with no parent and no subsidiaries' })),
    _sources: Type.Object({
      attribution: Type.Array(Type.String()),
      fields: Type.Object({ companyCore: Type.String(), groupHierarchy: Type.String() }),
    }),
  },
  { examples: [GROUP_EXAMPLE] },
);

// ---- GET /api/companies/{orgNumber}/shareholders and GET /api/shareholders/by-owner ----

/** Set on an empty answer when a register year is not loaded: says which years are. */
const EmptyNote = Type.String({
  description:
    'Why `data` is empty when the reason is what this server holds: no register year loaded, or the asked year is not loaded (the loaded years are named), e.g. "Register year 2019 is not loaded on this server; loaded years: 2024, 2023". Absent otherwise.',
});

export const ShareholdersQuery = Type.Object({
  country: Type.Optional(OwnershipCountry),
  year: Type.Optional(Year),
  includePersons: Type.Optional(Type.Boolean({ default: false })),
});

export const ShareholderPositions = Type.Object(
  {
    data: Type.Array(ShareholderPosition),
    availableYears: Type.Array(Type.Integer(), {
      description: 'Years with data for this company, newest first',
    }),
    note: Type.Optional(EmptyNote),
  },
  { examples: [SHAREHOLDERS_EXAMPLE] },
);

export const HoldingsQuery = Type.Object({
  shareholderOrgNumber: Type.String({
    pattern: '^[0-9]{8,9}$',
    description: 'Organisation number of the holder: NO 9 digits, DK 8 digits (CVR)',
    examples: ['923609016'],
  }),
  country: Type.Optional(OwnershipCountry),
  year: Type.Optional(Year),
  transitive: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Also every company held through the companies it holds, with the effective share and the paths',
    }),
  ),
  maxDepth: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 20, description: 'transitive=true: most layers walked down (default 10)' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description: 'transitive=true: rows per page (default 20, capped by tier)',
    }),
  ),
  cursor: Type.Optional(Type.String({ description: 'transitive=true: from a prior nextCursor' })),
});

export type HoldingsQuery = Static<typeof HoldingsQuery>;

export const ShareholderHoldings = Type.Object(
  {
    shareholderOrgNumber: Type.String(),
    data: Type.Array(ShareholderHolding),
    transitive: Type.Optional(Type.Boolean()),
    basis: Type.Optional(
      Type.Literal('shareholder-register', {
        description: 'transitive=true: derived from the shareholder registers, not a register of beneficial owners',
      }),
    ),
    year: Type.Optional(
      N(Type.Integer({ description: 'transitive=true: the register year walked (NO); null for DK' })),
    ),
    maxDepth: Type.Optional(Type.Integer()),
    totalCompanies: Type.Optional(Type.Integer({ description: 'transitive=true: companies reached in all pages' })),
    truncated: Type.Optional(
      Type.Boolean({ description: 'transitive=true: the walk stopped at its cap (2000 companies, 5000 paths)' }),
    ),
    cycle: Type.Optional(Type.Boolean({ description: 'transitive=true: some path came back to a company on it' })),
    nextCursor: Type.Optional(N(Type.String())),
    hasMore: Type.Optional(Type.Boolean()),
    note: Type.Optional(EmptyNote),
  },
  { examples: [HOLDINGS_EXAMPLE] },
);
