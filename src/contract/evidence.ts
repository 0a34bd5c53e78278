// KYB evidence packs: POST /api/companies/{orgNumber}/evidence, GET /api/evidence/{id} (JSON or
// .pdf), GET /api/evidence (the project's packs) and GET /.well-known/jwks.json (the public
// keys). The pack is served as the exact bytes it was signed as, so its schema here documents
// it; `parts` holds each part as { source, url, retrievedAt, data, note }.
import { Type } from 'typebox';
import { StringEnum } from './common.ts';
import {
  EVIDENCE_CREATE_BODY_EXAMPLE,
  EVIDENCE_PACK_EXAMPLE,
  EVIDENCE_SUMMARY_EXAMPLE,
  JWKS_EXAMPLE,
  SCREENING_AUDIT_EXAMPLE,
  pageExample,
} from './examples.ts';
import { CursorParam, LimitParam, Page } from './pagination.ts';

const Country = StringEnum(['NO', 'FI', 'SE', 'DK'] as const, { default: 'NO' });
const Time = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const EvidenceCreateParams = Type.Object({
  orgNumber: Type.String({
    minLength: 1,
    maxLength: 20,
    description: 'NO: 9 digits; FI: NNNNNNN-N; SE: 10 digits; DK: 8 digits',
  }),
});

export const EvidenceCreateBody = Type.Object(
  {
    country: Type.Optional(Country),
    purpose: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Why the review is made (e.g. "onboarding")' }),
    ),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "The analyst's case number" })),
  },
  { additionalProperties: false, examples: [EVIDENCE_CREATE_BODY_EXAMPLE] },
);

export const EvidenceIdParams = Type.Object({
  id: Type.String({
    pattern: '^ev_[0-9a-f]{24}(\\.pdf)?$',
    description: 'The pack id (ev_ + 24 hex digits); add .pdf for the PDF',
  }),
});

const Hash = Type.Object({ alg: Type.Literal('sha-256'), value: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
const Signature = Type.Object({
  alg: Type.Literal('Ed25519'),
  kid: Type.String({ description: 'RFC 7638 thumbprint of the public key (see /.well-known/jwks.json)' }),
  value: Type.String({
    description: 'Ed25519 signature, base64url, over the RFC 8785 bytes of the pack without hash and signature',
  }),
});

const Verdict = Type.Object({
  registryStatus: Type.String(),
  screening: Type.String(),
  owners: Type.String(),
  possibleMatches: Type.Integer(),
  ownerCandidates: Type.Integer(),
});

const PartSchema = Type.Object(
  {
    source: Type.String(),
    url: Nullable(Type.String()),
    retrievedAt: Nullable(Type.String({ format: 'date-time' })),
    data: Type.Unknown(),
    note: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const EvidencePack = Type.Object(
  {
    format: Type.Literal('ncd-evidence-pack/1'),
    id: Type.String(),
    createdAt: Time,
    subject: Type.Object({ orgNumber: Type.String(), country: Type.String(), name: Type.String() }),
    purpose: Nullable(Type.String()),
    reference: Nullable(Type.String()),
    requester: Type.Object({
      keyPrefix: Type.String(),
      project: Type.String(),
      via: StringEnum(['rest', 'mcp'] as const),
    }),
    software: Type.Object({ name: Type.String(), version: Type.String() }),
    verdict: Verdict,
    parts: Type.Object(
      {
        company: PartSchema,
        roles: PartSchema,
        shareholders: PartSchema,
        ultimateOwners: PartSchema,
        group: PartSchema,
        screening: PartSchema,
        registryStatus: PartSchema,
      },
      { additionalProperties: true },
    ),
    sources: Type.Array(
      Type.Object({
        part: Type.String(),
        source: Type.String(),
        url: Nullable(Type.String()),
        retrievedAt: Nullable(Time),
      }),
    ),
    retention: Type.Object({ days: Type.Integer(), until: Time }),
    verification: Type.Object({}, { additionalProperties: true }),
    hash: Hash,
    signature: Signature,
  },
  {
    description:
      'One signed pack: canonical JSON (RFC 8785) served byte for byte as signed. Every part says its source, upstream URL or file and retrieval time.',
    examples: [EVIDENCE_PACK_EXAMPLE],
  },
);

export const EvidenceSummary = Type.Object({
  id: Type.String(),
  createdAt: Time,
  orgNumber: Type.String(),
  country: Type.String(),
  reference: Nullable(Type.String()),
  purpose: Nullable(Type.String()),
  keyPrefix: Type.String(),
  hash: Hash,
  kid: Type.String(),
  expiresAt: Time,
  verdict: Verdict,
});

export const EvidenceListQuery = Type.Object({
  orgNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Packs created at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Packs created before this time' })),
  limit: LimitParam,
  cursor: CursorParam,
});

export const EvidenceList = Page(EvidenceSummary, { examples: [pageExample(EVIDENCE_SUMMARY_EXAMPLE)] });

export const Jwks = Type.Object(
  {
    keys: Type.Array(
      Type.Object({
        kty: Type.Literal('OKP'),
        crv: Type.Literal('Ed25519'),
        x: Type.String(),
        kid: Type.String(),
        alg: Type.Literal('EdDSA'),
        use: Type.Literal('sig'),
      }),
    ),
  },
  { examples: [JWKS_EXAMPLE] },
);

// GET /api/screening/audit
export const ScreeningAuditQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Records at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Records before this time' })),
  limit: LimitParam,
  cursor: CursorParam,
});

export const ScreeningAuditRecord = Type.Object({
  id: Type.Integer(),
  at: Time,
  keyPrefix: Type.String(),
  via: StringEnum(['rest', 'mcp', 'evidence'] as const),
  operation: StringEnum(['company', 'match'] as const),
  subject: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The company (with its screened subjects) or the queries',
  }),
  lists: Type.Array(
    Type.Object({ name: Type.String(), version: Nullable(Type.String()), entityCount: Type.Integer(), lastSync: Time }),
  ),
  threshold: Type.Number(),
  algorithm: Type.String(),
  matchCount: Type.Integer(),
  matches: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});

export const ScreeningAuditList = Page(ScreeningAuditRecord, { examples: [pageExample(SCREENING_AUDIT_EXAMPLE)] });

// MCP create_evidence_pack
export const EvidenceCreated = Type.Object({
  id: Type.String(),
  createdAt: Time,
  hash: Hash,
  kid: Type.String(),
  verdict: Verdict,
  url: Type.String({ description: 'Where the signed pack is served (add .pdf for the PDF)' }),
});
