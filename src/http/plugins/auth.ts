// Bearer auth and limits for every route whose config says `auth: 'key'` (or `'service-token'`,
// the key's token in the path, for OpenRefine):
//   onRequest  : key (or, on the MCP route, an OAuth access token for it) -> caller, trial
//                check, per-minute rate limit, RateLimit-* headers
//   preHandler : daily/monthly quota (after validation, so a rejected request costs nothing)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/index.ts';
import { isWellFormedKey } from '../../domain/api-key.ts';
import { oauthSecretKind } from '../../domain/oauth.ts';
import { ApiError } from '../../errors.ts';
import type { AuthContext, KeyAuthService } from '../../services/access/key-auth.ts';
import { mcpResource, protectedResourceMetadataUrl, type OAuthService } from '../../services/access/oauth.ts';
import { publicBaseUrl } from './security-headers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'key': a valid API key is required (Authorization: Bearer). 'service-token': the key's
     * service token is the route's `token` path parameter (clients that cannot send headers).
     */
    auth?: 'key' | 'service-token';
    /** true: an OAuth access token issued for this server's MCP resource is accepted too. */
    oauth?: boolean;
    /** false: the call does not count against daily/monthly quotas (usage, rotate). */
    quota?: boolean;
  }
  interface FastifyRequest {
    caller?: AuthContext;
  }
}

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

/**
 * On an OAuth-protected route a 401 says where to sign in (RFC 9728 §5.1, MCP authorization):
 * `WWW-Authenticate: Bearer resource_metadata="…"`, with `error="invalid_token"` when a
 * credential was sent and refused (RFC 6750 §3.1).
 */
function challenge(req: FastifyRequest, config: Config, refused: boolean) {
  if (!req.routeOptions.config?.oauth) return undefined;
  const meta = protectedResourceMetadataUrl(publicBaseUrl(req, config));
  return { 'WWW-Authenticate': `Bearer resource_metadata="${meta}"${refused ? ', error="invalid_token"' : ''}` };
}

export function registerAuth(app: FastifyInstance, keys: KeyAuthService, oauth: OAuthService, config: Config) {
  app.decorateRequest('caller', undefined);

  async function authenticate(req: FastifyRequest, raw: string): Promise<AuthContext | undefined> {
    if (isWellFormedKey(raw)) return keys.authenticate(raw);
    if (!req.routeOptions.config?.oauth || oauthSecretKind(raw) !== 'access') return undefined;
    // The audience is checked on every call: a token for another resource is refused.
    const found = await oauth.authenticateAccessToken(raw, mcpResource(publicBaseUrl(req, config)));
    return found === 'wrong_audience' ? undefined : found;
  }

  async function bearerCaller(req: FastifyRequest): Promise<AuthContext> {
    const header = req.headers.authorization;
    if (!header || !header.trim()) throw new ApiError('missing_api_key', { headers: challenge(req, config, false) });
    const match = BEARER.exec(header);
    if (!match)
      throw new ApiError('missing_api_key', { message: 'Missing API key', headers: challenge(req, config, false) });
    const caller = await authenticate(req, match[1]);
    if (!caller) throw new ApiError('invalid_api_key', { headers: challenge(req, config, true) });
    return caller;
  }

  async function tokenCaller(params: unknown): Promise<AuthContext> {
    const token = (params as { token?: string } | undefined)?.token;
    if (!token) throw new ApiError('missing_api_key');
    const caller = await keys.authenticateServiceToken(token);
    if (!caller) throw new ApiError('invalid_api_key');
    return caller;
  }

  app.addHook('onRequest', async (req, reply) => {
    const mode = req.routeOptions.config?.auth;
    if (mode !== 'key' && mode !== 'service-token') return;
    const caller = mode === 'key' ? await bearerCaller(req) : await tokenCaller(req.params);
    req.caller = caller;

    keys.guardTrial(caller);

    const w = await keys.consumeRate(caller);
    if (!w) return;
    reply.header('RateLimit-Limit', w.limit);
    reply.header('RateLimit-Remaining', w.remaining);
    reply.header('RateLimit-Reset', w.resetSec);
    reply.header('RateLimit-Policy', `${w.limit};w=60`);
    if (!w.allowed)
      throw new ApiError('rate_limited', { headers: { 'Retry-After': w.resetSec }, extra: { retryAfter: w.resetSec } });
  });

  app.addHook('preHandler', async (req) => {
    if (!req.caller || req.routeOptions.config?.quota === false) return;
    await keys.chargeQuota(req.caller);
  });
}

/** The caller of a keyed route (the auth hook has run). */
export function callerOf(req: { caller?: AuthContext }): AuthContext {
  if (!req.caller) throw new ApiError('invalid_api_key');
  return req.caller;
}
