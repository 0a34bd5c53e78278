// GET / PUT / DELETE /api/destinations/{name} — one destination of the caller's project
// (another project's destination is 404, as if it did not exist).
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import {
  Destination,
  DestinationDeleted,
  DestinationParams,
  UpdateDestinationBody,
} from '../../../../contract/destinations.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function destinationItemRoutes(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/destinations/:name',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['destinations'],
        summary: 'One destination',
        security: [{ bearer: [] }],
        params: DestinationParams,
        response: { 200: Destination, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.destinations.get(callerOf(req), req.params.name),
  );

  app.put(
    '/api/destinations/:name',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['destinations'],
        summary: 'Change a destination',
        description:
          '`type`, `config` and `isActive`, each optional (at least one). A given `config` replaces the whole config, headers and signing secret included.',
        security: [{ bearer: [] }],
        params: DestinationParams,
        body: UpdateDestinationBody,
        response: { 200: Destination, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.destinations.update(callerOf(req), req.params.name, req.body),
  );

  app.delete(
    '/api/destinations/:name',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['destinations'],
        summary: 'Delete a destination',
        security: [{ bearer: [] }],
        params: DestinationParams,
        response: { 204: DestinationDeleted, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req, reply) => {
      await services.destinations.remove(callerOf(req), req.params.name);
      return reply.status(204).send(null);
    },
  );
}
