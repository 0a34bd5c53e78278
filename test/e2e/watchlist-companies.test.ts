// GET /api/watchlists/{name}/companies over real HTTP: the members a page at a time (cursor and
// limit as the other lists), each with the stored name or null, addedAt; 404 for an unknown name
// and for another project's watchlist alike; the MCP twin list_watchlist_companies and the typed
// client's watchlists.companies give the same rows.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NcdClient } from '../../clients/js/src/index.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
let otherKey: string;
const UNKNOWN = '987654325'; // not in the store
const known = [0, 1, 2, 3, 4].map((i) => orgNumberFor(i));
const names = new Map<string, string>();

beforeAll(async () => {
  server = await startServer({ env: { ALLOW_PRIVATE_DESTINATIONS: 'true' } });
  await loadGeneratedCompanies(server, 5);
  const unlimited = { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 };
  key = (await createKey(server, { tier: 'pro', limits: unlimited })).raw;
  otherKey = (await createKey(server, { tier: 'pro', limits: unlimited })).raw;
  for (const k of [key, otherKey]) {
    const d = await http(server.url, 'POST', '/api/destinations', {
      key: k,
      body: { name: 'd', type: 'webhook', config: { url: 'http://127.0.0.1:9/hook' } },
    });
    expect(d.status).toBe(201);
    const w = await http(server.url, 'POST', '/api/watchlists', {
      key: k,
      body: { name: 'portfolio', categories: ['status'], destination: 'd' },
    });
    expect(w.status).toBe(201);
  }
  for (const org of known) {
    const r = await http(server.url, 'GET', `/api/companies/${org}`, { key });
    expect(r.status).toBe(200);
    names.set(org, r.body.name);
  }
  const added = await http(server.url, 'POST', '/api/watchlists/portfolio/companies', {
    key,
    body: { companies: [...known, UNKNOWN].map((orgNumber) => ({ orgNumber, country: 'NO' })) },
  });
  expect(added.body).toMatchObject({ changed: 6, companyCount: 6 });
});
afterAll(() => server?.close());

type Member = { orgNumber: string; country: string; name: string | null; addedAt: string };
type MemberPage = { data: Member[]; nextCursor: string | null; hasMore: boolean };
const expected = () => [...known, UNKNOWN].sort();

describe('GET /api/watchlists/{name}/companies', () => {
  it('pages through every member in (country, orgNumber) order with its stored name and addedAt', async () => {
    const seen: Member[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const q = `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const r = await http<MemberPage>(server.url, 'GET', `/api/watchlists/portfolio/companies${q}`, { key });
      expect(r.status).toBe(200);
      pages++;
      expect(r.body.data.length).toBeLessThanOrEqual(4);
      seen.push(...r.body.data);
      if (!r.body.hasMore) {
        expect(r.body.nextCursor).toBeNull();
        break;
      }
      cursor = r.body.nextCursor!;
    }
    expect(pages).toBe(2);
    expect(seen.map((m) => m.orgNumber)).toEqual(expected());
    for (const m of seen) {
      expect(m.country).toBe('NO');
      expect(m.name).toBe(m.orgNumber === UNKNOWN ? null : names.get(m.orgNumber));
      expect(Date.parse(m.addedAt)).toBeGreaterThan(Date.now() - 10 * 60_000);
      expect(Object.keys(m).sort()).toEqual(['addedAt', 'country', 'name', 'orgNumber']);
    }
  });

  it('an empty watchlist is an empty page', async () => {
    const r = await http(server.url, 'GET', '/api/watchlists/portfolio/companies', { key: otherKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], nextCursor: null, hasMore: false });
  });

  it('404 watchlist_not_found for an unknown name and for another project’s list alike', async () => {
    const unknown = await http(server.url, 'GET', '/api/watchlists/nope/companies', { key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('watchlist_not_found');
    // otherKey's project has its own "portfolio"; a third project has none: same answer as unknown.
    const third = (await createKey(server)).raw;
    const foreign = await http(server.url, 'GET', '/api/watchlists/portfolio/companies', { key: third });
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, requestId: undefined }).toEqual({ ...unknown.body, requestId: undefined });
  });

  it('refuses a cursor of another watchlist or list, and a bad limit, with 400 and details', async () => {
    const first = await http<MemberPage>(server.url, 'GET', '/api/watchlists/portfolio/companies?limit=2', { key });
    const cursor = encodeURIComponent(first.body.nextCursor!);
    const other = await http(server.url, 'GET', `/api/watchlists/portfolio/companies?cursor=${cursor}`, {
      key: otherKey,
    });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('cursor_query_mismatch');
    expect(other.body.details[0].path).toBe('query.cursor');
    const bad = await http(server.url, 'GET', '/api/watchlists/portfolio/companies?limit=0', { key });
    expect(bad.status).toBe(400);
    expect(bad.body.details.length).toBeGreaterThan(0);
  });
});

describe('list_watchlist_companies (MCP) and the typed client', () => {
  it('answer the same rows as REST', async () => {
    const client = new Client({ name: 'watchlist-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const first = (await client.callTool({
        name: 'list_watchlist_companies',
        arguments: { name: 'portfolio', limit: 5 },
      })) as CallToolResult;
      expect(first.isError).toBeFalsy();
      const page = first.structuredContent as MemberPage;
      expect(page.data).toHaveLength(5);
      expect(page.hasMore).toBe(true);
      const rest = (await client.callTool({
        name: 'list_watchlist_companies',
        arguments: { name: 'portfolio', limit: 5, cursor: page.nextCursor },
      })) as CallToolResult;
      const all = [...page.data, ...(rest.structuredContent as MemberPage).data];
      const restAll = await http<MemberPage>(server.url, 'GET', '/api/watchlists/portfolio/companies?limit=100', {
        key,
      });
      expect(all).toEqual(restAll.body.data);
      const missing = (await client.callTool({
        name: 'list_watchlist_companies',
        arguments: { name: 'nope' },
      })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toContain('Watchlist not found');
    } finally {
      await client.close();
    }

    const ncd = new NcdClient({ baseUrl: server.url, apiKey: key });
    const iterated = await ncd.watchlists.companies('portfolio', { limit: 2 }).toArray();
    expect(iterated.map((m) => m.orgNumber)).toEqual(expected());
    expect(iterated.find((m) => m.orgNumber === UNKNOWN)?.name).toBeNull();
  });
});
