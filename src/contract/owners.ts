// GET /api/companies/{orgNumber}/owners (ultimate-owner candidates derived from the shareholder
// registers) and GET /api/companies/{orgNumber}/ownership-changes (direct owners year by year).
import { Type, type TSchema } from 'typebox';
import { OwnershipCountry, Year } from './shareholders.ts';

const N = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const Basis = Type.Literal('shareholder-register', {
  description:
    "Derived from the shareholder registers (Aksjonærregisteret, CVR's owner register), not from a register of beneficial owners",
});

const PctRange = Type.Object(
  { low: Type.Number(), high: Type.Number() },
  { description: "DK: the band the share lies in, from CVR's registered bands (never a false point value)" },
);

const HolderKind = Type.String({ enum: ['company', 'person', 'foreign'] });

export const OwnersQuery = Type.Object({
  country: Type.Optional(OwnershipCountry),
  year: Type.Optional(Year),
  threshold: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, default: 25, description: 'Smallest effective share (percent) listed' }),
  ),
  maxDepth: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 20, default: 10, description: 'Most ownership layers walked' }),
  ),
  includePersons: Type.Optional(Type.Boolean({ default: false })),
});

const OwnerHop = Type.Object({
  kind: HolderKind,
  orgNumber: N(Type.String({ description: 'Company owners; always null for natural persons (never an id)' })),
  name: N(Type.String()),
  country: N(Type.String({ description: 'The owner’s country code as the register gives it' })),
  birthYear: Type.Optional(N(Type.Integer({ description: 'NO natural persons only (includePersons=true)' }))),
  pct: N(Type.Number({ description: 'The owner’s share of the company below it; null when banded (DK)' })),
  pctRange: Type.Optional(PctRange),
  year: N(Type.Integer({ description: 'The register year of the company below (NO); null for DK' })),
  shareClass: N(Type.String({ description: 'Share classes held, comma-separated (NO)' })),
});

const Candidate = Type.Object({
  kind: Type.String({ enum: ['person', 'company', 'state', 'foreign', 'unknown'] }),
  orgNumber: N(Type.String()),
  name: N(Type.String()),
  country: N(Type.String()),
  birthYear: Type.Optional(N(Type.Integer())),
  effectivePct: N(
    Type.Number({ description: 'The product of the shares along each path, summed over paths; null when banded' }),
  ),
  effectivePctRange: Type.Optional(PctRange),
  controls: N(Type.Boolean({ description: 'A majority at every step of some path; null when a band cannot tell' })),
  stopReason: Type.String({
    enum: ['person', 'foreign-owner', 'no-owners-known', 'depth', 'cycle', 'unknown'],
    description:
      'Why the walk stopped: a natural person, an owner outside the register, a company with no owners known in the year, maxDepth, an owner already on the path, or shares no row explains (unknown / widely held)',
  }),
  pathCount: Type.Integer({ description: 'Paths to this owner (at most 50 are listed)' }),
  paths: Type.Array(Type.Array(OwnerHop), { description: 'Each path from the company up to this owner' }),
});

const Flag = Type.Object({
  value: N(Type.Boolean({ description: 'null where the registers cannot tell' })),
  evidence: Type.Array(Type.String(), { description: 'The entities (never persons) that set the flag' }),
});

