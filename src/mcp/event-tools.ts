// Monitoring tools: list_events (GET /api/events), list_watchlists (GET /api/watchlists),
// create_watchlist (POST /api/watchlists), watch_companies / unwatch_companies
// (POST/DELETE /api/watchlists/{name}/companies) and delete_watchlist. Same services, same limits.
import { Type } from 'typebox';
import * as z from 'zod';
import { EVENT_CATEGORIES } from '../domain/company-events.ts';
import { EventsPage, Watchlist, WatchlistCompaniesResult } from '../contract/events.ts';
import { runTool, success, type ToolGroup } from './tool-kit.ts';

const Watchlists = Type.Object({ data: Type.Array(Watchlist) });
const Deleted = Type.Object({ deleted: Type.Boolean() });
const category = z.enum(EVENT_CATEGORIES);
const companies = z
  .array(z.object({ orgNumber: z.string().min(1).max(20), country: z.enum(['NO', 'SE', 'FI', 'DK']) }))
  .min(1)
  .max(1000);
const watchlistName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._~-]+$/);

export const eventTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'list_events',
    {
      title: 'Company change events',
      description:
        'Typed change events (status, name, address, industry, roles, accounts, sub-units, deleted, …) with before/after values, in seq order after `after`. Pass nextAfter back as `after` to read on while hasMore is true (under a category or country filter alone one call reads a bounded stretch of the log, so it can return few or no events with hasMore true).',
      inputSchema: {
        after: z.number().int().min(0).optional(),
        orgNumber: z.string().min(1).max(20).optional(),
        country: z.enum(['NO', 'SE', 'FI', 'DK']).optional(),
        categories: z.array(category).min(1).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    ({ after, orgNumber, country, categories, limit }) =>
      runTool(log, 'list_events', async () =>
        success(
          EventsPage,
          await services.events.list(caller, { after, orgNumber, country, category: categories?.join(','), limit }),
        ),
      ),
  );

  server.registerTool(
    'list_watchlists',
    {
      title: 'Watchlists',
      description: "The project's watchlists: categories alerted on, destination, company count, delivery state.",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () => runTool(log, 'list_watchlists', async () => success(Watchlists, await services.watchlists.list(caller))),
  );

  server.registerTool(
    'create_watchlist',
    {
      title: 'Create a watchlist',
      description:
        'A named watchlist alerting on the given event categories, sent to one of the project’s destinations (see list_destinations).',
      inputSchema: {
        name: watchlistName,
        categories: z.array(category).min(1),
        destination: z.string().min(1).max(100),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    ({ name, categories, destination }) =>
      runTool(log, 'create_watchlist', async () =>
        success(Watchlist, await services.watchlists.create(caller, { name, categories, destination })),
      ),
  );

  server.registerTool(
    'watch_companies',
    {
      title: 'Add companies to a watchlist',
      description: 'Adds up to 1,000 (orgNumber, country) pairs; the tier limits the watchlist size.',
      inputSchema: { name: watchlistName, companies },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    ({ name, companies: list }) =>
      runTool(log, 'watch_companies', async () =>
        success(WatchlistCompaniesResult, await services.watchlists.addCompanies(caller, name, list)),
      ),
  );

  server.registerTool(
    'unwatch_companies',
    {
      title: 'Remove companies from a watchlist',
      description: 'Removes up to 1,000 (orgNumber, country) pairs from a watchlist.',
      inputSchema: { name: watchlistName, companies },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    ({ name, companies: list }) =>
      runTool(log, 'unwatch_companies', async () =>
        success(WatchlistCompaniesResult, await services.watchlists.removeCompanies(caller, name, list)),
      ),
  );

  server.registerTool(
    'delete_watchlist',
    {
      title: 'Delete a watchlist',
      description: 'Deletes a watchlist with its companies and delivery log.',
      inputSchema: { name: watchlistName },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    ({ name }) =>
      runTool(log, 'delete_watchlist', async () => {
        await services.watchlists.remove(caller, name);
        return success(Deleted, { deleted: true });
      }),
  );
};
