// fast-check arbitraries derived from an OpenAPI 3.1 document at run time: valid values from
// each parameter's or body's JSON schema, and values meant to break it (an Ajv with the
// server's own options then decides which ones really do).
import fc from 'fast-check';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export type Schema = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  op: Schema;
  params: { name: string; in: 'query' | 'path' | 'header'; required: boolean; schema: Schema }[];
  body?: Schema;
  keyed: boolean;
}

export function operations(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      out.push({
        method: method.toUpperCase(),
        path,
        op,
        params: (op.parameters ?? []).map((p: Schema) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          schema: p.schema ?? {},
        })),
        body: op.requestBody?.content?.['application/json']?.schema,
        keyed: Array.isArray(op.security) && op.security.length > 0,
      });
    }
  }
  return out;
}

/** Ajv instances configured like the server's (src/http/plugins/validation.ts). */
export function validators(doc: Schema) {
  const make = (opts: object) => {
    const a = new Ajv({ allErrors: true, useDefaults: true, strict: false, ...opts });
    (addFormats as unknown as (a: Ajv) => void)(a);
    return a;
  };
  const text = make({ coerceTypes: 'array', removeAdditional: true });
  const body = make({ coerceTypes: false, removeAdditional: true });
  const response = make({});
  const withComponents = (s: Schema) => ({ ...s, components: doc.components });
  const cache = new Map<string, ValidateFunction>();
  const compile = (a: Ajv, id: string, s: Schema) => {
    let v = cache.get(id);
    if (!v) cache.set(id, (v = a.compile(withComponents(s))));
    return v;
  };
  return {
    /** Would the server accept these query/path/header values? */
    params(id: string, params: Operation['params'], values: Record<string, string>): boolean {
      const schema = {
        type: 'object',
        properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
        required: params.filter((p) => p.required).map((p) => p.name),
      };
      return compile(text, id, schema)(structuredClone(values));
    },
    body(id: string, schema: Schema, value: unknown): boolean {
      return compile(body, id, schema)(structuredClone(value));
    },
    response(id: string, schema: Schema, value: unknown): string | undefined {
      const v = compile(response, id, schema);
      return v(value) ? undefined : response.errorsText(v.errors);
    },
  };
}

function deref(doc: Schema, s: Schema): Schema {
  let cur = s;
  for (let i = 0; i < 10 && cur?.$ref; i++) {
    const parts = String(cur.$ref).replace(/^#\//, '').split('/');
    cur = parts.reduce((o: any, k) => o?.[k], doc);
  }
  return cur ?? {};
}

const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    'null',
    'undefined',
    'NaN',
    '-1',
    '1e309',
    '0x10',
    '9'.repeat(40),
    "' OR 1=1 --",
    '%00',
    '../../etc/passwd',
    '<script>',
    '😀',
    '\u0000',
    'true',
    '[]',
    '{}',
  ),
  fc.string({ minLength: 300, maxLength: 3000 }),
);

const dateOnly = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const dateTime = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString());

/** A value that should satisfy `schema` (JSON, not text). */
export function validArb(doc: Schema, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(doc, schema);
  if (depth > 6) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const alts = s.anyOf ?? s.oneOf;
  if (Array.isArray(alts) && alts.length) return fc.oneof(...alts.map((a: Schema) => validArb(doc, a, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return validArb(doc, s.allOf[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string': {
      if (s.pattern)
        return fc
          .stringMatching(new RegExp(s.pattern))
          .filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? 1e9));
      if (s.format === 'date') return dateOnly;
      if (s.format === 'date-time') return dateTime;
      if (s.format === 'email') return fc.emailAddress().filter((e) => e.length <= (s.maxLength ?? 320));
      if (s.format === 'uri' || s.format === 'url')
        return fc.constantFrom('https://example.com/hook', 'https://hooks.example.org/a/b?c=d');
      const min = s.minLength ?? 0;
      const max = Math.min(s.maxLength ?? 30, min + 60);
      return fc.oneof(
        fc.string({ minLength: min, maxLength: max }),
        fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
      );
    }
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000);
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case 'number': {
      const min = s.minimum ?? -1e9;
      const max = s.maximum ?? 1e12;
      return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? 5, min + 5);
      return fc.array(validArb(doc, s.items ?? {}, depth + 1), { minLength: min, maxLength: max });
    }
    case 'object': {
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) props[k] = validArb(doc, v, depth + 1);
      return fc.record(props, { requiredKeys: (s.required ?? []).filter((k: string) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Text for a query, path or header parameter: mostly valid, often boundary, sometimes junk. */
export function textArb(doc: Schema, schema: Schema): fc.Arbitrary<string> {
  const s = deref(doc, schema);
  const valid = validArb(doc, s).map((v) =>
    typeof v === 'string'
      ? v
      : JSON.stringify(v) === undefined
        ? ''
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v),
  );
  const boundary: string[] = [];
  if (typeof s.minimum === 'number') boundary.push(String(s.minimum - 1), String(s.minimum));
  if (typeof s.maximum === 'number') boundary.push(String(s.maximum), String(s.maximum + 1));
  if (typeof s.maxLength === 'number') boundary.push('a'.repeat(s.maxLength), 'a'.repeat(s.maxLength + 1));
  const t = Array.isArray(s.type) ? s.type : [s.type];
  // Beyond int4, int8 and double: the database types behind the parameters.
  if (t.includes('integer') || t.includes('number'))
    boundary.push('2147483648', '-2147483649', '9223372036854775808', '1e40', '0.5', '-0');
  if (typeof s.minLength === 'number' && s.minLength > 0) boundary.push('a'.repeat(s.minLength - 1));
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 2, arbitrary: boundary.length ? fc.constantFrom(...boundary) : valid },
    { weight: 3, arbitrary: junk },
  );
}

/** A JSON body: valid for the schema, or mutated (missing, wrong-typed, extra fields), or any JSON. */
export function bodyArb(doc: Schema, schema: Schema): fc.Arbitrary<unknown> {
  const s = deref(doc, schema);
  const valid = validArb(doc, s);
  const mutated = valid.chain((v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return fc.constant(v);
    const keys = Object.keys(v);
    return fc.oneof(
      keys.length
        ? fc.constantFrom(...keys).map((k) => {
            const c: Record<string, unknown> = { ...(v as object) };
            delete c[k];
            return c;
          })
        : fc.constant(v),
      keys.length
        ? fc
            .tuple(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 2 }))
            .map(([k, j]) => ({ ...(v as object), [k]: j }))
        : fc.constant(v),
      fc
        .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }))
        .map(([k, j]) => ({ ...(v as object), [k]: j })),
    );
  });
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 4, arbitrary: mutated },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}
