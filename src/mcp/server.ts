// The MCP server for one request: every tool group registered for the caller's key. Stateless:
// the HTTP route builds one per request, so tools always act with that request's key and tier.
// The SDK's low-level Server takes the tools' JSON Schemas as they are (tool-kit.ts serves them).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { companyTools } from './company-tools.ts';
import { contextTools } from './context-tools.ts';
import { destinationTools } from './destination-tools.ts';
import { eventTools } from './event-tools.ts';
import { ownershipTools } from './ownership-tools.ts';
import { ownershipChainTools } from './ownership-chain-tools.ts';
import { procurementTools } from './procurement-tools.ts';
import { prospectTools } from './prospect-tools.ts';
import { registerTools } from './register-tools.ts';
import { screeningTools } from './screening-tools.ts';
import { matchTools } from './match-tools.ts';
import { evidenceTools } from './evidence-tools.ts';
import { watchlistTools } from './watchlist-tools.ts';
import { serveTools, type ToolDeps, type ToolGroup } from './tool-kit.ts';

const GROUPS: ToolGroup[] = [
  companyTools,
  prospectTools,
  ownershipTools,
  ownershipChainTools,
  registerTools,
  screeningTools,
  destinationTools,
  contextTools,
  procurementTools,
  eventTools,
  watchlistTools,
  matchTools,
  evidenceTools,
];

/** What every tool call costs: appended to each tool's description, so an agent can budget. */
export const COST_NOTE =
  'Cost: each call is one request against your key’s per-minute rate and daily/monthly quota (as one REST call).';

export const SERVER_INFO = { name: 'nordic-company-data', version: '0.1.0' } as const;

export function createMcpServer(deps: ToolDeps): Server {
  const server = new Server(SERVER_INFO, {
    instructions:
      'Nordic company data (Norway, Finland, Sweden, Denmark). Norwegian org numbers have 9 digits, Finnish NNNNNNN-N, ' +
      'Swedish 10 digits, Danish CVR 8 digits; country defaults to NO. Start with lookup_company or search_companies; ' +
      'beside them: shareholders and ultimate owners, group trees, PEP/sanctions screening, procurement notices, ' +
      'market context from the statistics bureaus, name matching, evidence packs, and monitoring: events with watchlists. ' +
      'Signed in with an API key or OAuth; with OAuth, tools that change the project (watchlists, destinations, push, ' +
      'evidence packs) need the write:monitoring scope, the others read:companies.',
  });
  serveTools(server, GROUPS, deps, COST_NOTE);
  return server;
}

export type { ToolDeps } from './tool-kit.ts';
