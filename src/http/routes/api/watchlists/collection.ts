// /api/watchlists and /api/watchlists/{name} — the caller's project's watchlists.
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses, NoContent } from '../../../../contract/common.ts';
import {
  CreateWatchlistBody,
  UpdateWatchlistBody,
  Watchlist,
  WatchlistParams,
  Watchlists,
} from '../../../../contract/events.ts';
import type { Api, RouteDeps } from '../../../types.ts';

const secured = { tags: ['monitoring'], security: [{ bearer: [] }] };

export default function watchlistRoutes(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/watchlists',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: 'Create a watchlist',
        description:
          'Companies to watch (add them with POST /api/watchlists/{name}/companies), the event categories to alert on, and the destination (see /api/destinations) alerts are sent to as batches `{watchlist, events}`, each with a `webhook-id` that stays the same on every retry (signed with Standard Webhooks when the destination has a signing secret). Alerts cover events committed after the watchlist was created.',
        body: CreateWatchlistBody,
        response: { 201: Watchlist, ...errorResponses(400, 401, 402, 404, 409, 429, 500) },
      },
    },
    async (req, reply) => reply.status(201).send(await services.watchlists.create(callerOf(req), req.body)),
  );

  app.get(
    '/api/watchlists',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: "The project's watchlists, sorted by name",
        response: { 200: Watchlists, ...errorResponses(401, 402, 429, 500) },
      },
    },
    async (req) => services.watchlists.list(callerOf(req)),
  );

  app.get(
    '/api/watchlists/:name',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: 'One watchlist',
        params: WatchlistParams,
        response: { 200: Watchlist, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.watchlists.get(callerOf(req), req.params.name),
  );

  app.put(
    '/api/watchlists/:name',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: 'Change categories or destination, pause or resume',
        description:
          'After 24 hours of failed deliveries a watchlist is paused with `pausedReason: delivery_failed`; `{"paused": false}` resumes it and sends the abandoned batch again.',
        params: WatchlistParams,
        body: UpdateWatchlistBody,
        response: { 200: Watchlist, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.watchlists.update(callerOf(req), req.params.name, req.body),
  );

  app.delete(
    '/api/watchlists/:name',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: 'Delete a watchlist (its companies and delivery log go with it)',
        params: WatchlistParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req, reply) => {
      await services.watchlists.remove(callerOf(req), req.params.name);
      return reply.status(204).send(null);
    },
  );
}
