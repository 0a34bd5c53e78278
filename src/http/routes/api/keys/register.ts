// POST /api/keys/register — self-service free-tier key (public).
import type { Api, RouteDeps } from '../../../types.ts';
import { publicBaseUrl } from '../../../plugins/security-headers.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { KeyCreated, KeyHoneypot, KeyRegisterBody as Body } from '../../../../contract/keys.ts';

export default function registerRoute(app: Api, { ctx, services }: RouteDeps) {
  app.post(
    '/api/keys/register',
    {
      schema: {
        tags: ['keys'],
        summary: 'Register a free-tier API key',
        description:
          'At most 3 registrations (shared with access requests) per client IP per hour. The raw key is returned once.',
        body: Body,
        response: {
          201: KeyCreated,
          200: KeyHoneypot,
          ...errorResponses(400, 409, 429, 500),
        },
      },
    },
    async (req, reply) => {
      if (req.body.website && req.body.website.trim() !== '') return reply.status(200).send({ success: true });
      await services.keys.guardSignupRate(req.ip);
      const created = await services.keys.register(req.body, publicBaseUrl(req, ctx.config));
      return reply.status(201).send(created);
    },
  );
}
