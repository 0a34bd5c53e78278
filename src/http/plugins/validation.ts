// Schema validation with two Ajv instances: query strings, params and headers are text on the
// wire and are coerced to the schema's types; JSON bodies are not (a number sent for a string
// field is an error, not a string). Unknown body fields are dropped where a schema closes them.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
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

export function registerValidation(app: FastifyInstance) {
  const forBody = ajv({ coerceTypes: false, removeAdditional: true });
  const forText = ajv({ coerceTypes: 'array', removeAdditional: true });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    rejecting((httpPart === 'body' ? forBody : forText).compile(schema), httpPart === 'body'),
  );
}
