// The one global error handler: renders every error from the catalogue, turns schema
// failures into 400 with details[], and never echoes an internal message on a 5xx.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERROR_CATALOGUE, type ErrorCode, type ErrorDetail } from '../../errors.ts';

const CONTEXT_PREFIX: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

export function validationDetails(errors: AjvLikeError[], context: string | undefined): ErrorDetail[] {
  const prefix = CONTEXT_PREFIX[context ?? ''] ?? context ?? 'request';
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const e of errors) {
    let path = prefix + (e.instancePath ?? '').replace(/\//g, '.');
    if (e.keyword === 'required' && e.params?.missingProperty) path += `.${String(e.params.missingProperty)}`;
    if (e.keyword === 'additionalProperties' && e.params?.additionalProperty) path += `.${String(e.params.additionalProperty)}`;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') message = 'is required';
    else if (e.keyword === 'additionalProperties') message = 'is not an allowed field';
    else if (e.keyword === 'enum' && Array.isArray(e.params?.allowedValues)) message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    const key = `${path}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push({ path, message });
    }
  }
  return details;
}

function send(reply: FastifyReply, req: FastifyRequest, code: ErrorCode, err?: ApiError) {
  const { status, message } = ERROR_CATALOGUE[code];
  for (const [name, value] of Object.entries(err?.opts.headers ?? {})) reply.header(name, String(value));
  const body: Record<string, unknown> = {
    error: err?.message ?? message,
    code,
    ...(err?.opts.details ? { details: err.opts.details } : {}),
    ...(err?.opts.extra ?? {}),
    requestId: req.id,
  };
  return reply.status(status).send(body);
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

export function registerErrorHandling(app: FastifyInstance) {
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
      return reply.status(err.statusCode).send({ error: 'Bad request', code: 'bad_request', requestId: req.id });
    }
    req.log.error({ err }, 'request failed');
    return send(reply, req, 'internal_error');
  });

  app.setNotFoundHandler((req, reply) => send(reply, req, 'route_not_found'));
}
