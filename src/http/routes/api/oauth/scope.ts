// What the OAuth endpoints share: form bodies (application/x-www-form-urlencoded, RFC 6749 §4.1.3)
// parsed into an object whose repeated fields are arrays (so they are refused, never guessed),
// RFC 6749 §5.2 error bodies instead of the API's error body, no caching, and CORS for the
// machine endpoints (browser-based MCP clients such as the MCP Inspector call them directly).
import { InvalidRequestError, OAuthError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDependencyUnavailable } from '../../../plugins/errors.ts';

function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [...[prev].flat(), v];
  }
  return out;
}

export function acceptForms(scope: FastifyInstance) {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, parseForm(body as string)),
  );
}

const STATUS: Record<string, number> = { invalid_client: 401, too_many_requests: 429, server_error: 500 };

/** Renders OAuth errors as RFC 6749 §5.2 bodies (`error`, `error_description`). */
export function oauthErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  let oauth: OAuthError;
  if (err instanceof OAuthError) oauth = err;
  else if (err.statusCode && err.statusCode < 500)
    oauth = new InvalidRequestError('The request body could not be read');
  else if (isDependencyUnavailable(err)) {
    // The database or Redis is down or refuses writes: temporary (RFC 6749 §4.1.2.1's
    // temporarily_unavailable), so a 503 the client retries after Retry-After.
    req.log.warn({ err: (err as Error).message }, 'oauth dependency unavailable');
    reply.header('Retry-After', 5).header('Cache-Control', 'no-store');
    return reply.status(503).send({
      error: 'temporarily_unavailable',
      error_description: 'The service is temporarily unavailable; retry shortly',
      requestId: req.id,
    });
  } else {
    req.log.error({ err }, 'oauth request failed');
    oauth = new ServerError('Internal server error');
  }
  const retryAfter = (err as { retryAfter?: number }).retryAfter;
  if (retryAfter) reply.header('Retry-After', retryAfter);
  reply.header('Cache-Control', 'no-store');
  return reply.status(STATUS[oauth.errorCode] ?? 400).send({ ...oauth.toResponseObject(), requestId: req.id });
}

/** Cross-origin access for the machine endpoints (no cookies: they authenticate by body). */
export function allowCors(reply: FastifyReply) {
  reply.header('Access-Control-Allow-Origin', '*');
}

export function preflight(scope: FastifyInstance, url: string) {
  scope.options(url, { schema: { hide: true } }, async (_req, reply) => {
    allowCors(reply);
    reply.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    reply.header('Access-Control-Allow-Headers', 'Content-Type, Authorization, MCP-Protocol-Version');
    reply.header('Access-Control-Max-Age', 86400);
    return reply.status(204).send();
  });
}
