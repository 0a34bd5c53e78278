// Query strings are closed: a parameter no schema declares is a 400 that names it (and the one
// probably meant), for every documented operation, and never counts as a search filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let free: string;
let business: string;

beforeAll(async () => {
  server = await startServer();
  free = (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw;
  business = (await createKey(server, { tier: 'enterprise', limits: { rateLimitPerMinute: 0 } })).raw;
});
afterAll(() => server?.close());

/** Path parameters that pass their own schema, so the query string is what is refused. */
const SAMPLE: Record<string, string> = {
  orgNumber: '923609016',
  noticeId: 'abcdef-123',
  name: 'list-1',
  id: 'ev_0123456789abcdef01234567',
};

describe('unknown query parameters', () => {
  it('are a 400 naming the parameter on every documented GET operation', async () => {
    const doc = (await http(server.url, 'GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const serviceUrl = (await http(server.url, 'GET', '/api/keys/reconcile-url', { key: business })).body.serviceUrl;
    const sample = { ...SAMPLE, token: String(serviceUrl).split('/').pop()! };
    const tried: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/') || path.startsWith('/api/oauth') || path === '/api/mcp') continue;
      for (const method of Object.keys(ops)) {
        if (method !== 'get') continue;
        const url =
          path.replace(/\{(\w+)\}/g, (_, name: string) => sample[name as keyof typeof sample] ?? 'x') +
          '?zzNotAParameter=1';
        const r = await http(server.url, method.toUpperCase(), url, { key: business });
        expect(r.status, `${method} ${url}`).toBe(400);
        expect(r.body.code, `${method} ${url}`).toBe('validation_failed');
        expect(r.body.details, `${method} ${url}`).toContainEqual(
          expect.objectContaining({ path: 'query.zzNotAParameter' }),
        );
        tried.push(`${method} ${path}`);
      }
    }
    // The class, not one example: every keyed read of the document was tried.
    expect(tried.length).toBeGreaterThan(20);
  });

  it('do not satisfy the free tier\'s "at least one filter" rule', async () => {
    const r = await http(server.url, 'GET', '/api/companies?foo=bar', { key: free });
    expect(r.status).toBe(400);
    expect(r.body.details).toContainEqual(expect.objectContaining({ path: 'query.foo' }));
    // Without the unknown parameter the rule itself answers.
    const bare = await http(server.url, 'GET', '/api/companies', { key: free });
    expect(bare.status).toBe(400);
    expect(bare.body.code).toBe('search_filter_required');
  });

  it('name the parameter probably meant', async () => {
    const r = await http(server.url, 'GET', '/api/companies?municipalty=0301', { key: free });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { path: 'query.municipalty', message: 'is not a parameter of this operation; did you mean municipality?' },
    ]);
    // A real filter still counts.
    const ok = await http(server.url, 'GET', '/api/companies?municipality=0301', { key: free });
    expect(ok.status).toBe(200);
  });

  it('the errors page recommends only filters that exist', async () => {
    const res = await fetch(`${server.url}/errors`);
    const page = await res.text();
    expect(page).not.toContain('industryCode');
    const row = page.slice(page.indexOf('search_filter_required'));
    expect(row).toMatch(/municipality/);
  });
});
