// KYB evidence packs: one call gathers what a know-your-business review relies on (company
// record, roles, shareholders, ultimate-owner candidates, group tree, screening, registry
// status, each with its source and retrieval time) into one pack, canonical JSON (RFC 8785)
// hashed with SHA-256 and signed with Ed25519. A pack is stored as the exact bytes it was signed
// as, served unchanged, owned by the project that made it, and kept EVIDENCE_RETENTION_DAYS.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { sealPack, type PublicJwk, type SigningKey } from '../../domain/evidence/index.ts';
import { nextUtcMidnight, secondsUntil, utcDay } from '../../domain/limits.ts';
import { canonicalOrgNumber, isValidOrgNumber, ORG_NUMBER_FORMAT, type Country } from '../../domain/org-number.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { EvidencePackRow, EvidenceRepository } from '../../store/evidence.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { AuditCaller } from '../screening/screening-audit.ts';
import type { Pagination } from '../support/pagination.ts';
import { readParts, type EvidenceView, type UpstreamUrls } from './pack-parts.ts';
import { renderPackPdf, type RenderablePack } from './pdf.ts';
import type { RegistryStatusFetch } from './registry-status.ts';
import { verdictOf } from './verdict.ts';

export const PACK_FORMAT = 'ncd-evidence-pack/1';

export interface EvidenceDeps {
  packs: Pick<EvidenceRepository, 'registerKey' | 'keys' | 'chargeDaily' | 'refundDaily' | 'body' | 'list'>;
  /** Runs `fn` over one consistent read of the store; `keep` stores the pack in the same transaction. */
  snapshot<T>(
    fn: (view: EvidenceView, keep: (row: EvidencePackRow & { body: string }) => Promise<void>) => Promise<T>,
  ): Promise<T>;
  /** Makes sure the company is in the store (a Norwegian or Danish miss is fetched live). */
  ensureStored(country: Country, orgNumber: string, caller: AuthContext): Promise<unknown>;
  registryStatus: RegistryStatusFetch;
  signingKey: SigningKey;
  retentionDays: number;
  /** Packs per project and UTC day, by tier (null: no limit beyond the request quota). */
  dailyPacks: Record<string, number | null>;
  software: { name: string; version: string };
  urls: UpstreamUrls;
  /** This server's public JWKS URL (read per call: the base URL is known after listen in tests). */
  jwksUrl(): string;
  clock: Clock;
  pagination: Pagination;
}

export interface CreateRequest {
  country?: Country;
  purpose?: string;
  reference?: string;
}

const summaryOf = (r: EvidencePackRow) => ({
  id: r.id,
  createdAt: r.createdAt.toISOString(),
  orgNumber: r.orgNumber,
  country: r.country,
  reference: r.reference,
  purpose: r.purpose,
  keyPrefix: r.keyPrefix,
  hash: { alg: 'sha-256' as const, value: r.hash },
  kid: r.kid,
  expiresAt: r.expiresAt.toISOString(),
  verdict: r.summary as {
    registryStatus: string;
    screening: string;
    owners: string;
    possibleMatches: number;
    ownerCandidates: number;
  },
});

