// Monitoring tools: list_events (GET /api/events), list_watchlists (GET /api/watchlists),
// create_watchlist (POST /api/watchlists), watch_companies / unwatch_companies
// (POST/DELETE /api/watchlists/{name}/companies) and delete_watchlist. Same services, same limits.
import { Type } from 'typebox';
import { StringEnum } from '../contract/common.ts';
import {
  EventCategory,
  EventsPage,
  EventsQuery,
  Watchlist,
  WatchlistCompaniesResult,
  WatchlistName,
  Watchlists,
} from '../contract/events.ts';
import { runTool, success, type ToolGroup } from './tool-kit.ts';

const Deleted = Type.Object({ deleted: Type.Boolean() });
// Looser than the REST bodies where the tools always were (any org-number text, no upper bound on
// categories); the services check what REST checks beyond the shape.
const Categories = Type.Array(EventCategory, { minItems: 1 });
const Companies = Type.Array(
  Type.Object({
    orgNumber: Type.String({ minLength: 1, maxLength: 20 }),
    country: StringEnum(['NO', 'SE', 'FI', 'DK'] as const),
  }),
  { minItems: 1, maxItems: 1000 },
);

const ListInput = Type.Object({
  after: EventsQuery.properties.after,
  orgNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  country: EventsQuery.properties.country,
  categories: Type.Optional(Categories),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
const NoInput = Type.Object({});
const CreateInput = Type.Object({
  name: WatchlistName,
  categories: Categories,
  destination: Type.String({ minLength: 1, maxLength: 100 }),
});
const CompaniesInput = Type.Object({ name: WatchlistName, companies: Companies });
const NameInput = Type.Object({ name: WatchlistName });

export const eventTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'list_events',
    {
      title: 'Company change events',
      description:
        'Typed change events (status, name, address, industry, roles, accounts, sub-units, deleted, …) with before/after values, in seq order after `after`. Pass nextAfter back as `after` to read on while hasMore is true (under a category or country filter alone one call reads a bounded stretch of the log, so it can return few or no events with hasMore true).',
      inputSchema: ListInput,
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
      inputSchema: NoInput,
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
      inputSchema: CreateInput,
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
      inputSchema: CompaniesInput,
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
      inputSchema: CompaniesInput,
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
      inputSchema: NameInput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    ({ name }) =>
      runTool(log, 'delete_watchlist', async () => {
        await services.watchlists.remove(caller, name);
        return success(Deleted, { deleted: true });
      }),
  );
};
