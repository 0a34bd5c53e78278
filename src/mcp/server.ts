// The MCP server for one request: every tool group registered for the caller's key. Stateless:
// the HTTP route builds one per request, so tools always act with that request's key and tier.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { companyTools } from './company-tools.ts';
import { destinationTools } from './destination-tools.ts';
import { ownershipTools } from './ownership-tools.ts';
import { registerTools } from './register-tools.ts';
import { screeningTools } from './screening-tools.ts';
import { matchTools } from './match-tools.ts';
import type { ToolDeps, ToolGroup } from './tool-kit.ts';

const GROUPS: ToolGroup[] = [companyTools, ownershipTools, registerTools, screeningTools, destinationTools, matchTools];

export const SERVER_INFO = { name: 'nordic-company-data', version: '0.1.0' } as const;

export function createMcpServer(deps: ToolDeps): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Nordic company data (Norway, Finland, Sweden). Norwegian org numbers have 9 digits, Finnish NNNNNNN-N, Swedish 10 digits; ' +
      'country defaults to NO. Start with lookup_company or search_companies.',
  });
  for (const group of GROUPS) group(server, deps);
  return server;
}

export type { ToolDeps } from './tool-kit.ts';