export function createEvidenceService(deps: EvidenceDeps) {
  const { clock, signingKey } = deps;
  let registered: Promise<void> | undefined;
  /** The active key's public half is listed before it signs anything (once per process). */
  const registerKey = () =>
    (registered ??= deps.packs.registerKey(signingKey.kid, signingKey.publicJwk).catch((e: unknown) => {
      registered = undefined;
      throw e;
    }));

  function validOrgNumber(country: Country, raw: string): string {
    const n = canonicalOrgNumber(country, raw);
    if (!isValidOrgNumber(country, n)) throw invalid('params.orgNumber', `must be ${ORG_NUMBER_FORMAT[country]}`);
    return n;
  }

  async function charge(caller: AuthContext, day: string) {
    const limit = deps.dailyPacks[caller.tier] ?? null;
    if (await deps.packs.chargeDaily(caller.projectId, day, limit)) return;
    const now = clock.now();
    const retryAfter = secondsUntil(now, nextUtcMidnight(now));
    throw new ApiError('evidence_pack_limit', {
      message: `Your tier may create ${limit} evidence packs a UTC day; the next can be made after midnight UTC`,
      headers: { 'Retry-After': retryAfter },
      extra: { retryAfter },
    });
  }

  return {
    /**
     * Builds, signs and stores a pack. Returns its exact text (what GET serves), its summary,
     * and how long the live registry fetch and the rest took (Server-Timing).
     */
    async create(caller: AuthContext, via: AuditCaller['via'], rawOrgNumber: string, req: CreateRequest) {
      const country = req.country ?? 'NO';
      const orgNumber = validOrgNumber(country, rawOrgNumber);
      await registerKey();
      const startedAt = clock.now();
      const day = utcDay(startedAt);
      await charge(caller, day);
      try {
        await deps.ensureStored(country, orgNumber, caller);
        const t0 = performance.now();
        const live = await deps.registryStatus(country, orgNumber);
        const liveMs = performance.now() - t0;
        const t1 = performance.now();
        const audit: AuditCaller = { projectId: caller.projectId, keyPrefix: caller.keyPrefix, via: 'evidence' };
        const made = await deps.snapshot(async (view, keep) => {
          const read = await readParts(view, { country, orgNumber, audit, urls: deps.urls, live });
          if (!read) throw new ApiError('company_not_found');
          const createdAt = clock.now();
          const expiresAt = new Date(createdAt.getTime() + deps.retentionDays * 86_400_000);
          const id = `ev_${randomBytes(12).toString('hex')}`;
          const verdict = verdictOf(read.parts);
          const unsigned = JSON.parse(
            JSON.stringify({
              format: PACK_FORMAT,
              id,
              createdAt: createdAt.toISOString(),
              subject: { orgNumber, country, name: read.name },
              purpose: req.purpose ?? null,
              reference: req.reference ?? null,
              requester: { keyPrefix: caller.keyPrefix, project: caller.projectName, via },
              software: deps.software,
              verdict,
              parts: read.parts,
              sources: Object.entries(read.parts).map(([part, p]) => ({
                part,
                source: p.source,
                url: p.url,
                retrievedAt: p.retrievedAt,
              })),
              retention: { days: deps.retentionDays, until: expiresAt.toISOString() },
              verification: {
                canonicalization: 'RFC 8785 (JCS)',
                hash: 'SHA-256 (hex) of the canonical pack without hash and signature',
                signature: 'Ed25519 (RFC 8032) over the same bytes, base64url',
                jwks: deps.jwksUrl(),
              },
            }),
          ) as Record<string, unknown>;
          const { text, seal } = sealPack(unsigned, signingKey);
          const row: EvidencePackRow = {
            id,
            projectId: caller.projectId,
            keyPrefix: caller.keyPrefix,
            country,
            orgNumber,
            createdAt,
            expiresAt,
            reference: req.reference ?? null,
            purpose: req.purpose ?? null,
            hash: seal.hash.value,
            kid: seal.signature.kid,
            summary: { ...verdict },
          };
          await keep({ ...row, body: text });
          return { text, row };
        });
        const buildMs = performance.now() - t1;
        return { text: made.text, summary: summaryOf(made.row), timing: { liveMs, buildMs } };
      } catch (e) {
        await deps.packs.refundDaily(caller.projectId, day);
        throw e;
      }
    },

    /** `ev_….pdf`: the PDF rendered from the stored pack; else the pack's stored text. 404 for another project's. */
    async read(caller: AuthContext, idOrPdf: string): Promise<{ contentType: string; body: string | Buffer }> {
      const pdf = idOrPdf.endsWith('.pdf');
      const found = await deps.packs.body(caller.projectId, pdf ? idOrPdf.slice(0, -4) : idOrPdf);
      if (!found) throw new ApiError('evidence_not_found');
      if (!pdf) return { contentType: 'application/json; charset=utf-8', body: found.body };
      return { contentType: 'application/pdf', body: await renderPackPdf(JSON.parse(found.body) as RenderablePack) };
    },

    async list(
      caller: AuthContext,
      q: { orgNumber?: string; from?: string; to?: string; limit?: number; cursor?: string },
    ) {
      const bound = { orgNumber: q.orgNumber ?? null, from: q.from ?? null, to: q.to ?? null };
      const page = await deps.pagination.page(
        caller,
        { scope: 'evidence', bound, cursor: q.cursor, limit: q.limit, depthGuard: false },
        async (limit, after) => {
          const [at, id] = after ? String(after[0]).split('|') : [];
          const rows = await deps.packs.list(caller.projectId, {
            orgNumber: q.orgNumber,
            from: q.from ? new Date(q.from) : undefined,
            to: q.to ? new Date(q.to) : undefined,
            after: after ? { createdAt: new Date(at), id } : undefined,
            limit,
          });
          return { rows, positions: rows.map((r) => [`${r.createdAt.toISOString()}|${r.id}`, 0] as [string, number]) };
        },
      );
      return { data: page.rows.map(summaryOf), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },

    /** Every public key that signed packs here (rotation keeps old ones), the active one included. */
    async jwks(): Promise<{ keys: PublicJwk[] }> {
      await registerKey();
      const rows = await deps.packs.keys();
      return { keys: rows.map((r) => r.publicJwk as unknown as PublicJwk) };
    },

    activeKid: () => signingKey.kid,
  };
}

export type EvidenceService = ReturnType<typeof createEvidenceService>;
