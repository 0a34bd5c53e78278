// GET /.well-known/jwks.json — the public keys that sign evidence packs (RFC 7517), old ones kept.
import { errorResponses } from '../../../contract/common.ts';
import { Jwks } from '../../../contract/evidence.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function jwksRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['evidence'],
        summary: 'Public keys of the evidence-pack signatures (JWKS)',
        description:
          "Every Ed25519 key that ever signed a pack here (OKP, RFC 8037), each with `kid` = its RFC 7638 thumbprint, the pack's `signature.kid`. Rotation keeps old keys listed, so old packs still verify.",
        response: { 200: Jwks, ...errorResponses(500) },
      },
    },
    async (_req, reply) => reply.header('Cache-Control', 'public, max-age=300').send(await services.evidence.jwks()),
  );
}
