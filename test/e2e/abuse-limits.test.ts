// Abuse limits of the HTTP server (README "Reliability"): request body size, header size,
// URL/query-string length, page size above the tier cap, and slow-loris deadlines.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
  });
  await loadGeneratedCompanies(server, 60, 4);
}, 180_000);
afterAll(() => server?.close());

/** A raw connection: writes `chunks` one by one `gapMs` apart; resolves with what came back and when the server closed. */
function trickle(
  chunks: string[],
  gapMs: number,
  maxMs: number,
): Promise<{ data: string; closedAfterMs: number; closedEarly: boolean }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
    let data = '';
    let i = 0;
    let closed = false;
    const timer = setInterval(() => {
      if (closed || i >= chunks.length) return;
      socket.write(chunks[i++]);
    }, gapMs);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`server kept a trickling connection open for ${maxMs} ms; received: ${data}`));
    }, maxMs);
    socket.on('data', (c) => (data += c.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ data, closedAfterMs: Date.now() - started, closedEarly: i < chunks.length });
    });
  });
}

describe('request size limits', () => {
  it('refuses a body over 1 MB with 413 payload_too_large in the error format', async () => {
    const r = await http(server.url, 'POST', '/api/keys/register', {
      rawBody: JSON.stringify({ projectName: 'big', email: 'a@example.com', description: 'x'.repeat(1024 * 1024) }),
    });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({
      code: 'payload_too_large',
      error: expect.any(String),
      requestId: expect.any(String),
    });
  });

  it('refuses a body announced over 1 MB from its Content-Length, before it is sent', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
      let data = '';
      const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer; got: ${data}`))), 10_000);
      socket.on('data', (c) => {
        data += c.toString();
        if (data.includes('\r\n\r\n')) {
          clearTimeout(timer);
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', () => undefined);
      // announces 5 MB and sends none of it
      socket.write(
        `POST /api/keys/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${5 * 1024 * 1024}\r\n\r\n`,
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('refuses headers over 16 KB with 431', async () => {
    const res = await fetch(`${server.url}/api/health`, { headers: { 'x-padding': 'a'.repeat(20 * 1024) } });
    expect(res.status).toBe(431);
    const ok = await fetch(`${server.url}/api/health`, { headers: { 'x-padding': 'a'.repeat(8 * 1024) } });
    expect(ok.status).toBe(200);
  });

  it('refuses a URL (query string) over 8192 characters with 414 uri_too_long; one at the limit passes', async () => {
    const key = await createKey(server, { limits: { rateLimitPerMinute: 0 } });
    // A page outside /api, whose query string is open (every /api route refuses unknown parameters).
    const base = '/errors?pad=';
    const long = await http(server.url, 'GET', base + 'a'.repeat(9000), { key: key.raw });
    expect(long.status).toBe(414);
    expect(long.body).toMatchObject({ code: 'uri_too_long', requestId: expect.any(String) });
    const atLimit = await http(server.url, 'GET', base + 'a'.repeat(8192 - base.length), { key: key.raw });
    expect(atLimit.status).toBe(200);
  });

  it('answers a path parameter over the router limit, and a broken percent-escape, in the error format', async () => {
    const key = await createKey(server, { limits: { rateLimitPerMinute: 0 } });
    const longParam = await http(server.url, 'GET', `/api/companies/${'9'.repeat(150)}`, { key: key.raw });
    expect(longParam.status).toBe(414);
    expect(longParam.body).toMatchObject({ code: 'uri_too_long', requestId: expect.any(String) });
    const badEscape = await http(server.url, 'GET', '/api/companies/%E0%A4%A', { key: key.raw });
    expect(badEscape.status).toBe(400);
    expect(badEscape.body).toMatchObject({ code: 'bad_request', requestId: expect.any(String) });
  });
});

describe('page size above the tier cap', () => {
  it('caps limit silently at the tier maximum (free: 20) and answers 400 with details above 100', async () => {
    const key = await createKey(server, { limits: { rateLimitPerMinute: 0 } });
    const capped = await http(server.url, 'GET', '/api/companies?orgForm=AS&limit=100', { key: key.raw });
    expect(capped.status).toBe(200);
    expect(capped.body.data.length).toBeGreaterThan(0);
    expect(capped.body.data.length).toBeLessThanOrEqual(20);
    const over = await http(server.url, 'GET', '/api/companies?orgForm=AS&limit=101', { key: key.raw });
    expect(over.status).toBe(400);
    expect(over.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'query.limit' })]));
  });
});

describe('slow-loris protection', () => {
  it('closes a connection that trickles its headers once HTTP_HEADERS_TIMEOUT_MS has passed', async () => {
    const chunks = [
      'GET /api/health HTTP/1.1\r\n',
      'Host: x\r\n',
      ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: 1\r\n`),
    ];
    const r = await trickle(chunks, 200, 15_000);
    expect(r.closedEarly).toBe(true);
    // the deadline: headers timeout plus Node's check interval (a quarter of it) plus slack
    expect(r.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + HEADERS_TIMEOUT_MS / 4 + 1500);
    expect(r.data).not.toContain('200 OK');
  });

  it('closes a connection that trickles its body once HTTP_REQUEST_TIMEOUT_MS has passed', async () => {
    const body = JSON.stringify({ projectName: 'slow', email: 'slow@example.com' });
    const head = `POST /api/keys/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const r = await trickle([head, ...body.split('')], 250, 15_000);
    expect(r.closedEarly).toBe(true);
    expect(r.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + HEADERS_TIMEOUT_MS / 4 + 1500);
    expect(r.data).not.toMatch(/HTTP\/1\.1 201/);
  });
});
