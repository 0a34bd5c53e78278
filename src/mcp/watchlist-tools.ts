// Watchlist reading tools: list_watchlist_companies (GET /api/watchlists/{name}/companies), the
// same service, page and cursor as REST; a name the project does not have is "Watchlist not found".
import { Type } from 'typebox';
import { WatchlistMembers, WatchlistMembersQuery, WatchlistName } from '../contract/events.ts';
import { runTool, success, type ToolGroup } from './tool-kit.ts';

const MembersInput = Type.Object({
  name: WatchlistName,
  limit: WatchlistMembersQuery.properties.limit,
  cursor: WatchlistMembersQuery.properties.cursor,
});

export const watchlistTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'list_watchlist_companies',
    {
      title: "A watchlist's companies",
      description:
        'The companies on one of the project’s watchlists, in (country, orgNumber) order, each with orgNumber, country, the stored name (null when unknown) and addedAt. Pass nextCursor back as `cursor` while hasMore is true.',
      inputSchema: MembersInput,
      annotations: { readOnlyHint: true },
    },
    ({ name, limit, cursor }) =>
      runTool(log, 'list_watchlist_companies', async () =>
        success(WatchlistMembers, await services.watchlists.companies(caller, name, { limit, cursor })),
      ),
  );
};
