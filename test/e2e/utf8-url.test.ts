// URLs that are not ASCII or not UTF-8, sent as raw bytes over a socket (fetch would encode
// them): raw UTF-8 in the query and in the path, bytes that are not UTF-8 at all, and
// percent-escapes that do not decode. Each is a 400 with the documented error body and details[]
// naming the part of the URL, never Fastify's or Node's own answer and never a 500; the key the
// request carried and the URL's text are not echoed.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'pro' })).raw;
});
afterAll(() => server?.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Sends `target` as the request line's bytes exactly, and reads the whole answer. */
function raw(target: Buffer, extraHeaders = ''): Promise<RawAnswer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(
        Buffer.concat([
          Buffer.from('GET '),
          target,
          Buffer.from(
            ` HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${extraHeaders}Connection: close\r\n\r\n`,
          ),
        ]),
      );
    });
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = all.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text: rest.join('\r\n\r\n') });
    });
  });
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

function expectDocumented(a: RawAnswer, detailPath: string, message: RegExp) {
  expect(a.status).toBe(400);
  expect(a.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(a.text);
  expect(body).toMatchObject({
    error: expect.any(String),
    code: 'bad_request',
    details: [{ path: detailPath, message: expect.stringMatching(message) }],
    requestId: expect.any(String),
  });
  expect(body.docs).toMatch(/\/errors#bad_request$/);
  expect(a.headers['x-request-id']).toBe(body.requestId);
  expect(a.text).not.toContain(key);
  expect(a.text).not.toMatch(/STLANDET|Client Error|statusCode/);
}

describe('raw bytes in the request line', () => {
  it('raw UTF-8 in the query: 400 naming the parameter, with how to encode it', async () => {
    const a = await raw(bytes('/api/companies?country=NO&name=ØSTLANDET'));
    expectDocumented(a, 'query.name', /not percent-encoded.*%C3%98/);
  });

  it('raw UTF-8 in the path: 400 naming the path', async () => {
    const a = await raw(bytes('/api/companies/', [0xc3, 0x98], 'STLANDET'));
    expectDocumented(a, 'path', /not percent-encoded/);
  });

  it('bytes that are not UTF-8 (a cut sequence, 0xFF) in query and path: 400 saying so', async () => {
    expectDocumented(await raw(bytes('/api/companies?q=', [0xc3], 'X')), 'query.q', /not valid UTF-8/);
    expectDocumented(await raw(bytes('/api/companies/', [0xff])), 'path', /not valid UTF-8/);
  });

  it('a control character in the URL gets the same body', async () => {
    expectDocumented(await raw(bytes('/api/companies?q=a', [0x01])), 'query.q', /must be percent-encoded/);
  });

  it('headers over the limit are still 431, in the documented body', async () => {
    const a = await raw(bytes('/api/companies'), `X-Big: ${'a'.repeat(40_000)}\r\n`);
    expect(a.status).toBe(431);
    expect(JSON.parse(a.text)).toMatchObject({ code: 'bad_request', requestId: expect.any(String) });
  });

  it('the server serves the next request as before', async () => {
    const r = await http(server.url, 'GET', '/api/companies?country=NO&q=%C3%98stlandet', { key });
    expect(r.status).toBe(200);
  });
});

describe('percent-escapes that are not UTF-8', () => {
  it('in the query: 400 naming the parameter (not searched for as literal text)', async () => {
    const r = await http(server.url, 'GET', '/api/companies?country=NO&q=%C3%28', { key });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'bad_request', details: [{ path: 'query.q' }] });
    expect(r.body.details[0].message).toMatch(/not UTF-8/);
  });

  it('in the path: 400 naming the path', async () => {
    const r = await http(server.url, 'GET', '/api/companies/%C3%28', { key });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'bad_request', details: [{ path: 'path' }] });
  });

  it('well-formed escapes and a lone % stay as they were', async () => {
    expect((await http(server.url, 'GET', '/api/companies?country=NO&q=%C3%98st', { key })).status).toBe(200);
    expect((await http(server.url, 'GET', '/api/companies?country=NO&q=50%', { key })).status).toBe(200);
  });
});
