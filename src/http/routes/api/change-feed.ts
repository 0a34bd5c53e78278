// GET /api/updates — the change feed: companies with updatedAt >= since, oldest first.
import { callerOf } from '../../plugins/auth.ts';
import { ChangeFeedPage, ChangeFeedQuery } from '../../../contract/change-feed.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function updatesRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/updates',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['companies'],
        summary: 'Companies changed since a time',
        description:
          'Ordered by updatedAt ascending (ties by id), inclusive of `since`. Store the latest updatedAt you saw and pass it as `since` next time. Deleted and deregistered companies appear too (isDeleted). Upstream refresh: Norway every 15 minutes, Finland and Sweden daily.',
        security: [{ bearer: [] }],
        querystring: ChangeFeedQuery,
        response: {
          200: ChangeFeedPage,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    // The body comes as JSON text of the page shape (the records' stored fields serialised by the
    // database, see services/change-feed.ts); with a JSON content type Fastify sends a string as
    // it is, which the schema-typed reply cannot express, hence the cast.
    async (req, reply) => {
      const body = await services.changeFeed.updatesJson(callerOf(req), req.query);
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
}
