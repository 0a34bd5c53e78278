// POST /api/mcp — the Model Context Protocol endpoint (Streamable HTTP, stateless). Keyed like
// every data route: the shared auth hooks check the Bearer key (or an OAuth access token issued
// for this endpoint: routes/api/oauth, services/oauth.ts), the per-minute rate and the
// daily/monthly quota, so each MCP HTTP request counts once. A JSON-RPC batch is refused by the
// schema (MCP dropped batching), so one tools/call is always one counted request. The tool
// catalog lives in src/mcp; a fresh server and transport serve each request with its caller.
// GET and DELETE answer 405: a stateless server has no stream to open and no session to end.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiError } from '../../../errors.ts';
import { createMcpServer } from '../../../mcp/server.ts';
import { callerOf } from '../../plugins/auth.ts';
import { errorResponses } from '../../../contract/common.ts';
import { JsonRpcAccepted, JsonRpcMessage, JsonRpcResponse } from '../../../contract/mcp.ts';
import type { Api, RouteDeps } from '../../types.ts';

const TOOLS =
  'lookup_company, search_companies, find_prospects, get_financials, get_corporate_group, get_shareholders, get_ownership_network, ' +
  'search_inspections, search_licenses, list_municipalities, screen_company, list_destinations, push_to_destination, manage_destination';

export default function mcpRoute(app: Api, { ctx, services }: RouteDeps) {
  app.post(
    '/api/mcp',
    {
      config: { auth: 'key', oauth: true },
      schema: {
        tags: ['mcp'],
        summary: 'Model Context Protocol endpoint (Streamable HTTP)',
        description:
          `For MCP clients (Claude, Cursor, the MCP SDKs), not for hand-written calls. Stateless Streamable HTTP: no session id; send ` +
          '`Accept: application/json, text/event-stream`; answers are JSON. Authorization: an API key as Bearer token, or an OAuth ' +
          'access token (sign-in discovered from the 401’s `WWW-Authenticate` header: /.well-known/oauth-protected-resource). Tools: ' +
          TOOLS +
          '. Each HTTP request counts once against the key’s per-minute rate and daily/monthly quotas (initialize, tools/list and ' +
          'each tools/call are separate requests). Tools apply the key’s tier (page-size cap, search filter rule, push right). ' +
          'A tool failure (unknown company, invalid number, refused by tier) is a tool result with `isError: true`. GET and DELETE answer 405.',
        security: [{ bearer: [] }],
        body: JsonRpcMessage,
        response: {
          200: JsonRpcResponse,
          202: JsonRpcAccepted,
          ...errorResponses(400, 401, 402, 415, 429, 500),
        },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const server = createMcpServer({ services, reference: ctx.reference, caller, log: req.log });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The SDK writes the raw response itself. Headers set so far (RateLimit-*, helmet's) go
      // with it, plus the request id the onSend hook would have added.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.setHeader('X-Request-Id', req.id);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(req.raw, reply.raw, req.body);
      } catch (err) {
        req.log.error({ err }, 'mcp request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          reply.raw.end(JSON.stringify({ error: 'Internal server error', code: 'internal_error', requestId: req.id }));
        }
      }
    },
  );

  // Stateless: no server-to-client stream (GET) and no session to delete (DELETE).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/api/mcp',
      schema: { hide: true },
      handler: async () => {
        throw new ApiError('method_not_allowed', {
          message: 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST',
          headers: { Allow: 'POST' },
        });
      },
    });
  }
}
