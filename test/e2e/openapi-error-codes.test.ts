// Every error answer the OpenAPI document describes names its `code` as an enum of the error
// catalogue (src/errors.ts), so a client generated from the document can switch on it: the shared
// ErrorBody, bodies of their own (410 events_expired with resumeAfter) and GET /api/health's 503
// (Orakel's `{status: "error"}`, with the catalogue's code beside it). The health 503 is then
// asked of a server whose database is gone, and its body checked against the documented schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/errors.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const CATALOGUE = Object.keys(ERROR_CATALOGUE);

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startServer();
  doc = (await http(server.url, 'GET', '/openapi.json')).body;
});
afterAll(() => server?.close());

/** A schema with one level of `#/components/schemas/…` followed. */
const resolve = (schema: any) =>
  schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

/** Every 4xx/5xx response body schema of the document, with where it is. */
function errorSchemas(): { where: string; status: number; schema: any }[] {
  const out: { where: string; status: number; schema: any }[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const method of METHODS)
      for (const [status, response] of Object.entries<any>(item[method]?.responses ?? {})) {
        if (Number(status) < 400) continue;
        for (const [type, media] of Object.entries<any>(response.content ?? {}))
          out.push({
            where: `${method.toUpperCase()} ${path} ${status} ${type}`,
            status: Number(status),
            schema: resolve(media.schema),
          });
      }
  return out;
}

describe('error codes in /openapi.json', () => {
  it('every 4xx/5xx body has a `code` whose enum holds catalogue codes only, of that status', () => {
    const schemas = errorSchemas();
    expect(schemas.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const { where, status, schema } of schemas) {
      const code = schema?.properties?.code;
      if (!code) problems.push(`${where}: no code property`);
      else if (!Array.isArray(code.enum) || code.enum.length === 0) problems.push(`${where}: code has no enum`);
      else {
        for (const value of code.enum)
          if (!CATALOGUE.includes(value)) problems.push(`${where}: ${value} is not in the catalogue`);
        // The shared ErrorBody lists the whole catalogue; a body of its own lists its status's codes.
        if (schema !== doc.components.schemas.ErrorBody)
          for (const value of code.enum)
            if (ERROR_CATALOGUE[value as keyof typeof ERROR_CATALOGUE]?.status !== status)
              problems.push(`${where}: ${value} is answered with another status`);
      }
    }
    expect(problems).toEqual([]);
    expect(doc.components.schemas.ErrorBody.properties.code.enum).toEqual(CATALOGUE);
  });

  it("documents health's 503 as service_unavailable and the events' 410 as events_expired", () => {
    const body = (path: string, status: number) =>
      resolve(doc.paths[path].get.responses[status].content['application/json'].schema);
    const health = body('/api/health', 503);
    expect(health.properties.code.enum).toEqual(['service_unavailable']);
    expect(health.properties.status.enum).toEqual(['error']);
    for (const path of ['/api/events', '/api/events/stream']) {
      expect(body(path, 410).properties.code.enum).toEqual(['events_expired']);
      expect(body(path, 410).required).toContain('resumeAfter');
    }
  });
});

describe('GET /api/health without a database', () => {
  it('answers 503 {status:"error"} with the documented code, message and Retry-After', async () => {
    const lonely = await startServer();
    try {
      expect((await http(lonely.url, 'GET', '/api/health')).body).toEqual({ status: 'ok' });
      await lonely.ctx.store.close();
      const r = await http(lonely.url, 'GET', '/api/health');
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.body).toMatchObject({ status: 'error', code: 'service_unavailable', error: 'Service unavailable' });
      expect(r.body.requestId).toBe(r.headers.get('x-request-id'));
      const schema = resolve(doc.paths['/api/health'].get.responses[503].content['application/json'].schema);
      const validate = new Ajv2020({ strict: false }).compile(schema);
      expect(validate(r.body), JSON.stringify(validate.errors)).toBe(true);
    } finally {
      await lonely.close().catch(() => undefined);
    }
  });
});
