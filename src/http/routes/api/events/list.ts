// GET /api/events — the company event log by seq, with filters.
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { EventsExpired, EventsPage, EventsQuery } from '../../../../contract/events.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function eventsListRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/events',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['monitoring'],
        summary: 'Typed company change events after a seq',
        description:
          'Every change an ingest commits (status, name, address, industry, roles, accounts, sub-units, deletion, …) as an event with before/after of the changed fields, numbered by a global, gapless, increasing `seq`. Pass the `nextAfter` of a page as `after` to read on; a reader resuming from its last seq sees every committed event exactly once, in order. `after` below what retention removed answers 410 `events_expired` with `resumeAfter`. A page holds at most 50 × your page size (at most 5,000 events).',
        security: [{ bearer: [] }],
        querystring: EventsQuery,
        response: { 200: EventsPage, 410: EventsExpired, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    // The body comes as JSON text of the EventsPage shape (serialised by the database, see
    // services/events.ts listJson); with a JSON content type Fastify sends a string as it is,
    // which the schema-typed reply cannot express, hence the cast.
    async (req, reply) => {
      const body = await services.events.listJson(callerOf(req), req.query);
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
}
