// What safeFetch does with a reachable receiver: caps, deadline, passthrough, redirects, ports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BlockedDestinationError,
  FetchTimeoutError,
  InvalidRequestError,
  NetworkError,
  TooManyRedirectsError,
  safeFetch,
} from '../../src/net/index.ts';
import { startServer, type TestServer } from './servers.ts';

let srv: TestServer;
let v6: TestServer;
let base: string;
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const lax = { allowPrivate: true, timeoutMs: 5_000 };
const TEN_MB = 10 * 1024 * 1024;

beforeAll(async () => {
  srv = await startServer('127.0.0.1', (req, res, body) => {
    const u = new URL(req.url ?? '/', 'http://x');
    switch (u.pathname) {
      case '/echo':
        res.setHeader('content-type', 'application/json');
        res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; HttpOnly']);
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
        return;
      case '/big': {
        // 10 MB in 64 KiB chunks, honouring backpressure.
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(TEN_MB) });
        let written = 0;
        const pump = () => {
          while (written < TEN_MB) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
        return;
      }
      case '/exact':
        res.end('x'.repeat(1000));
        return;
      case '/never':
        return; // accepts the request and never answers
      case '/stall-body':
        res.writeHead(200);
        res.write('partial');
        return;
      case '/redirect': {
        const to = u.searchParams.get('to') ?? '/echo';
        res.writeHead(Number(u.searchParams.get('status') ?? 302), { location: to }).end('moved');
        return;
      }
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      default:
        res.end('sink');
    }
  });
  v6 = await startServer('::1');
  base = `http://127.0.0.1:${srv.port}`;
});
afterAll(async () => {
  await srv.close();
  await v6.close();
});

