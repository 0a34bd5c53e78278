import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startServer();
  doc = (await http(server.url, 'GET', '/openapi.json')).body;
});
afterAll(() => server?.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  id: string;
  pointer: string;
  op: any;
}

/** Every operation the document has at run time (routes added later are covered too). */
function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS) {
      if (item[method])
        out.push({
          id: `${method.toUpperCase()} ${path}`,
          pointer: `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`,
          op: item[method],
        });
    }
  }
  return out;
}

const resolve = (schema: any) =>
  schema?.$ref
    ? schema.$ref
        .replace('#/components/schemas/', '')
        .split('/')
        .reduce((s: any, k: string) => s[k], doc.components.schemas)
    : schema;

/** Examples of a media type object: its own, else those of its schema (one $ref followed). */
function examplesOf(media: any): { where: string; value: unknown }[] {
  const own: { where: string; value: unknown }[] = [];
  if (media.example !== undefined) own.push({ where: 'example', value: media.example });
  for (const [name, ex] of Object.entries<any>(media.examples ?? {}))
    own.push({ where: `examples.${name}`, value: ex.value });
  if (own.length) return own;
  const schema = resolve(media.schema);
  return [
    ...(schema?.examples ?? []).map((value: unknown, i: number) => ({ where: `schema.examples.${i}`, value })),
    ...(schema?.example !== undefined ? [{ where: 'schema.example', value: schema.example }] : []),
  ];
}

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  // The whole document as one schema resource, so #/components/schemas/… refs resolve.
  ajv.addSchema(doc, 'openapi.json');
  return (pointer: string, value: unknown) => {
    const validate = ajv.getSchema(`openapi.json${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.1 document generated from the route schemas', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const path of [
      '/api/keys/register',
      '/api/keys/rotate',
      '/api/keys/usage',
      '/api/health',
      '/api/municipalities',
      '/api/mcp',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(Object.keys(doc.paths)).not.toContain('/internal/operator');
    expect(doc.components.schemas.ErrorBody).toBeDefined();
    expect(doc.paths['/api/keys/register'].post.responses['201']).toBeDefined();
  });

  it('gives every operation a success-response example and, where it takes one, a request-body example', () => {
    const missing: string[] = [];
    for (const { id, op } of operations()) {
      const success = Object.entries<any>(op.responses).filter(([status, r]) => /^2/.test(status) && r.content);
      if (
        success.length &&
        !success.some(([, r]) => Object.values<any>(r.content).some((m) => examplesOf(m).length > 0))
      )
        missing.push(`${id}: response`);
      if (op.requestBody && !Object.values<any>(op.requestBody.content).some((m) => examplesOf(m).length > 0))
        missing.push(`${id}: request body`);
    }
    expect(missing).toEqual([]);
    expect(operations().length).toBeGreaterThan(20);
  });

  it('keeps every example valid against its own schema', () => {
    const check = validator();
    const problems: string[] = [];
    let checked = 0;
    for (const { id, pointer, op } of operations()) {
      const media: [string, any][] = [];
      for (const [status, r] of Object.entries<any>(op.responses)) {
        for (const [type, m] of Object.entries<any>(r.content ?? {}))
          media.push([`${pointer}/responses/${status}/content/${type.replace(/\//g, '~1')}`, m]);
      }
      for (const [type, m] of Object.entries<any>(op.requestBody?.content ?? {}))
        media.push([`${pointer}/requestBody/content/${type.replace(/\//g, '~1')}`, m]);
      for (const [where, m] of media) {
        for (const ex of examplesOf(m)) {
          checked++;
          for (const e of check(`${where}/schema`, ex.value))
            problems.push(`${id} ${where.slice(pointer.length)} ${ex.where}: ${e}`);
        }
      }
      (op.parameters ?? []).forEach((p: any, i: number) => {
        const values = [
          ...(p.example !== undefined ? [p.example] : []),
          ...Object.values<any>(p.examples ?? {}).map((e) => e.value),
        ];
        for (const value of values) {
          checked++;
          for (const e of check(`${pointer}/parameters/${i}/schema`, value))
            problems.push(`${id} parameter ${p.name}: ${e}`);
        }
      });
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(operations().length);
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await fetch(`${server.url}/docs`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
  });
});
