// POST /api/mcp with the official MCP SDK client over real HTTP: the tool catalog, a live
// lookup through the fake brreg, tool errors as isError results, tier rules, the shared auth
// and the usage count.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { ROOT } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = (dir: string, f: string) => JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures', dir, f), 'utf8'));

const SESAM = '976030788';
const UNKNOWN = '987654325'; // valid check digit, unknown to the registry
const TOOLS = [
  'create_evidence_pack',
  'find_prospects',
  'create_watchlist',
  'delete_watchlist',
  'get_corporate_group',
  'get_financials',
  'get_market_context',
  'get_ownership_changes',
  'get_ownership_network',
  'get_shareholders',
  'get_ultimate_owners',
  'list_destinations',
  'list_events',
  'list_municipalities',
  'list_watchlist_companies',
  'list_watchlists',
  'lookup_company',
  'manage_destination',
  'match_companies',
  'push_to_destination',
  'screen_company',
  'screen_entity',
  'search_companies',
  'search_inspections',
  'search_licenses',
  'search_procurement',
  'unwatch_companies',
  'watch_companies',
];

let brreg: FakeBrreg;
let receiver: WebhookReceiver;
let server: TestServer;
let internalKey: string;
let freeKey: string;
const open: Client[] = [];

beforeAll(async () => {
  brreg = await startFakeBrreg();
  brreg.enheter.set(SESAM, fixture('brreg', 'enheter-search-page1-response.json')._embedded.enheter[0]);
  brreg.roller.set(SESAM, fixture('brreg', 'enheter-roller-person-response.json'));
  const accounts = fixture('regnskap', 'regnskap-923609016-2024-thirdparty-fixture.json');
  accounts[0].virksomhet.organisasjonsnummer = SESAM;
  brreg.regnskap.set(SESAM, accounts);
  receiver = await startWebhookReceiver();
  server = await startServer({
    env: { ALLOW_PRIVATE_DESTINATIONS: 'true' },
    overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 800 }) } },
  });
  await loadGeneratedCompanies(server, 60);
  internalKey = (await createKey(server, { tier: 'internal' })).raw;
  freeKey = (await createKey(server)).raw;
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await server?.close();
  await brreg?.close();
  await receiver?.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  open.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const usageToday = async (key: string) =>
  (await http(server.url, 'GET', '/api/keys/usage', { key })).body.usage.today as number;

