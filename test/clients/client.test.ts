// The typed client against the real server: auto-pagination across cursor pages, typed errors
// from real error bodies, and Retry-After taken from a real 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NcdApiError, NcdClient, type CompanyRow } from '../../clients/js/src/index.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let client: NcdClient;

beforeAll(async () => {
  server = await startServer();
  await loadGeneratedCompanies(server, 60, 3);
  const key = await createKey(server, {
    tier: 'pro',
    limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 },
  });
  client = new NcdClient({ baseUrl: server.url, apiKey: key.raw });
});
afterAll(() => server?.close());

describe('auto-pagination', () => {
  it('iterates every row across several pages, the same rows as paging by hand', async () => {
    const query = { country: 'NO' as const, limit: 7, sort: 'name' as const };
    const iterated: CompanyRow[] = [];
    for await (const c of client.companies.search(query)) iterated.push(c);

    const byHand: string[] = [];
    let pages = 0;
    let cursor: string | undefined;
    for (;;) {
      const page = await client.companies.search(query).page(cursor);
      pages++;
      expect(page.data.length).toBeLessThanOrEqual(7);
      byHand.push(...page.data.map((c) => c.orgNumber));
      if (!page.hasMore) break;
      cursor = page.nextCursor!;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(iterated.map((c) => c.orgNumber)).toEqual(byHand);
    expect(new Set(byHand).size).toBe(byHand.length);
    const names = iterated.map((c) => c.name);
    expect(names.length).toBeGreaterThan(14);
    expect(iterated.every((c) => c.country === 'NO')).toBe(true);
  });

  it('stops early with toArray(max)', async () => {
    const first = await client.companies.search({ country: 'NO', limit: 5 }).toArray(8);
    expect(first).toHaveLength(8);
  });
});

describe('typed calls', () => {
  it('enriches stored companies (a repeated number answered once) and looks one up', async () => {
    const known = orgNumberFor(3);
    const r = await client.companies.enrich([known, known]);
    expect(r.data.map((c) => c.orgNumber)).toEqual([known]);
    expect(Array.isArray(r.data[0].financials)).toBe(true);
    const one = await client.companies.get(known);
    expect(one.orgNumber).toBe(known);
    expect(one.name).toBe(r.data[0].name);
  });

  it('reads coverage without a key', async () => {
    const anonymous = new NcdClient({ baseUrl: server.url });
    const coverage = await anonymous.coverage();
    // Answered (200) without a key; its numbers come from a nightly snapshot, so only the shape is checked here.
    expect(Array.isArray(coverage.countries)).toBe(true);
    expect(Array.isArray(coverage.rows)).toBe(true);
  });

  it('reads the key usage', async () => {
    const u = await client.keys.usage();
    expect(u.tier).toBe('pro');
    expect(u.keyPrefix).toMatch(/^[A-Za-z0-9_]+$/);
  });
});

describe('typed errors', () => {
  it('400 validation_failed with details', async () => {
    const err = (await client.companies.get('123').catch((e: unknown) => e)) as NcdApiError;
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation_failed');
    expect(err.details.length).toBeGreaterThan(0);
    expect(err.details[0].path).toContain('orgNumber');
    expect(err.requestId).toBeTruthy();
  });

  it('401 invalid_api_key and missing_api_key', async () => {
    const bad = new NcdClient({ baseUrl: server.url, apiKey: 'ncd_not_a_real_key_000000000000' });
    await expect(bad.keys.usage()).rejects.toMatchObject({
      name: 'NcdApiError',
      status: 401,
      code: 'invalid_api_key',
      message: 'Invalid API key',
    });
    const none = new NcdClient({ baseUrl: server.url });
    await expect(none.companies.search({ country: 'NO' }).page()).rejects.toMatchObject({
      status: 401,
      code: 'missing_api_key',
      message: 'Missing API key',
    });
  });

  it('429 from the real per-minute limit: waits the Retry-After the server sent, then gives up', async () => {
    const key = await createKey(server, { limits: { rateLimitPerMinute: 1 } });
    const waits: number[] = [];
    const limited = new NcdClient({
      baseUrl: server.url,
      apiKey: key.raw,
      maxRetries: 2,
      sleep: async (ms) => void waits.push(ms),
    });
    await limited.keys.usage();
    const err = (await limited.keys.usage().catch((e: unknown) => e)) as NcdApiError;
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err.status).toBe(429);
    expect(err.code).toBe('rate_limited');
    expect(waits).toHaveLength(2);
    for (const w of waits) {
      expect(w % 1000).toBe(0);
      expect(w).toBeGreaterThanOrEqual(1000);
      expect(w).toBeLessThanOrEqual(60_000);
    }
    expect(err.retryAfter! * 1000).toBe(waits[1]);
  });
});
