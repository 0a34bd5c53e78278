// POST /api/access-requests — ask for a higher tier (public). Shares the per-IP signup window
// with key registration.
import { AccessRequestBody, AccessRequestCreated, AccessRequestHoneypot } from '../../../contract/access-requests.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function accessRequestRoute(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/access-requests',
    {
      schema: {
        tags: ['keys'],
        summary: 'Request access to a higher tier',
        body: AccessRequestBody,
        response: {
          201: AccessRequestCreated,
          200: AccessRequestHoneypot,
          ...errorResponses(400, 429, 500),
        },
      },
    },
    async (req, reply) => {
      if (req.body.website && req.body.website.trim() !== '') return reply.status(200).send({ success: true });
      return reply.status(201).send(await services.keys.requestAccess(req.ip, req.body));
    },
  );
}
