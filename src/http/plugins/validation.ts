// Schema validation with two Ajv instances: query strings, params and headers are text on the
// wire and are coerced to the schema's types; JSON bodies are not (a number sent for a string
// field is an error, not a string). Unknown body fields are dropped where a schema closes them.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

function ajv(options: Options): Ajv {
  const a = new Ajv({ allErrors: true, useDefaults: true, strict: false, ...options });
  (addFormats as unknown as (a: Ajv) => void)(a);
  return a;
}

/**
 * JSON-pointer path of a string holding a NUL character, if any. Iterative: a hostile
 * body nested thousands of levels deep must not overflow the stack (the schema rejects it next).
 */
function nulPath(data: unknown): string | undefined {
  const pending: [unknown, string][] = [[data, '']];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
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
function rejectingNul(validate: ValidateFunction): ValidateFunction {
  const wrapped = ((data: unknown) => {
    const at = nulPath(data);
    if (at !== undefined) {
      const error: ErrorObject = {
        instancePath: at,
        schemaPath: '#',
        keyword: 'nul',
        params: {},
        message: 'must not contain a NUL character',
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
    rejectingNul((httpPart === 'body' ? forBody : forText).compile(schema)),
  );
}
