// The client's retry policy against a small local HTTP fake (the client is what is under test):
// 429 waits Retry-After and retries, other 4xx never retry, 5xx/network retry only repeatable calls.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NcdApiError, NcdClient, NcdNetworkError } from '../../clients/js/src/index.ts';

const KEY = 'ncd_test_secret_key_value_0123456789';
type Reply = { status: number; headers?: Record<string, string>; body?: unknown };
let script: Reply[] = [];
let seen: { method: string; url: string; auth: string | undefined }[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization });
    const reply = script.shift() ?? { status: 500, body: { error: 'script exhausted', code: 'internal_error' } };
    res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen = [];
});

/** A client whose waits are recorded instead of slept. */
function client(opts: { maxRetries?: number; maxRetryDelayMs?: number } = {}) {
  const waits: number[] = [];
  const c = new NcdClient({ baseUrl: base, apiKey: KEY, sleep: async (ms) => void waits.push(ms), ...opts });
  return { c, waits };
}

const limited = (seconds: string): Reply => ({
  status: 429,
  headers: { 'retry-after': seconds },
  body: { error: 'Rate limit exceeded', code: 'rate_limited', retryAfter: Number(seconds) },
});
const usage = { projectName: 'p', tier: 'free', keyPrefix: 'ncd_test', limits: {}, usage: {}, resets: {} };

describe('429 backoff', () => {
  it('waits Retry-After seconds and retries until the call succeeds', async () => {
    script = [limited('1'), limited('2'), { status: 200, body: usage }];
    const { c, waits } = client();
    expect(await c.keys.usage()).toEqual(usage);
    expect(waits).toEqual([1000, 2000]);
    expect(seen).toHaveLength(3);
    expect(seen.every((s) => s.auth === `Bearer ${KEY}` && s.url === '/api/keys/usage')).toBe(true);
  });

  it('retries a POST on 429 too (the server did not process it)', async () => {
    script = [limited('1'), { status: 200, body: { data: [], notFound: ['923609016'], unavailable: [] } }];
    const { c, waits } = client();
    const r = await c.companies.enrich(['923609016']);
    expect(r.notFound).toEqual(['923609016']);
    expect(waits).toEqual([1000]);
  });

  it('gives up after maxRetries with a typed 429 error', async () => {
    script = [limited('1'), limited('1'), limited('1')];
    const { c, waits } = client({ maxRetries: 2 });
    const err = await c.keys.usage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 1, message: 'Rate limit exceeded' });
    expect(waits).toEqual([1000, 1000]);
    expect(seen).toHaveLength(3);
  });

  it('does not wait out a Retry-After longer than maxRetryDelayMs (a daily quota)', async () => {
    script = [
      {
        status: 429,
        headers: { 'retry-after': '7200' },
        body: { error: 'Daily quota exceeded', code: 'daily_quota_exceeded' },
      },
    ];
    const { c, waits } = client({ maxRetryDelayMs: 60_000 });
    await expect(c.keys.usage()).rejects.toMatchObject({ status: 429, code: 'daily_quota_exceeded', retryAfter: 7200 });
    expect(waits).toEqual([]);
  });
});

describe('no retry on other client errors', () => {
  it('throws 400 at once with code and details', async () => {
    script = [
      {
        status: 400,
        body: {
          error: 'Invalid request',
          code: 'validation_failed',
          details: [{ path: 'params.orgNumber', message: 'must be 9 digits' }],
          requestId: 'r1',
        },
      },
    ];
    const { c, waits } = client();
    const err = (await c.companies.get('12').catch((e: unknown) => e)) as NcdApiError;
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({
      status: 400,
      code: 'validation_failed',
      requestId: 'r1',
      method: 'GET',
      path: '/api/companies/12',
    });
    expect(err.details).toEqual([{ path: 'params.orgNumber', message: 'must be 9 digits' }]);
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('gives a non-JSON error body a code from its status', async () => {
    script = [{ status: 404 }];
    const { c } = client();
    await expect(c.destinations.get('x')).rejects.toMatchObject({ status: 404, code: 'http_404' });
  });
});

describe('5xx and network failures', () => {
  it('retries a GET on 503 with backoff', async () => {
    script = [
      { status: 503, body: { error: 'Service unavailable', code: 'service_unavailable' } },
      { status: 200, body: usage },
    ];
    const { c, waits } = client();
    expect(await c.keys.usage()).toEqual(usage);
    expect(waits).toHaveLength(1);
  });

  it('never repeats a key rotation on 503', async () => {
    script = [{ status: 503, body: { error: 'Service unavailable', code: 'service_unavailable' } }];
    const { c } = client();
    await expect(c.keys.rotate()).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(seen).toHaveLength(1);
  });

  it('reports an unreachable server as NcdNetworkError after the retries', async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const waits: number[] = [];
    const c = new NcdClient({ baseUrl: url, apiKey: KEY, maxRetries: 2, sleep: async (ms) => void waits.push(ms) });
    const err = await c.keys.usage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NcdNetworkError);
    expect((err as Error).message).toContain(`Could not reach ${url}`);
    expect((err as Error).message).toContain('ECONNREFUSED');
    expect(waits).toEqual([500, 1000]);
  });
});

describe('the API key stays private', () => {
  it('is not in errors or in the inspected client', async () => {
    script = [{ status: 401, body: { error: 'Invalid API key', code: 'invalid_api_key' } }];
    const { c } = client();
    const err = await c.keys.usage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NcdApiError);
    expect(`${inspect(err)} ${JSON.stringify(err)} ${String(err)}`).not.toContain(KEY);
    expect(inspect(c, { depth: 5, showHidden: true })).not.toContain(KEY);
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => new NcdClient({ baseUrl: 'localhost:3000' })).toThrow(/http\(s\) URL/);
  });
});

describe('the global fetch', () => {
  it('is called as a plain function, as browsers require (a fetch called on another object throws there)', async () => {
    const original = globalThis.fetch;
    // A browser-like fetch: "Illegal invocation" unless called on the global object.
    globalThis.fetch = function (this: unknown, input: Parameters<typeof fetch>[0], init?: RequestInit) {
      if (this !== undefined && this !== globalThis)
        throw new TypeError("Failed to execute 'fetch': Illegal invocation");
      return original(input, init);
    } as typeof fetch;
    try {
      script = [{ status: 200, body: { data: [] } }];
      const client = new NcdClient({ baseUrl: base, apiKey: KEY });
      await expect(client.municipalities()).resolves.toEqual({ data: [] });
    } finally {
      globalThis.fetch = original;
    }
  });
});