describe('MCP endpoint', () => {
  it('lists every tool of the catalogue with its input schema', async () => {
    const client = await connect(internalKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    const search = tools.find((t) => t.name === 'search_companies')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['query', 'country', 'compact', 'limit', 'cursor']),
    );
    expect(Object.keys(search.inputSchema.properties ?? {})).not.toContain('q');
    const network = tools.find((t) => t.name === 'get_ownership_network')!;
    expect(network.inputSchema.required).toEqual(['shareholderOrgNumber']);
  });

  it('looks up a company: fetched live, stored, served as the REST record', async () => {
    const client = await connect(internalKey);
    const r = await call(client, 'lookup_company', { orgNumber: SESAM });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      orgNumber: SESAM,
      country: 'NO',
      name: 'SESAM AS',
      orgFormCode: 'AS',
      naceName: 'Drift av restauranter og kafeer',
      orgFormName: 'Aksjeselskap',
      countryName: 'Norge',
    });
    expect(JSON.parse(text(r))).toEqual(r.structuredContent);
    const rest = await http(server.url, 'GET', `/api/companies/${SESAM}`, { key: internalKey });
    expect(rest.status).toBe(200);
    expect(r.structuredContent).toEqual(rest.body);

    const fin = await call(client, 'get_financials', { orgNumber: SESAM, country: 'NO' });
    expect(fin.isError).toBeFalsy();
    expect(fin.structuredContent).toMatchObject({
      orgNumber: SESAM,
      financials: [expect.objectContaining({ periodTo: '2024-12-31', revenue: 72543000000 })],
    });
    expect((fin.structuredContent as { _sources: { fields: object } })._sources.fields).toEqual({
      financials: 'Regnskapsregisteret',
      financialRatios: { source: 'Regnskapsregisteret', computed: true },
    });
  });

  it('reports failures as isError tool results with a clear message', async () => {
    const client = await connect(internalKey);
    const missing = await call(client, 'lookup_company', { orgNumber: UNKNOWN });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('Company not found');

    const badCheckDigit = await call(client, 'lookup_company', { orgNumber: '123456789' });
    expect(badCheckDigit.isError).toBe(true);
    expect(text(badCheckDigit)).toMatch(/orgNumber: must be 9 digits/);

    const wrongType = await call(client, 'lookup_company', { orgNumber: 976030788 });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toContain('orgNumber');

    const group = await call(client, 'get_corporate_group', { orgNumber: UNKNOWN });
    expect(group.isError).toBe(true);
    expect(text(group)).toContain('call lookup_company first');

    const swedish = await call(client, 'get_shareholders', { orgNumber: SESAM, country: 'SE' });
    expect(swedish.isError).toBe(true);
    expect(text(swedish)).toContain('Swedish shareholder data is not available');

    for (const r of [missing, badCheckDigit, wrongType, group, swedish]) expect(text(r)).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('answers the other read tools for a stored company', async () => {
    const client = await connect(internalKey);
    await call(client, 'lookup_company', { orgNumber: SESAM });
    const ok = async (name: string, args: Record<string, unknown>) => {
      const r = await call(client, name, args);
      expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
      return r.structuredContent as Record<string, any>;
    };
    expect(await ok('get_corporate_group', { orgNumber: SESAM })).toMatchObject({
      root: { orgNumber: SESAM, name: 'SESAM AS', children: [] },
      totalMembers: 1,
    });
    // No register year is loaded here: the empty answer says so, as REST's does.
    expect(await ok('get_shareholders', { orgNumber: SESAM })).toEqual({
      data: [],
      availableYears: [],
      note: expect.stringMatching(/No Aksjonærregisteret year is loaded/),
    });
    expect(await ok('get_ownership_network', { shareholderOrgNumber: SESAM })).toEqual({
      shareholderOrgNumber: SESAM,
      data: [],
      note: expect.stringMatching(/No Aksjonærregisteret year is loaded/),
    });
    expect(await ok('search_inspections', { orgNumber: SESAM })).toEqual({
      data: [],
      nextCursor: null,
      hasMore: false,
    });
    expect(await ok('search_licenses', { orgNumber: SESAM, activeOnly: true })).toEqual({
      data: [],
      nextCursor: null,
      hasMore: false,
    });
    expect(await ok('screen_company', { orgNumber: SESAM })).toMatchObject({
      orgNumber: SESAM,
      country: 'NO',
      companyName: 'SESAM AS',
      matches: [],
    });
  });

  it('pushes to a destination with a key that can push, showing no header value', async () => {
    const created = await http(server.url, 'POST', '/api/destinations', {
      key: internalKey,
      body: {
        name: 'mcp-hook',
        type: 'webhook',
        config: { url: `${receiver.url}/mcp`, headers: { Authorization: 'Bearer receiver-secret-9x' } },
      },
    });
    expect(created.status).toBe(201);
    const client = await connect(internalKey);
    const listed = await call(client, 'list_destinations');
    expect(listed.structuredContent).toMatchObject({
      data: [{ name: 'mcp-hook', config: { headers: { Authorization: '***' } } }],
    });
    expect(text(listed)).not.toContain('receiver-secret-9x');

    receiver.reset();
    const pushed = await call(client, 'push_to_destination', {
      destinationName: 'mcp-hook',
      orgNumbers: [SESAM, UNKNOWN],
    });
    expect(pushed.isError).toBeFalsy();
    expect(pushed.structuredContent).toEqual({
      destination: 'mcp-hook',
      requested: 2,
      delivered: 1,
      notFound: [UNKNOWN],
      unavailable: [],
      errors: [],
    });
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0].body).companies.map((c: { orgNumber: string }) => c.orgNumber)).toEqual([
      SESAM,
    ]);

    const missing = await call(client, 'push_to_destination', { destinationName: 'nowhere', orgNumbers: [SESAM] });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('Destination not found');
  });

  it('reads events and manages watchlists (issue 26)', async () => {
    const client = await connect(internalKey);
    const events = await call(client, 'list_events', { after: 0, categories: ['status', 'name'], limit: 5 });
    expect(events.isError).toBeFalsy();
    expect(events.structuredContent).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean) });
    const created = await call(client, 'create_watchlist', {
      name: 'mcp-list',
      categories: ['status'],
      destination: 'mcp-hook',
    });
    expect(created.structuredContent).toMatchObject({ name: 'mcp-list', companyCount: 0 });
    const watched = await call(client, 'watch_companies', {
      name: 'mcp-list',
      companies: [{ orgNumber: SESAM, country: 'NO' }],
    });
    expect(watched.structuredContent).toMatchObject({ changed: 1, companyCount: 1 });
    const listed = await call(client, 'list_watchlists');
    expect(listed.structuredContent).toMatchObject({ data: [{ name: 'mcp-list', companyCount: 1 }] });
    const unwatched = await call(client, 'unwatch_companies', {
      name: 'mcp-list',
      companies: [{ orgNumber: SESAM, country: 'NO' }],
    });
    expect(unwatched.structuredContent).toMatchObject({ changed: 1, companyCount: 0 });
    expect((await call(client, 'delete_watchlist', { name: 'mcp-list' })).structuredContent).toEqual({ deleted: true });
    const gone = await call(client, 'watch_companies', {
      name: 'mcp-list',
      companies: [{ orgNumber: SESAM, country: 'NO' }],
    });
    expect(gone.isError).toBe(true);
    expect(text(gone)).toContain('Watchlist not found');
  });

  it('applies the key’s tier: page-size cap, search filter rule, no push on free', async () => {
    const client = await connect(freeKey);
    const unfiltered = await call(client, 'search_companies', { limit: 5 });
    expect(unfiltered.isError).toBe(true);
    expect(text(unfiltered)).toContain('search_filter_required');

    const capped = await call(client, 'search_companies', { minEmployees: 0, limit: 100 });
    expect(capped.isError).toBeFalsy();
    const page = capped.structuredContent as { data: unknown[]; hasMore: boolean; nextCursor: string | null };
    expect(page.data).toHaveLength(20);
    expect(page.hasMore).toBe(true);

    const next = await call(client, 'search_companies', {
      minEmployees: 0,
      limit: 100,
      compact: true,
      cursor: page.nextCursor,
    });
    const rest = next.structuredContent as { data: Record<string, unknown>[]; hasMore: boolean };
    expect(rest.data.length).toBeGreaterThan(0);
    expect(Object.keys(rest.data[0])).toEqual(
      expect.arrayContaining(['orgNumber', 'name', 'employeeCount', 'revenue']),
    );
    expect(rest.data[0]).not.toHaveProperty('roles');

    const push = await call(client, 'push_to_destination', { destinationName: 'crm', orgNumbers: [SESAM] });
    expect(push.isError).toBe(true);
    expect(text(push)).toContain('cannot push');

    const destinations = await call(client, 'list_destinations');
    expect(destinations.structuredContent).toEqual({ data: [] });

    const oslo = await call(client, 'list_municipalities', { county: '03' });
    expect(oslo.structuredContent).toEqual({
      data: [
        expect.objectContaining({ countyCode: '03', municipalities: [expect.objectContaining({ code: '0301' })] }),
      ],
    });
  });

  it('counts each MCP HTTP request once against the key’s usage', async () => {
    const { raw } = await createKey(server, { tier: 'internal' });
    const client = await connect(raw);
    const before = await usageToday(raw);
    const r = await call(client, 'lookup_company', { orgNumber: SESAM });
    expect(r.isError).toBeFalsy();
    expect(await usageToday(raw)).toBe(before + 1);
  });

  it('is held to the key’s per-minute rate and daily quota like any keyed route', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { accept: 'application/json, text/event-stream' };
    const slow = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 1 } })).raw;
    expect((await http(server.url, 'POST', '/api/mcp', { key: slow, headers, body })).status).toBe(200);
    const limited = await http(server.url, 'POST', '/api/mcp', { key: slow, headers, body });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const daily = (await createKey(server, { tier: 'internal', limits: { dailyLimit: 1 } })).raw;
    expect((await http(server.url, 'POST', '/api/mcp', { key: daily, headers, body })).status).toBe(200);
    const exhausted = await http(server.url, 'POST', '/api/mcp', { key: daily, headers, body });
    expect(exhausted.status).toBe(429);
    expect(exhausted.body).toMatchObject({ code: 'daily_quota_exceeded' });
  });

  it('needs a valid key: 401 with the usual error body', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { accept: 'application/json, text/event-stream' };
    const missing = await http(server.url, 'POST', '/api/mcp', { body, headers });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: 'Missing API key', code: 'missing_api_key' });
    const invalid = await http(server.url, 'POST', '/api/mcp', {
      body,
      headers,
      key: 'ncd_not_a_real_key_000000000000000000000',
    });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toMatchObject({ error: 'Invalid API key' });
    await expect(connect('ncd_not_a_real_key_000000000000000000000')).rejects.toThrow(
      /401|Unauthorized|Invalid API key/i,
    );
  });

  it('answers keyed requests with rate-limit headers and refuses batches and other methods', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const list = await http(server.url, 'POST', '/api/mcp', {
      key: freeKey,
      headers,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('ratelimit-limit')).toBe('20');
    expect(list.headers.get('x-request-id')).toBeTruthy();
    expect(list.body.result.tools).toHaveLength(TOOLS.length);

    const batch = await http(server.url, 'POST', '/api/mcp', {
      key: freeKey,
      headers,
      body: [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.details.length).toBeGreaterThan(0);

    for (const method of ['GET', 'DELETE']) {
      const r = await http(server.url, method, '/api/mcp', { key: freeKey });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      expect(r.body).toMatchObject({ code: 'method_not_allowed' });
    }
  });
});