export const UltimateOwners = Type.Object(
  {
    orgNumber: Type.String(),
    country: Type.String({ enum: ['NO', 'DK'] }),
    name: N(Type.String()),
    basis: Basis,
    year: N(Type.Integer({ description: 'The register year walked (NO; the latest when not asked); null for DK' })),
    yearFallbacks: Type.Array(
      Type.Object({
        orgNumber: Type.String(),
        name: N(Type.String()),
        requestedYear: Type.Integer(),
        usedYear: Type.Integer(),
      }),
      { description: 'Companies with no rows in the year, read from their latest earlier year' },
    ),
    threshold: Type.Number(),
    maxDepth: Type.Integer(),
    candidates: Type.Array(Candidate),
    candidatesBelowThreshold: Type.Integer(),
    untracedPct: N(
      Type.Number({
        description:
          'Share not traced to a natural person or the state: foreign owners, companies without rows in the year, depth, cycles, unexplained shares',
      }),
    ),
    untracedPctRange: Type.Optional(PctRange),
    hiddenPersonsPct: Type.Optional(
      N(Type.Number({ description: 'Without includePersons: the share that reaches natural persons, not listed' })),
    ),
    flags: Type.Object({
      layers: Type.Integer({ description: 'The most ownership layers on any path' }),
      jurisdictions: Type.Integer(),
      jurisdictionCodes: Type.Array(Type.String()),
      cycle: Flag,
      trustOrArrangement: Flag,
      nonEeaJurisdiction: Flag,
      nominee: Flag,
      complexStructure: Flag,
    }),
    companiesInTree: Type.Integer(),
    truncated: Type.Boolean({ description: 'True when the walk stopped at its cap of 5000 paths' }),
    message: Type.Optional(
      Type.String({
        description:
          'Set when no owner is found, saying why: no register year loaded on this server, the asked year not loaded (the loaded years named), or no owners of the company in the register',
      }),
    ),
  },
  {
    examples: [
      {
        orgNumber: '923609016',
        country: 'NO',
        name: 'EKSEMPEL AS',
        basis: 'shareholder-register',
        year: 2024,
        yearFallbacks: [],
        threshold: 25,
        maxDepth: 10,
        candidates: [
          {
            kind: 'company',
            orgNumber: '987654325',
            name: 'TOPP HOLDING AS',
            country: 'NO',
            effectivePct: 48,
            controls: true,
            stopReason: 'no-owners-known',
            pathCount: 1,
            paths: [
              [
                {
                  kind: 'company',
                  orgNumber: '914778271',
                  name: 'MELLOM AS',
                  country: 'NO',
                  pct: 60,
                  year: 2024,
                  shareClass: 'Ordinære aksjer',
                },
                {
                  kind: 'company',
                  orgNumber: '987654325',
                  name: 'TOPP HOLDING AS',
                  country: 'NO',
                  pct: 80,
                  year: 2024,
                  shareClass: 'Ordinære aksjer',
                },
              ],
            ],
          },
        ],
        candidatesBelowThreshold: 1,
        untracedPct: 52,
        hiddenPersonsPct: 0,
        flags: {
          layers: 2,
          jurisdictions: 1,
          jurisdictionCodes: ['NO'],
          cycle: { value: false, evidence: [] },
          trustOrArrangement: { value: false, evidence: [] },
          nonEeaJurisdiction: { value: false, evidence: [] },
          nominee: { value: false, evidence: [] },
          complexStructure: { value: false, evidence: ['2 ownership layer(s), fewer than 3'] },
        },
        companiesInTree: 3,
        truncated: false,
      },
    ],
  },
);

export const OwnershipChangesQuery = Type.Object({
  country: Type.Optional(OwnershipCountry),
  fromYear: Type.Optional(Year),
  toYear: Type.Optional(Year),
  includePersons: Type.Optional(Type.Boolean({ default: false })),
});

const ChangedOwner = Type.Object({
  kind: HolderKind,
  orgNumber: N(Type.String()),
  name: N(Type.String()),
  country: N(Type.String()),
  birthYear: Type.Optional(N(Type.Integer())),
  pctBefore: Type.Number(),
  pctAfter: Type.Number(),
  changePp: Type.Number({ description: 'pctAfter − pctBefore, in percentage points' }),
});

const LargestOwner = N(
  Type.Object({
    kind: HolderKind,
    orgNumber: N(Type.String()),
    name: N(Type.String({ description: 'null for a natural person without includePersons' })),
    country: N(Type.String()),
    birthYear: Type.Optional(N(Type.Integer())),
    pct: Type.Number(),
  }),
);

export const OwnershipChanges = Type.Object(
  {
    orgNumber: Type.String(),
    country: Type.Literal('NO'),
    basis: Basis,
    changeThresholdPp: Type.Number(),
    years: Type.Array(Type.Integer(), { description: 'Register years with rows for the company, oldest first' }),
    changes: Type.Array(
      Type.Object({
        fromYear: Type.Integer(),
        toYear: Type.Integer({
          description: 'The next year with rows for the company (a year without rows is skipped)',
        }),
        entered: Type.Array(ChangedOwner),
        left: Type.Array(ChangedOwner),
        rose: Type.Array(ChangedOwner),
        fell: Type.Array(ChangedOwner),
        largestOwner: Type.Object({ before: LargestOwner, after: LargestOwner, changed: Type.Boolean() }),
      }),
    ),
  },
  {
    examples: [
      {
        orgNumber: '923609016',
        country: 'NO',
        basis: 'shareholder-register',
        changeThresholdPp: 5,
        years: [2023, 2024],
        changes: [
          {
            fromYear: 2023,
            toYear: 2024,
            entered: [],
            left: [],
            rose: [
              {
                kind: 'company',
                orgNumber: '987654325',
                name: 'TOPP HOLDING AS',
                country: 'NO',
                pctBefore: 50,
                pctAfter: 60,
                changePp: 10,
              },
            ],
            fell: [],
            largestOwner: {
              before: { kind: 'company', orgNumber: '987654325', name: 'TOPP HOLDING AS', country: 'NO', pct: 50 },
              after: { kind: 'company', orgNumber: '987654325', name: 'TOPP HOLDING AS', country: 'NO', pct: 60 },
              changed: false,
            },
          },
        ],
      },
    ],
  },
);