describe('reachable with allowPrivate', () => {
  it('fetches from 127.0.0.1 and [::1] and reports the remote address', async () => {
    const a = await safeFetch(`${base}/`, lax);
    expect([a.status, text(a.body), a.remoteAddress, a.truncated]).toEqual([200, 'sink', '127.0.0.1', false]);
    const b = await safeFetch(`http://[::1]:${v6.port}/`, lax);
    expect([b.status, text(b.body), b.remoteAddress]).toEqual([200, 'sink', '::1']);
    expect(v6.hits).toBe(1);
  });

  it('passes method, headers and body through, and returns response headers and cookies', async () => {
    const res = await safeFetch(`${base}/echo`, {
      ...lax,
      method: 'put',
      headers: { 'X-Custom': 'yes', Authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    const seen = JSON.parse(text(res.body));
    expect(seen.method).toBe('PUT');
    expect(seen.headers['x-custom']).toBe('yes');
    expect(seen.headers.authorization).toBe('Bearer t');
    expect(seen.body).toBe('{"a":1}');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.setCookie).toEqual(['a=1; Path=/', 'b=2; HttpOnly']);
  });

  it('accepts a Uint8Array body', async () => {
    const res = await safeFetch(`${base}/echo`, { ...lax, method: 'POST', body: new TextEncoder().encode('bytes!') });
    expect(JSON.parse(text(res.body)).body).toBe('bytes!');
  });
});

describe('body cap', () => {
  it('reads a 10 MB body only up to the cap and reports it truncated', async () => {
    const res = await safeFetch(`${base}/big`, { ...lax, maxBodyBytes: 100_000 });
    expect(res.status).toBe(200);
    expect(res.body.byteLength).toBe(100_000);
    expect(res.body.every((b) => b === 0x61)).toBe(true);
    expect(res.truncated).toBe(true);
  });

  it('a body of exactly the cap is not truncated', async () => {
    const res = await safeFetch(`${base}/exact`, { ...lax, maxBodyBytes: 1000 });
    expect([res.body.byteLength, res.truncated]).toEqual([1000, false]);
    const cut = await safeFetch(`${base}/exact`, { ...lax, maxBodyBytes: 999 });
    expect([cut.body.byteLength, cut.truncated]).toEqual([999, true]);
  });
});

describe('deadline', () => {
  it('gives up on a server that never answers', async () => {
    const err = await safeFetch(`${base}/never`, { ...lax, timeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect(err.kind).toBe('timeout');
  });

  it('gives up on a body that stalls', async () => {
    const err = await safeFetch(`${base}/stall-body`, { ...lax, timeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(FetchTimeoutError);
  });
});

describe('redirects', () => {
  it('returns the 3xx itself when maxRedirects is 0 (the default)', async () => {
    const before = srv.requests.filter((r) => r.url === '/echo').length;
    const res = await safeFetch(`${base}/redirect?to=/echo`, lax);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/echo');
    expect(res.redirects).toEqual([]);
    expect(srv.requests.filter((r) => r.url === '/echo').length).toBe(before);
  });

  it('follows up to maxRedirects and then fails', async () => {
    const ok = await safeFetch(`${base}/redirect?to=${encodeURIComponent('/redirect?to=/plain')}`, {
      ...lax,
      maxRedirects: 2,
    });
    expect([ok.status, text(ok.body), ok.url]).toEqual([200, 'sink', `${base}/plain`]);
    expect(ok.redirects).toHaveLength(2);
    const err = await safeFetch(`${base}/loop`, { ...lax, maxRedirects: 3 }).catch((e) => e);
    expect(err).toBeInstanceOf(TooManyRedirectsError);
    expect(err.kind).toBe('too-many-redirects');
  });

  it('turns POST into GET without body on 303, keeps it on 307', async () => {
    const r303 = await safeFetch(`${base}/redirect?status=303&to=/echo`, {
      ...lax,
      maxRedirects: 1,
      method: 'POST',
      body: 'data',
    });
    expect(JSON.parse(text(r303.body))).toMatchObject({ method: 'GET', body: '' });
    const r307 = await safeFetch(`${base}/redirect?status=307&to=/echo`, {
      ...lax,
      maxRedirects: 1,
      method: 'POST',
      body: 'data',
    });
    expect(JSON.parse(text(r307.body))).toMatchObject({ method: 'POST', body: 'data' });
  });

  it('drops credentials when a redirect changes origin', async () => {
    const other = `http://[::1]:${v6.port}/`;
    const seenBefore = v6.requests.length;
    await safeFetch(`${base}/redirect?to=${encodeURIComponent(other)}`, {
      ...lax,
      maxRedirects: 1,
      headers: { authorization: 'Bearer secret', 'x-keep': '1' },
    });
    const seen = v6.requests[seenBefore];
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers['x-keep']).toBe('1');
  });
});

describe('ports, schemes and failures', () => {
  it('refuses a port outside the allow-list, even with allowPrivate', async () => {
    const before = srv.hits;
    const err = await safeFetch(`${base}/`, { ...lax, allowedPorts: [80, 443] }).catch((e) => e);
    expect(err).toBeInstanceOf(BlockedDestinationError);
    expect(err.reason).toBe('port');
    expect(srv.hits).toBe(before);
    const ok = await safeFetch(`${base}/`, { ...lax, allowedPorts: [srv.port] });
    expect(ok.status).toBe(200);
  });

  it('defaults to ports 80/443 without allowPrivate', async () => {
    const err = await safeFetch('http://8.8.8.8:8080/').catch((e) => e);
    expect(err.reason).toBe('port');
  });

  it('refuses schemes outside the allow-list', async () => {
    const err = await safeFetch(`${base}/`, { ...lax, allowedSchemes: ['https'] }).catch((e) => e);
    expect(err.reason).toBe('scheme');
  });

  it('reports a refused connection as a network error with its code', async () => {
    const closed = await startServer('127.0.0.1');
    const url = `http://127.0.0.1:${closed.port}/`;
    await closed.close();
    const err = await safeFetch(url, lax).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.message).not.toContain('/');
  });

  it('reports a malformed header as an invalid request', async () => {
    const err = await safeFetch(`${base}/`, { ...lax, headers: { 'bad header': 'x' } }).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
  });
});
