// The typed client covers the whole API: every operation of the live /openapi.json has a client
// method in CLIENT_OPERATIONS (failing with the missing ones), the table names no operation the
// document lacks, and each named method really sends that method to that path (checked with a
// recording fetch that answers every call with a 400, so no call reaches the server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_OPERATIONS, NcdApiError, NcdClient } from '../../clients/js/src/index.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

let server: TestServer;
let documented: string[];
beforeAll(async () => {
  server = await startServer();
  const doc = (await http(server.url, 'GET', '/openapi.json')).body as { paths: Record<string, object> };
  documented = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map((m) => `${m.toUpperCase()} ${path}`),
  );
});
afterAll(() => server?.close());

const table = CLIENT_OPERATIONS as Record<string, string>;

/** The client member a dotted name stands for, with the object it is called on. */
function member(client: NcdClient, name: string): { fn: unknown; self: unknown } {
  let self: unknown = client;
  let fn: unknown = client;
  for (const part of name.split('.')) {
    self = fn;
    fn = (fn as Record<string, unknown> | undefined)?.[part];
  }
  return { fn, self };
}

/** Calls a client method with placeholder arguments and returns the (method, URL) it sent. */
async function sent(name: string): Promise<{ method: string; url: URL }[]> {
  const calls: { method: string; url: URL }[] = [];
  const client = new NcdClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'ncd_recording_only',
    maxRetries: 0,
    fetch: async (input, init) => {
      calls.push({ method: init.method ?? 'GET', url: new URL(input) });
      return new Response(JSON.stringify({ error: 'recorded', code: 'recorded' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  const { fn, self } = member(client, name);
  if (typeof fn !== 'function') throw new TypeError(`client.${name} is not a method`);
  // Path parameters and required arguments come first; a placeholder string fills each.
  const result: unknown = (fn as (...a: unknown[]) => unknown).apply(
    self,
    Array.from({ length: fn.length }, () => 'x'),
  );
  const r = result as { page?: () => Promise<unknown>; [Symbol.asyncIterator]?: () => AsyncIterator<unknown> };
  const pending =
    typeof r.page === 'function'
      ? r.page()
      : typeof r[Symbol.asyncIterator] === 'function'
        ? r[Symbol.asyncIterator]!().next()
        : (result as Promise<unknown>);
  const err = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `client.${name} should surface the recorded 400`).toBeInstanceOf(NcdApiError);
  return calls;
}

const template = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+').replace(/\./g, '\\.')}$`);

describe('client coverage of /openapi.json', () => {
  it('the document is read (it lists the operations the client is checked against)', () => {
    expect(documented).toContain('GET /api/companies/{orgNumber}');
    expect(documented).toContain('GET /api/events/stream');
    expect(documented.length).toBeGreaterThan(40);
  });

  it('has a client method for every operation', () => {
    const missing = documented.filter((op) => !(op in table));
    expect(missing, `operations without a client method: ${missing.join(', ')}`).toEqual([]);
  });

  it('names no operation the document lacks', () => {
    const stale = Object.keys(table).filter((op) => !documented.includes(op));
    expect(stale, `client table entries for operations not in /openapi.json: ${stale.join(', ')}`).toEqual([]);
  });

  it('each named method sends exactly its operation', async () => {
    const wrong: string[] = [];
    for (const [op, name] of Object.entries(table)) {
      const [method, path] = op.split(' ');
      const calls = await sent(name);
      const ok = calls.length === 1 && calls[0].method === method && template(path).test(calls[0].url.pathname);
      if (!ok) wrong.push(`${name} -> ${calls.map((c) => `${c.method} ${c.url.pathname}`).join(' | ') || 'nothing'}`);
    }
    expect(wrong, `methods that do not call their operation: ${wrong.join('; ')}`).toEqual([]);
  });
});
