// Schema validation with two Ajv instances: query strings, params and headers are text on the
// wire and are coerced to the schema's types; JSON bodies are not (a number sent for a string
// field is an error, not a string). Unknown body fields are dropped where a schema closes them.
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

function ajv(options: Options): Ajv {
  const a = new Ajv({ allErrors: true, useDefaults: true, strict: false, ...options });
  (addFormats as unknown as (a: Ajv) => void)(a);
  return a;
}

export function registerValidation(app: FastifyInstance) {
  const forBody = ajv({ coerceTypes: false, removeAdditional: true });
  const forText = ajv({ coerceTypes: 'array', removeAdditional: true });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? forBody : forText).compile(schema));
}
