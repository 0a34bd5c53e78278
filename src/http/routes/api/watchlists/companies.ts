// /api/watchlists/{name}/companies (list, add, remove) and /api/watchlists/{name}/deliveries.
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import {
  Deliveries,
  DeliveriesQuery,
  WatchlistCompaniesBody,
  WatchlistCompaniesResult,
  WatchlistMembers,
  WatchlistMembersQuery,
  WatchlistParams,
} from '../../../../contract/events.ts';
import type { Api, RouteDeps } from '../../../types.ts';

const secured = { tags: ['monitoring'], security: [{ bearer: [] }] };

export default function watchlistCompanyRoutes(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/watchlists/:name/companies',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: "A watchlist's companies",
        description:
          'In `(country, orgNumber)` order, each with the name the store holds (null when it holds none) and when it was added. Cursor-paginated: pass `nextCursor` back as `cursor` while `hasMore` is true. 404 `watchlist_not_found` for a name your project does not have.',
        params: WatchlistParams,
        querystring: WatchlistMembersQuery,
        response: { 200: WatchlistMembers, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.watchlists.companies(callerOf(req), req.params.name, req.query),
  );

  app.post(
    '/api/watchlists/:name/companies',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: 'Add companies to a watchlist',
        description:
          'Up to 1,000 `(orgNumber, country)` pairs per call; pairs already on the list are left. A watchlist holds at most: free 25, pro 5,000, enterprise and internal as configured. A call that would go over adds nothing (409 `watchlist_full`).',
        params: WatchlistParams,
        body: WatchlistCompaniesBody,
        response: { 200: WatchlistCompaniesResult, ...errorResponses(400, 401, 402, 404, 409, 429, 500) },
      },
    },
    async (req) => services.watchlists.addCompanies(callerOf(req), req.params.name, req.body.companies),
  );

  app.delete(
    '/api/watchlists/:name/companies',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: 'Remove companies from a watchlist',
        description: 'Up to 1,000 `(orgNumber, country)` pairs per call; pairs not on the list are ignored.',
        params: WatchlistParams,
        body: WatchlistCompaniesBody,
        response: { 200: WatchlistCompaniesResult, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.watchlists.removeCompanies(callerOf(req), req.params.name, req.body.companies),
  );

  app.get(
    '/api/watchlists/:name/deliveries',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: "A watchlist's alert deliveries, newest first",
        description:
          'Each batch with its webhook-id, seq range, attempts, last status or error class, and the next retry (exponential backoff with jitter, for up to 24 hours).',
        params: WatchlistParams,
        querystring: DeliveriesQuery,
        response: { 200: Deliveries, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.watchlists.deliveries(callerOf(req), req.params.name, req.query.limit ?? 50),
  );
}
