// Bearer auth and limits for every route whose config says `auth: 'key'`:
//   onRequest  : key -> caller, trial check, per-minute rate limit, RateLimit-* headers
//   preHandler : daily/monthly quota (after validation, so a rejected request costs nothing)
import type { FastifyInstance } from 'fastify';
import { isWellFormedKey } from '../../domain/api-key.ts';
import { ApiError } from '../../errors.ts';
import type { AuthContext, KeyAuthService } from '../../services/key-auth.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'key': a valid API key is required. */
    auth?: 'key';
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

  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.auth !== 'key') return;
    const header = req.headers.authorization;
    if (!header || !header.trim()) throw new ApiError('missing_api_key');
    const match = BEARER.exec(header);
    if (!match) throw new ApiError('missing_api_key', { message: 'Missing API key' });
    const raw = match[1];
    const caller = isWellFormedKey(raw) ? await keys.authenticate(raw) : undefined;
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
