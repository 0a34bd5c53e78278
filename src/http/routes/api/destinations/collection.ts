// POST /api/destinations and GET /api/destinations — the caller's project's destinations.
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { CreateDestinationBody, Destination, Destinations } from '../../../../contract/destinations.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function destinationCollectionRoutes(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/destinations',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['destinations'],
        summary: 'Create a destination',
        description:
          'A webhook that `POST /api/push/{name}` sends company records to. The config is stored encrypted (AES-256-GCM); header values and the signing secret are never served back. A URL whose host resolves to a private, loopback or link-local address is refused. Plain http is accepted with a warning.',
        security: [{ bearer: [] }],
        body: CreateDestinationBody,
        response: { 201: Destination, ...errorResponses(400, 401, 402, 409, 429, 500) },
      },
    },
    async (req, reply) => reply.status(201).send(await services.destinations.create(callerOf(req), req.body)),
  );

  app.get(
    '/api/destinations',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['destinations'],
        summary: "The project's destinations, sorted by name",
        security: [{ bearer: [] }],
        response: {
          200: Destinations,
          ...errorResponses(401, 402, 429, 500),
        },
      },
    },
    async (req) => services.destinations.list(callerOf(req)),
  );
}
