// GET /api/enrichment: the web-profile pipeline view (query, row, candidate ledger item).
import { Type, type Static, type TSchema } from 'typebox';
import { StringEnum } from './common.ts';
import { WEB_PROFILE_EXAMPLE } from './examples.ts';

// Nullable scalars as type arrays (as in schemas/company.ts): fast-json-stringify serialises
// them directly instead of trying anyOf branches for every value of every candidate.
function N<T extends TSchema>(t: T) {
  const { type, enum: values, ...rest } = t as unknown as { type: string; enum?: unknown[] };
  return Type.Unsafe<Static<T> | null>({
    ...rest,
    type: [type, 'null'],
    ...(values ? { enum: [...values, null] } : {}),
  });
}

/** Probe failure classes (jobs/web-profile/types.ts PROBE_ERRORS; a test keeps the two equal). */
export const CANDIDATE_ERRORS = [
  'dns',
  'private-address',
  'blocked',
  'timeout',
  'network',
  'too-many-redirects',
  'robots-disallowed',
  'not-html',
  'http-error',
] as const;

const WEB_PROFILE_STATUSES = ['confirmed', 'ambiguous', 'rejected', 'pending'] as const;

export const WebProfileQuery = Type.Object({
  status: Type.Optional(StringEnum(WEB_PROFILE_STATUSES, { description: 'Default: every status except pending' })),
  minConfidence: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0, description: 'Offset pagination (not a cursor)' }),
  ),
});

const LedgerEntry = Type.Object({
  signal: Type.String({
    description:
      'origin, live-page, unreachable, org-number, other-org-number, name-in-title, name-on-page, parked, default-page, redirected-away, redirects-to-candidate, shared-domain',
  }),
  points: Type.Integer(),
  note: Type.String(),
});

const CandidateSignals = Type.Object({
  reachable: Type.Boolean({ description: '2xx with HTML' }),
  orgNumberOnPage: Type.Boolean(),
  otherOrgNumbers: Type.Array(Type.String(), { description: 'Other valid org numbers on the page (at most 5)' }),
  nameOnPage: Type.Boolean(),
  nameInTitle: Type.Boolean(),
  nameIsShort: Type.Boolean({ description: 'Core name under 4 letters: name matches count half' }),
  parkedMarkers: Type.Array(Type.String()),
  defaultPageMarkers: Type.Array(Type.String()),
  finalDomain: N(Type.String()),
  redirectedToOtherDomain: Type.Boolean(),
});

const WebProfileCandidate = Type.Object(
  {
    domain: Type.String({ description: 'Registrable domain, the unit scored' }),
    host: Type.String({ description: 'Host tried first' }),
    origin: StringEnum(['brreg-website', 'email-domain', 'name-guess'] as const),
    status: StringEnum(WEB_PROFILE_STATUSES, { description: 'pending until scored' }),
    score: N(Type.Integer({ minimum: 0, maximum: 100 })),
    ledger: Type.Array(LedgerEntry, { description: 'Every point given or taken; score = clamp(sum, 0, 100)' }),
    sharedByCompanies: N(
      Type.Integer({
        description: 'Companies whose registry website or e-mail domain is this domain (this one counted)',
      }),
    ),
    url: N(Type.String({ description: 'First URL requested' })),
    finalUrl: N(Type.String({ description: 'URL of the last answer' })),
    httpStatus: N(Type.Integer({ description: 'Status of the last answer' })),
    redirects: Type.Array(Type.String()),
    error: N(StringEnum(CANDIDATE_ERRORS, { description: 'Why no usable page: failure class' })),
    errorCode: N(Type.String({ description: 'System code of a network failure, or what was blocked' })),
    title: N(Type.String()),
    signals: Type.Union([CandidateSignals, Type.Null()]),
    redirectsToCandidate: N(Type.String({ description: 'The final domain is this other candidate (an alias)' })),
    probedAt: N(Type.String({ format: 'date-time' })),
  },
  { description: 'One candidate domain with its probe facts and scoring ledger' },
);

const WebProfileRow = Type.Object({
  orgNumber: Type.String(),
  companyName: Type.String(),
  status: StringEnum(WEB_PROFILE_STATUSES),
  confidence: Type.Integer({ minimum: 0, maximum: 100, description: "The best candidate's score" }),
  primaryDomain: N(Type.String()),
  linkedinHandle: N(Type.String()),
  facebookHandle: N(Type.String()),
  confirmedDomains: Type.Array(Type.String()),
  candidates: Type.Array(WebProfileCandidate),
  stage: StringEnum(['candidates', 'probed', 'scored', 'done'] as const, {
    description: 'Last stage completed in the current pass',
  }),
  completedAt: N(Type.String({ format: 'date-time', description: 'End of the last complete pass' })),
  brregWebsite: N(Type.String({ description: 'The website the company reported to the registry' })),
  orgForm: N(Type.String()),
  city: N(Type.String()),
  employees: N(Type.Integer()),
});

export const WebProfileList = Type.Object(
  {
    summary: Type.Object(
      { confirmed: Type.Integer(), ambiguous: Type.Integer(), rejected: Type.Integer() },
      { description: 'Companies per status at or above minConfidence (the status filter does not apply)' },
    ),
    total: Type.Integer({ description: 'Rows matching every filter' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    data: Type.Array(WebProfileRow),
  },
  { examples: [WEB_PROFILE_EXAMPLE] },
);
