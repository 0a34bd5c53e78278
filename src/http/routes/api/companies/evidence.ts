// POST /api/companies/{orgNumber}/evidence — build, sign and store a KYB evidence pack.
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { EvidenceCreateBody, EvidenceCreateParams, EvidencePack } from '../../../../contract/evidence.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function evidenceCreateRoute(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/companies/:orgNumber/evidence',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['evidence'],
        summary: 'Create a signed KYB evidence pack of a company',
        description:
          'Gathers the company record as served (with `_sources`), its roles, shareholders, ultimate-owner candidates with paths, ' +
          'the group tree, the PEP/sanctions screening of the company and every subject (each list with its version and our last ' +
          'sync) and the registry status (fetched live from the registry where the country allows it: NO, and DK with CVR ' +
          "credentials; else the store's copy, said so), each part with its source, upstream URL or file and retrieval time; who " +
          'asked (key prefix), when, and the software version. The pack is canonical JSON (RFC 8785), hashed with SHA-256 and ' +
          'signed with Ed25519 (public keys: /.well-known/jwks.json; check offline with `ncd evidence verify FILE`). The body ' +
          'returned is the stored pack byte for byte; it is never changed and is kept EVIDENCE_RETENTION_DAYS (default 10 years). ' +
          'Counts as one request; free keys may create 10 packs a UTC day (429 `evidence_pack_limit`). `Server-Timing` reports ' +
          'the live fetch (`live`) and the rest (`build`).',
        security: [{ bearer: [] }],
        params: EvidenceCreateParams,
        body: EvidenceCreateBody,
        response: { 201: EvidencePack, ...errorResponses(400, 401, 402, 404, 429, 500, 503) },
      },
    },
    async (req, reply) => {
      const made = await services.evidence.create(callerOf(req), 'rest', req.params.orgNumber, req.body ?? {});
      // The stored text as it is: a re-serialisation could change the signed bytes.
      return reply
        .status(201)
        .header(
          'Server-Timing',
          `live;dur=${made.timing.liveMs.toFixed(1)}, build;dur=${made.timing.buildMs.toFixed(1)}`,
        )
        .header('Location', `/api/evidence/${made.summary.id}`)
        .type('application/json; charset=utf-8')
        .send(made.text as never); // a string is sent as it is, not through the schema's serializer
    },
  );
}
