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

  it('names every operation with a unique camelCase operationId, derived centrally', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/companies/{orgNumber}'].get.operationId).toBe('getCompaniesByOrgNumber');
    expect(doc.paths['/api/keys/register'].post.operationId).toBe('postKeysRegister');
  });

  it('states security on every operation: the bearer key, or [] on the public ones', () => {
    const problems: string[] = [];
    for (const { id, op } of operations()) {
      if (!Array.isArray(op.security)) problems.push(`${id}: no security`);
      else if (op.security.length && !op.security.every((r: object) => 'bearer' in r || 'oauth2' in r))
        problems.push(`${id}: unknown scheme`);
    }
    expect(problems).toEqual([]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    expect(doc.paths['/api/keys/register'].post.security).toEqual([]);
    expect(doc.paths['/api/municipalities'].get.security).toEqual([{ bearer: [] }]);
  });

  it('documents the response headers, a 4xx and per-status errors with an example per code', () => {
    const codes = doc.components.schemas.ErrorBody.properties.code.enum;
    expect(codes).toEqual(expect.arrayContaining(['validation_failed', 'missing_api_key', 'rate_limited']));
    for (const name of ['XRequestId', 'RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset', 'RetryAfter'])
      expect(doc.components.headers[name]).toBeDefined();
    const problems: string[] = [];
    for (const { id, op } of operations()) {
      const secured = op.security.length > 0;
      if (!Object.keys(op.responses).some((s) => /^4/.test(s))) problems.push(`${id}: no 4xx`);
      for (const [status, r] of Object.entries<any>(op.responses)) {
        if (!r.headers?.['X-Request-Id']) problems.push(`${id} ${status}: no X-Request-Id`);
        if (secured && status !== '401' && !r.headers?.['RateLimit-Remaining'])
          problems.push(`${id} ${status}: no RateLimit-*`);
        if ((status === '429' || status === '503') && !r.headers?.['Retry-After'])
          problems.push(`${id} ${status}: no Retry-After`);
        const media = r.content?.['application/json'];
        if (Number(status) >= 400 && media?.schema?.$ref === '#/components/schemas/ErrorBody') {
          const examples = Object.values<any>(media.examples ?? {});
          if (!examples.length) problems.push(`${id} ${status}: no examples`);
          for (const ex of examples) {
            if (!codes.includes(ex.value.code)) problems.push(`${id} ${status}: unknown code ${ex.value.code}`);
            if (!r.description.includes(ex.value.code)) problems.push(`${id} ${status}: description lacks a code`);
            if (!String(ex.value.docs).endsWith(`/errors#${ex.value.code}`)) problems.push(`${id} ${status}: docs`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // Realistic per status: a lookup's 404 is a missing company, its 401s are the key's.
    const lookup = doc.paths['/api/companies/{orgNumber}'].get.responses;
    expect(Object.keys(lookup['404'].content['application/json'].examples)).toEqual(['company_not_found']);
    expect(Object.keys(lookup['401'].content['application/json'].examples)).toEqual([
      'missing_api_key',
      'invalid_api_key',
    ]);
    expect(lookup['400'].content['application/json'].examples.validation_failed.value.details).toHaveLength(1);
  });

  it('carries a licence and the server it was fetched from', () => {
    expect(doc.info.license).toMatchObject({ name: 'MIT' });
    expect(doc.servers).toEqual([{ url: server.url, description: 'This server' }]);
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await fetch(`${server.url}/docs`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
  });
});
