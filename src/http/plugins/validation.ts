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

/** JSON-pointer path of the first string holding a NUL character, if any. */
function nulPath(data: unknown, path: string): string | undefined {
  if (typeof data === 'string') return data.includes('\u0000') ? path : undefined;
  if (data === null || typeof data !== 'object') return undefined;
  for (const [k, v] of Object.entries(data)) {
    const found = nulPath(v, `${path}/${k}`);
    if (found !== undefined) return found;
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
    const at = nulPath(data, '');
    if (at !== undefined) {
      const error: ErrorObject = { instancePath: at, schemaPath: '#', keyword: 'nul', params: {}, message: 'must not contain a NUL character' };
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
  app.setValidatorCompiler(({ schema, httpPart }) => rejectingNul((httpPart === 'body' ? forBody : forText).compile(schema)));
}
