// The one global error handler: renders every error from the catalogue, turns schema
// failures into 400 with details[], and never echoes an internal message on a 5xx.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/index.ts';
import { errorDocsUrl } from '../../error-docs.ts';
import { ApiError, ERROR_CATALOGUE, type ErrorCode, type ErrorDetail } from '../../errors.ts';
import { publicBaseUrl } from './security-headers.ts';

const CONTEXT_PREFIX: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

function validationDetails(errors: AjvLikeError[], context: string | undefined): ErrorDetail[] {
  const prefix = CONTEXT_PREFIX[context ?? ''] ?? context ?? 'request';
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const e of errors) {
    let path = prefix + (e.instancePath ?? '').replace(/\//g, '.');
    if (e.keyword === 'required' && e.params?.missingProperty) path += `.${String(e.params.missingProperty)}`;
    if (e.keyword === 'additionalProperties' && e.params?.additionalProperty)
      path += `.${String(e.params.additionalProperty)}`;
    if (e.keyword === 'unknownParameter' && e.params?.parameter) path += `.${String(e.params.parameter)}`;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') message = 'is required';
    else if (e.keyword === 'additionalProperties') message = 'is not an allowed field';
    else if (e.keyword === 'enum' && Array.isArray(e.params?.allowedValues))
      message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    const key = `${path}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push({ path, message });
    }
  }
  return details;
}

function sendError(
  reply: FastifyReply,
  req: FastifyRequest,
  baseUrl: string,
  code: ErrorCode,
  err?: ApiError,
  status?: number,
) {
  const { message } = ERROR_CATALOGUE[code];
  for (const [name, value] of Object.entries(err?.opts.headers ?? {})) reply.header(name, String(value));
  const body: Record<string, unknown> = {
    error: err?.message ?? message,
    code,
    ...(err?.opts.details ? { details: err.opts.details } : {}),
    ...(err?.opts.extra ?? {}),
    requestId: req.id,
    // Each body links to its code on the errors page (meaning and what to do).
    docs: errorDocsUrl(baseUrl, code),
  };
  return reply.status(status ?? ERROR_CATALOGUE[code].status).send(body);
}

function fastifyErrorCode(err: FastifyError): ErrorCode | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'invalid_json';
  }
  if (err instanceof SyntaxError && err.statusCode === 400) return 'invalid_json';
  return undefined;
}

// PostgreSQL or Redis unreachable (stopped, restarting, network cut): the request fails fast
// with 503 service_unavailable instead of a generic 500, so clients and load balancers see a
// temporary outage and retry; the pools reconnect by themselves once the service is back.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Connection is closed|Client has encountered a connection error|Stream isn't writeable|Reached the max retries per request|Command timed out|Redis connection is not ready/i;

/**
 * Redis answers but refuses the write: out of memory (maxmemory with noeviction), a read-only
 * replica after a failover, too few replicas (min-replicas-to-write), a failed snapshot
 * (stop-writes-on-bgsave-error), still loading, busy with a script. Each is an error reply
 * whose first word names it; all are temporary, so the request is a 503 like an outage.
 */
const REDIS_REFUSAL = /^(OOM|READONLY|NOREPLICAS|MISCONF|LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY)\b/;

export function isDependencyUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown[]; cause?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  if (e.name === 'ReplyError' && typeof e.message === 'string' && REDIS_REFUSAL.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDependencyUnavailable(x, depth + 1))) return true;
  return isDependencyUnavailable(e.cause, depth + 1);
}

/**
 * Errors the router raises before any route or hook runs (Fastify's `frameworkErrors`): a path
 * parameter longer than the router's limit (414) or a malformed percent-escape (400). Without
 * this they would leave in Fastify's own body shape, outside the documented error body.
 */
export function frameworkErrorHandler(config: Config) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const code: ErrorCode = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'uri_too_long' : 'bad_request';
    const status = code === 'bad_request' && err.statusCode && err.statusCode < 500 ? err.statusCode : undefined;
    // A percent-escape in the path that does not decode (not UTF-8, or not hex): say where and how.
    const detailed =
      err.code === 'FST_ERR_BAD_URL'
        ? new ApiError('bad_request', {
            details: [
              {
                path: 'path',
                message:
                  'has a percent-escape that is not UTF-8; percent-encode the UTF-8 bytes of each character (Ø is %C3%98)',
              },
            ],
          })
        : undefined;
    return sendError(reply, req, publicBaseUrl(req, config), code, detailed, status);
  };
}

export function registerErrorHandling(app: FastifyInstance, config: Config) {
  const send = (reply: FastifyReply, req: FastifyRequest, code: ErrorCode, err?: ApiError, status?: number) =>
    sendError(reply, req, publicBaseUrl(req, config), code, err, status);
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) {
      if (err.status >= 500) req.log.error({ err }, 'request failed');
      return send(reply, req, err.code, err);
    }
    if (err.validation) {
      const details = validationDetails(err.validation as AjvLikeError[], err.validationContext);
      return send(reply, req, 'validation_failed', new ApiError('validation_failed', { details }));
    }
    const mapped = fastifyErrorCode(err);
    if (mapped) return send(reply, req, mapped);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Another client error raised by Fastify itself: keep its status, use a generic body.
      req.log.info({ code: err.code }, 'client error');
      return send(reply, req, 'bad_request', undefined, err.statusCode);
    }
    if (isDependencyUnavailable(err)) {
      req.log.warn({ err: (err as Error).message }, 'dependency unavailable');
      reply.header('Retry-After', 5);
      return send(reply, req, 'service_unavailable');
    }
    req.log.error({ err }, 'request failed');
    return send(reply, req, 'internal_error');
  });

  app.setNotFoundHandler((req, reply) => send(reply, req, 'route_not_found'));
}
