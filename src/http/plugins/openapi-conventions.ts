// Conventions every operation of /openapi.json follows, applied centrally so that routes added
// later comply without edits of their own:
//   - security: a route whose config says `auth: 'key'` requires the bearer key; every other
//     documented route says `security: []` (public), unless the route states its own;
//   - operationId: a stable camelCase name from method and path (`GET /api/companies/{orgNumber}`
//     -> `getCompaniesByOrgNumber`) unless the route sets one;
//   - headers: `X-Request-Id` on every response, `RateLimit-*` on keyed responses, `Retry-After`
//     on 429 and 503;
//   - errors: the error `code` is an enum of the catalogue (a body of its own with an open `code`
//     gets the codes of its status); each error status gets a description
//     listing its codes and one realistic example per code (with the `docs` link); every
//     operation documents 414 and 503, which any request can meet.
import type { RouteOptions } from 'fastify';
import { errorCatalogueDocs, errorDocsUrl } from '../../error-docs.ts';
import { ERROR_CATALOGUE } from '../../errors.ts';

// The document is walked as open-ended JSON: each level (paths, operations, responses, the
// schemas the routes declared) is read and rebuilt by key, and `unknown` would need a cast at
// every step of that walk.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- open-ended JSON, see above
type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const BEARER = [{ bearer: [] }];

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** `post` + `/api/keys/register` -> `postKeysRegister`; `{name}` / `:name` segments read `ByName`. */
function operationIdFor(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((s, i) => s !== '' && !(i === 1 && s === 'api'))
    .map((s) => {
      const param = /^(?::(\w+)|\{(\w+)\})$/.exec(s);
      return param ? `By${pascal(param[1] ?? param[2])}` : pascal(s);
    });
  return method.toLowerCase() + (words.join('') || 'Root');
}

/** onRoute: the security requirement of each documented route, from its auth config. */
export function applyRouteSecurity(route: RouteOptions): void {
  const schema = route.schema as Json | undefined;
  if (!schema || schema.hide) return;
  if (schema.security === undefined) schema.security = route.config?.auth === 'key' ? BEARER : [];
}

const HEADERS: Json = {
  XRequestId: {
    description: 'The request id (yours when you sent a valid `X-Request-Id`, else generated); quote it in reports.',
    schema: { type: 'string' },
  },
  RateLimitLimit: { description: 'Requests allowed per minute for this key.', schema: { type: 'integer' } },
  RateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  RateLimitPolicy: {
    description: 'The policy, e.g. `60;w=60` (limit; window in seconds).',
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
};

const EXAMPLE_REQUEST_ID = '6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f';

function exampleBody(baseUrl: string, code: string, message: string): Json {
  const extra: Json = {};
  if (code === 'validation_failed')
    extra.details = [{ path: 'params.orgNumber', message: 'must be 9 digits with a valid check digit' }];
  if (code === 'trial_expired') extra.upgradeUrl = `${baseUrl}/api/access-requests`;
  if (ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE]?.status === 429) extra.retryAfter = 42;
  return { error: message, code, ...extra, requestId: EXAMPLE_REQUEST_ID, docs: errorDocsUrl(baseUrl, code) };
}

/** The codes an operation can answer with a given status, most specific first. */
function codesFor(status: number, path: string, secured: boolean) {
  const all = errorCatalogueDocs().filter((d) => d.status === status && !d.unrouted);
  const fitting = all.filter((d) => (!d.keyed || secured) && (!d.paths || d.paths.test(path)));
  return fitting.length ? fitting : all;
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorBody' };
/** Statuses any request can meet before its route runs: URL too long, store unreachable. */
const ANY_REQUEST = [414, 503];

const isErrorBody = (response: Json) =>
  Object.values<Json>(response.content ?? {}).some((m) => m.schema?.$ref === ERROR_REF.$ref);

function errorResponse(baseUrl: string, status: number, path: string, secured: boolean, response: Json = {}): Json {
  const codes = codesFor(status, path, secured);
  const list = codes.map((d) => `\`${d.code}\``).join(', ');
  return {
    ...response,
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${list || 'see the errors page'}. See /errors`,
    content: {
      'application/json': {
        schema: ERROR_REF,
        examples: Object.fromEntries(
          codes.map((d) => [d.code, { summary: d.message, value: exampleBody(baseUrl, d.code, d.message) }]),
        ),
      },
    },
  };
}

/**
 * An error response with a body of its own (not ErrorBody, e.g. 410 `events_expired` with
 * `resumeAfter`): a `code` its contract left open becomes the enum of the codes the operation
 * can answer with that status, so every error `code` in the document is one of the catalogue's.
 */
function withCodeEnum(response: Json, status: number, path: string, secured: boolean): Json {
  const content: Json = {};
  for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
    const code = media.schema?.properties?.code;
    content[type] =
      code && !code.enum
        ? {
            ...media,
            schema: {
              ...media.schema,
              properties: {
                ...media.schema.properties,
                code: { ...code, enum: codesFor(status, path, secured).map((d) => d.code) },
              },
            },
          }
        : media;
  }
  return response.content ? { ...response, content } : response;
}

function withHeaders(response: Json, status: number, secured: boolean): Json {
  const headers: Json = { ...(response.headers ?? {}), 'X-Request-Id': ref('XRequestId') };
  if (secured && status !== 401) {
    headers['RateLimit-Limit'] = ref('RateLimitLimit');
    headers['RateLimit-Remaining'] = ref('RateLimitRemaining');
    headers['RateLimit-Reset'] = ref('RateLimitReset');
    headers['RateLimit-Policy'] = ref('RateLimitPolicy');
  }
  if (status === 429 || status === 503) headers['Retry-After'] = ref('RetryAfter');
  return { ...response, headers };
}

/**
 * transformObject: the document-wide conventions above. Examples use the default base URL, so
 * the document (and the client types generated from it) do not depend on where it was built.
 */
export function applyDocumentConventions(doc: Json, baseUrl = 'http://localhost:3000'): Json {
  const components: Json = { ...(doc.components ?? {}), headers: { ...(doc.components?.headers ?? {}), ...HEADERS } };
  const errorBody = components.schemas?.ErrorBody;
  if (errorBody) {
    const code = { ...errorBody.properties.code, enum: Object.keys(ERROR_CATALOGUE) };
    components.schemas = {
      ...components.schemas,
      ErrorBody: { ...errorBody, properties: { ...errorBody.properties, code } },
    };
  }
  const paths: Json = {};
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    const next: Json = { ...item };
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const security: Json[] = op.security ?? doc.security ?? [];
      const secured = security.some((r) => Object.keys(r).length > 0);
      const responses: Json = {};
      const declared: Json = { ...op.responses };
      for (const status of ANY_REQUEST) declared[status] ??= { content: { 'application/json': { schema: ERROR_REF } } };
      for (const [key, response] of Object.entries<Json>(declared)) {
        const status = Number(key);
        const body =
          status < 400
            ? response
            : isErrorBody(response)
              ? errorResponse(baseUrl, status, path, secured, response)
              : withCodeEnum(response, status, path, secured);
        responses[key] = withHeaders(body, status, secured);
      }
      next[method] = { ...op, operationId: op.operationId ?? operationIdFor(method, path), responses };
    }
    paths[path] = next;
  }
  return { ...doc, components, paths };
}
