// Bearer auth and limits for every route whose config says `auth: 'key'`:
//   onRequest  : key -> caller, trial check, per-minute rate limit, RateLimit-* headers
//   preHandler : daily/monthly quota (after validation, so a rejected request costs nothing)
import type { FastifyInstance } from 'fastify';
import { isWellFormedKey } from '../../domain/api-key.ts';
import { ApiError } from '../../errors.ts';
import type { AuthContext, KeyAuthService } from '../../services/key-auth.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'key': a valid API key is required (Authorization: Bearer). 'service-token': the key's
     * service token is the route's `token` path parameter (clients that cannot send headers).
     */
    auth?: 'key' | 'service-token';
    /** false: the call does not count against daily/monthly quotas (usage, rotate). */
    quota?: boolean;
  }
  interface FastifyRequest {
    caller?: AuthContext;
  }
}

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

export function registerAuth(app: FastifyInstance, keys: KeyAuthService) {
  app.decorateRequest('caller', undefined);

  const bearerCaller = async (header: string | undefined) => {
    if (!header || !header.trim()) throw new ApiError('missing_api_key');
    const match = BEARER.exec(header);
    if (!match) throw new ApiError('missing_api_key', { message: 'Missing API key' });
    return isWellFormedKey(match[1]) ? keys.authenticate(match[1]) : undefined;
  };
  const tokenCaller = async (params: unknown) => {
    const token = (params as { token?: string } | undefined)?.token;
    if (!token) throw new ApiError('missing_api_key');
    return keys.authenticateServiceToken(token);
  };

  app.addHook('onRequest', async (req, reply) => {
    const mode = req.routeOptions.config?.auth;
    if (mode !== 'key' && mode !== 'service-token') return;
    const caller = mode === 'key' ? await bearerCaller(req.headers.authorization) : await tokenCaller(req.params);
    if (!caller) throw new ApiError('invalid_api_key');
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
