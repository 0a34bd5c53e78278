// Error bodies: always the JSON error format (error, code, requestId), never a stack trace,
// SQL or internal message — for every kind of refusal the server gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/errors.ts';
import { ERROR_DOCS } from '../../src/error-docs.ts';
import { http, type JsonResponse } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw;
});
afterAll(() => server?.close());

const LEAKS = [
  /\bat [\w$.<>]+ \(?(?:file:|node:|\/)/,
  /node_modules|node:internal/,
  /\bSELECT\b|\bINSERT INTO\b|\bWHERE\b|syntax error at|relation "|violates .* constraint/i,
  /(?:Type|Reference|Range)Error:/,
];

function expectCleanError(r: JsonResponse, status: number, code?: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({
    error: expect.any(String),
    code: code ?? expect.any(String),
    requestId: expect.any(String),
  });
  // Each body links to its code's row on the errors page, on the server that answered.
  expect(r.body.docs).toBe(`${server.url}/errors#${r.body.code}`);
  expect(r.body).not.toHaveProperty('stack');
  expect(r.body).not.toHaveProperty('statusCode');
  const text = JSON.stringify(r.body);
  for (const re of LEAKS) expect(text).not.toMatch(re);
}

describe('error bodies', () => {
  it('are clean for every kind of client error', async () => {
    const u = server.url;
    expectCleanError(await http(u, 'GET', '/api/nope'), 404, 'route_not_found');
    expectCleanError(await http(u, 'GET', '/api/municipalities'), 401, 'missing_api_key');
    expectCleanError(
      await http(u, 'GET', '/api/municipalities', { key: 'ncd_' + 'Z'.repeat(38) }),
      401,
      'invalid_api_key',
    );
    expectCleanError(
      await http(u, 'GET', '/api/municipalities', { headers: { authorization: 'Basic ' + 'x'.repeat(300) } }),
      401,
      'missing_api_key',
    );
    expectCleanError(
      await http(u, 'POST', '/api/keys/register', { rawBody: '{"projectName": "x",' }),
      400,
      'invalid_json',
    );
    expectCleanError(await http(u, 'POST', '/api/keys/register', { rawBody: '' }), 400, 'invalid_json');
    expectCleanError(
      await http(u, 'POST', '/api/keys/register', { rawBody: '<x/>', headers: { 'content-type': 'application/xml' } }),
      415,
      'unsupported_media_type',
    );
    const v = await http(u, 'POST', '/api/keys/register', { body: { projectName: 5, email: 'nope' } });
    expectCleanError(v, 400, 'validation_failed');
    expect(v.body.details.length).toBeGreaterThan(0);
    expectCleanError(
      await http(u, 'GET', "/api/companies?q=x'%3B%20DROP%20TABLE%20companies%3B--&cursor=%27%20OR%201%3D1", { key }),
      400,
      'invalid_cursor',
    );
    expectCleanError(await http(u, 'GET', '/api/companies/123/group', { key }), 400, 'validation_failed');
    expectCleanError(await http(u, 'GET', '/api/companies/923609016/group', { key }), 404);
    expectCleanError(await http(u, 'GET', '/api/updates?since=not-a-date', { key }), 400, 'validation_failed');
    expectCleanError(
      await http(u, 'POST', '/api/companies/enrich', {
        key,
        body: { orgNumbers: Array.from({ length: 101 }, () => '910000001') },
      }),
      400,
      'validation_failed',
    );
  });

  it('answers extreme numeric filters with 200 or 400, never a database error', async () => {
    for (const q of [
      'minRevenue=-999999999.9999977',
      'maxRevenue=1e300',
      'minRevenue=0.5&maxRevenue=0.7',
      'minEmployees=1e40',
      'maxEmployees=2147483648',
      'minEmployees=9223372036854775808',
    ]) {
      const r = await http(server.url, 'GET', `/api/companies?orgForm=AS&${q}`, { key });
      expect([200, 400], `${q}: ${JSON.stringify(r.body)}`).toContain(r.status);
      if (r.status === 400) expectCleanError(r, 400, 'validation_failed');
    }
  });

  it('refuses a NUL character in a path, query or body field with 400 and its place, never a database error', async () => {
    const u = server.url;
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const r = await http(u, method, '/api/destinations/%00', {
        key,
        ...(method === 'PUT' ? { body: { isActive: false } } : {}),
      });
      expectCleanError(r, 400, 'validation_failed');
      expect(r.body.details).toContainEqual({ path: 'params.name', message: expect.stringMatching(/NUL/) });
    }
    const q = await http(u, 'GET', '/api/companies?q=ab%00c', { key });
    expectCleanError(q, 400, 'validation_failed');
    expect(q.body.details).toContainEqual({ path: 'query.q', message: expect.stringMatching(/NUL/) });
    const b = await http(u, 'POST', '/api/keys/register', {
      rawBody: '{"projectName":"a\\u0000b","email":"a@example.com"}',
    });
    expectCleanError(b, 400, 'validation_failed');
    expect(b.body.details).toContainEqual({ path: 'body.projectName', message: expect.stringMatching(/NUL/) });
  });
});

describe('the errors page', () => {
  it('lists every code of the catalogue with its status, meaning and what to do', async () => {
    const res = await fetch(`${server.url}/errors`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
      const row = new RegExp(`<tr id="${code}">.*?</tr>`, 's').exec(html)?.[0] ?? '';
      expect(row, code).toContain(`<td>${status}</td>`);
      expect(row.split('<td>').length, code).toBe(5);
    }
    expect(html).toContain('href="' + server.url + '/docs"');
  });

  it('has written documentation for every code (a code added without it falls back to its message)', () => {
    const undocumented = Object.keys(ERROR_CATALOGUE).filter((code) => !(code in ERROR_DOCS));
    expect(undocumented).toEqual([]);
  });
});
