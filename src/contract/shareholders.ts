// Shareholder rows (SPEC "Shareholder position row" / "Shareholder holding row") and the group
// tree. Inline schemas (no $id): only the routes of this area use them.
import { Type, type TSchema } from 'typebox';
import { GROUP_EXAMPLE } from './examples.ts';

const N = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Year = Type.Integer({
  minimum: 2000,
  maximum: 2100,
  description: 'Register year (the snapshot as of 31 December)',
});

export const ShareholderPosition = Type.Object({
  shareholderName: N(Type.String()),
  shareholderOrgNumber: Type.Optional(
    N(Type.String({ description: 'Company holders; null for foreign holders, absent for natural persons' })),
  ),
  shareholderType: Type.String({ enum: ['company', 'person', 'foreign'] }),
  shareholderBirthYear: Type.Optional(
    N(Type.Integer({ description: 'Natural persons only (includePersons=true); never a full birth date' })),
  ),
  postalCode: Type.Optional(N(Type.String({ description: 'Entity holders only' }))),
  location: Type.Optional(N(Type.String({ description: 'Entity holders only' }))),
  countryCode: Type.Optional(N(Type.String({ description: 'Entity holders only (ISO 3166-1 alpha-2)' }))),
  shareClass: Type.String(),
  shareCount: Type.Integer(),
  totalSharesInCompany: Type.Integer({
    description: 'Shares of the class; the sum of the stored positions when the register gives none',
  }),
  year: Type.Integer(),
  ownershipPct: Type.Number({ description: 'shareCount / totalSharesInCompany × 100, computed at read time' }),
});

export const ShareholderHolding = Type.Object({
  orgNumber: Type.String(),
  companyName: Type.String(),
  orgFormCode: N(Type.String()),
  employeeCount: N(Type.Integer()),
  shareClass: Type.String(),
  shareCount: Type.Integer(),
  totalSharesInCompany: Type.Integer(),
  year: Type.Integer(),
  ownershipPct: Type.Number(),
});

const nodeFields = {
  orgNumber: Type.String(),
  name: Type.String(),
  orgFormCode: N(Type.String()),
  employeeCount: N(Type.Integer()),
};

export const GroupNode = Type.Cyclic(
  { GroupNode: Type.Object({ ...nodeFields, children: Type.Array(Type.Ref('GroupNode')) }) },
  'GroupNode',
);

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
