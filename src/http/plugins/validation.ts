// Schema validation with two Ajv instances: query strings, params and headers are text on the
// wire and are coerced to the schema's types; JSON bodies are not (a number sent for a string
// field is an error, not a string). Unknown body fields are dropped where a schema closes them.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { closest, distance } from 'fastest-levenshtein';
import { keyShaped } from '../../domain/api-key.ts';

function ajv(options: Options): Ajv {
  const a = new Ajv({ allErrors: true, useDefaults: true, strict: false, ...options });
  (addFormats as unknown as (a: Ajv) => void)(a);
  return a;
}

/**
 * JSON-pointer path of the first string that `bad` refuses, if any. Iterative: a hostile
 * body nested thousands of levels deep must not overflow the stack (the schema rejects it next).
 */
function refusedPath(data: unknown, bad: (s: string) => boolean): string | undefined {
  const pending: [unknown, string][] = [[data, '']];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      if (bad(value)) return path;
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) pending.push([v, `${path}/${k}`]);
    }
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold a NUL character, so one in any input (a `%00` in a path segment,
 * a `\u0000` in JSON) would fail in the database as a 500 (found by the reliability fuzzer on
 * /api/destinations/%00). No field of this API has a use for it: it is a 400 for every route.
 */
const hasNul = (s: string) => s.includes('\u0000');

/**
 * One of our API keys belongs in the Authorization header only. In a body field it would be
 * stored (a project name, a destination name) where only keyed hashes may rest, so a body string
 * that holds a key-shaped value is refused, and nothing is written.
 */
const KEY_SHAPE = keyShaped();
const hasKey = (s: string) => KEY_SHAPE.test(s);

function rejecting(validate: ValidateFunction, checkKeys: boolean): ValidateFunction {
  const wrapped = ((data: unknown) => {
    const nulAt = refusedPath(data, hasNul);
    const keyAt = nulAt === undefined && checkKeys ? refusedPath(data, hasKey) : undefined;
    const at = nulAt ?? keyAt;
    if (at !== undefined) {
      const error: ErrorObject = {
        instancePath: at,
        schemaPath: '#',
        keyword: nulAt !== undefined ? 'nul' : 'apiKey',
        params: {},
        message:
          nulAt !== undefined
            ? 'must not contain a NUL character'
            : 'must not contain an API key (send keys only in the Authorization header)',
      };
      wrapped.errors = [error];
      return false;
    }
    const ok = validate(data);
    wrapped.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  return wrapped;
}

/**
 * The parameter names a querystring schema declares (through allOf/anyOf/oneOf too), or
 * undefined when the schema leaves its parameters open (additionalProperties or
 * patternProperties). Read from the schema, so a parameter added to a route's contract is known
 * here without a second list.
 */
export function declaredParameters(schema: unknown): Set<string> | undefined {
  const names = new Set<string>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const s = pending.pop() as Record<string, unknown> | undefined;
    if (!s || typeof s !== 'object') continue;
    if (s.patternProperties || (s.additionalProperties !== undefined && s.additionalProperties !== false))
      return undefined;
    if (s.properties && typeof s.properties === 'object') for (const k of Object.keys(s.properties)) names.add(k);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) pending.push(...s[key]);
  }
  return names;
}

/** A known name within two edits of `name` (a typo), if there is one. */
function meant(name: string, known: string[]): string | undefined {
  if (known.length === 0) return undefined;
  const best = closest(name, known);
  const limit = Math.min(2, Math.max(1, Math.floor(best.length / 3)));
  return distance(name.toLowerCase(), best.toLowerCase()) <= limit ? best : undefined;
}

/**
 * Query strings are closed: a parameter the route's schema does not declare is a 400 naming it
 * (and the parameter probably meant), not silently ignored. Ignored, it would look like a
 * filter to the caller (and to "at least one filter" rules) while filtering nothing.
 */
function closingQuery(validate: ValidateFunction, schema: unknown): ValidateFunction {
  const declared = declaredParameters(schema);
  if (declared === undefined) return validate;
  const known = [...declared].sort();
  const wrapped = ((data: unknown) => {
    if (data !== null && typeof data === 'object') {
      const unknown = Object.keys(data).filter((k) => !declared.has(k));
      if (unknown.length > 0) {
        wrapped.errors = unknown.map((name): ErrorObject => {
          const hint = meant(name, known);
          return {
            instancePath: '',
            schemaPath: '#/additionalProperties',
            keyword: 'unknownParameter',
            params: { parameter: name, ...(hint ? { suggestion: hint } : {}) },
            message: hint
              ? `is not a parameter of this operation; did you mean ${hint}?`
              : known.length > 0
                ? `is not a parameter of this operation (known: ${known.join(', ')})`
                : 'is not a parameter of this operation (it takes none)',
          };
        });
        return false;
      }
    }
    const ok = validate(data);
    wrapped.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  return wrapped;
}

export function registerValidation(app: FastifyInstance) {
  const forBody = ajv({ coerceTypes: false, removeAdditional: true });
  const forText = ajv({ coerceTypes: 'array', removeAdditional: true });
  // An API operation that declares no query parameters takes none: its query string is closed
  // too. OAuth endpoints are left open, as RFC 6749 §3.1 tells a server to ignore parameters it
  // does not know; the MCP endpoint speaks JSON-RPC in its body.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || /^\/api\/(oauth|mcp)(\/|$)/.test(route.url)) return;
    if (route.schema?.querystring !== undefined) return;
    route.schema = { ...route.schema, querystring: { type: 'object', properties: {} } };
  });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const compiled = (httpPart === 'body' ? forBody : forText).compile(schema);
    return rejecting(httpPart === 'querystring' ? closingQuery(compiled, schema) : compiled, httpPart === 'body');
  });
}
