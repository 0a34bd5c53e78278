// POST /api/keys/rotate — the presented key stops working; a replacement is returned.
import { callerOf } from '../../../plugins/auth.ts';
import { publicBaseUrl } from '../../../plugins/security-headers.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { KeyRotated } from '../../../../contract/keys.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function rotateRoute(app: Api, { ctx, services }: RouteDeps) {
  app.post(
    '/api/keys/rotate',
    {
      config: { auth: 'key', quota: false },
      schema: {
        tags: ['keys'],
        summary: 'Rotate the presented API key',
        description:
          'Deactivates the presented key at once and issues a new one with the same tier, limits and usage counters. Not counted against quotas.',
        security: [{ bearer: [] }],
        response: { 201: KeyRotated, ...errorResponses(401, 402, 404, 429, 500) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await services.keys.rotate(callerOf(req), publicBaseUrl(req, ctx.config))),
  );
}
