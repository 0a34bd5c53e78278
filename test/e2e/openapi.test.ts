import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.1 document generated from the route schemas', async () => {
    const r = await http(server.url, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(r.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const path of ['/api/keys/register', '/api/keys/rotate', '/api/keys/usage', '/api/health', '/api/municipalities']) {
      expect(Object.keys(r.body.paths)).toContain(path);
    }
    expect(Object.keys(r.body.paths)).not.toContain('/internal/operator');
    expect(r.body.components.schemas.ErrorBody).toBeDefined();
    expect(r.body.paths['/api/keys/register'].post.responses['201']).toBeDefined();
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await fetch(`${server.url}/docs`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
  });
});
