// The machine endpoints of the OAuth 2.1 sign-in for MCP clients: discovery metadata
// (RFC 9728 protected resource, RFC 8414 authorization server), dynamic client registration
// (RFC 7591, Orakel's path /api/oauth/register, limited per client IP), the token endpoint and
// revocation (RFC 7009). They speak the RFCs' formats (form bodies, `error`/`error_description`),
// so they stay out of /openapi.json; the metadata documents describe them.
import type { FastifyInstance } from 'fastify';
import { publicBaseUrl } from '../../../plugins/security-headers.ts';
import type { Api, RouteDeps } from '../../../types.ts';
import type { OAuthParams } from '../../../../services/access/oauth.ts';
import { acceptForms, allowCors, oauthErrorHandler, preflight } from './scope.ts';

const hide = { schema: { hide: true } } as const;
const asParams = (body: unknown): OAuthParams =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as OAuthParams) : {};

export default function oauthEndpoints(app: Api, { ctx, services }: RouteDeps) {
  const { oauth } = services;
  (app as unknown as FastifyInstance).register(async (scope) => {
    acceptForms(scope);
    scope.setErrorHandler(oauthErrorHandler);

    // RFC 9728 §3.1: the metadata of /api/mcp sits at the path-suffixed URL; the root one is for
    // clients that look there first.
    for (const url of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp']) {
      scope.get(url, hide, async (req, reply) => {
        allowCors(reply);
        return oauth.protectedResourceMetadata(publicBaseUrl(req, ctx.config));
      });
      preflight(scope, url);
    }
    scope.get('/.well-known/oauth-authorization-server', hide, async (req, reply) => {
      allowCors(reply);
      return oauth.authorizationServerMetadata(publicBaseUrl(req, ctx.config));
    });
    preflight(scope, '/.well-known/oauth-authorization-server');

    scope.post('/api/oauth/register', hide, async (req, reply) => {
      allowCors(reply);
      const client = await oauth.registerClient(req.ip, req.body);
      return reply.status(201).header('Cache-Control', 'no-store').send(client);
    });
    preflight(scope, '/api/oauth/register');

    scope.post('/api/oauth/token', hide, async (req, reply) => {
      allowCors(reply);
      const tokens = await oauth.token(asParams(req.body), publicBaseUrl(req, ctx.config));
      return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
    });
    preflight(scope, '/api/oauth/token');

    scope.post('/api/oauth/revoke', hide, async (req, reply) => {
      allowCors(reply);
      await oauth.revoke(asParams(req.body));
      return reply.header('Cache-Control', 'no-store').status(200).send({});
    });
    preflight(scope, '/api/oauth/revoke');
  });
}
