import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const SECRET = 'health-sync-secret-123456';
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { SYNC_SECRET: SECRET } });
});
afterAll(() => server?.close());

describe('GET /api/health', () => {
  it('answers the public shape without a key and without a rate limit', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => http(server.url, 'GET', '/api/health')));
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status: 'ok' });
      expect(r.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  it('ignores a wrong X-Sync-Secret silently', async () => {
    const r = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': 'wrong-secret-value' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
  });

  it('gives the diagnostic shape with the right secret: record counts and data sources', async () => {
    const runs = server.ctx.repos.syncRuns;
    const first = await runs.start('brreg-updates');
    await runs.finish(first, 'ok', 124, null);
    const second = await runs.start('inspections');
    await runs.finish(second, 'error', 3, 'upstream answered 503');

    const r = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      database: 'connected',
      records: { companies: 0, financials: 0, roles: 0, inspections: 0, licenses: 0, procurementNotices: 0 },
    });
    expect(new Date(r.body.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(r.body.dataSources['brreg-updates']).toMatchObject({ status: 'ok', recordsProcessed: 124 });
    expect(r.body.dataSources['brreg-updates'].lastSuccess).toBe(r.body.dataSources['brreg-updates'].lastSync);
    expect(r.body.dataSources.inspections).toMatchObject({ status: 'error', recordsProcessed: 3, lastSuccess: null });
  });

  it('shows the upstream protection in the diagnostics: breaker, shared budget, negative cache, daily budgets', async () => {
    const r = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } });
    expect(r.status).toBe(200);
    expect(r.body.upstreams).toEqual([
      expect.objectContaining({ breaker: 'closed', ratePerSecond: 50, shortCircuited: 0, throttled: 0 }),
    ]);
    expect(r.body.upstreams[0].host).toMatch(/^127\.0\.0\.1:\d+$|^data\.brreg\.no$/);
    expect(r.body.liveFetch).toEqual({
      negativeCacheHours: 24,
      rememberedNotFound: 0,
      dailyBudgets: { free: 400, pro: 20_000, enterprise: 200_000, internal: null },
    });
    // Where the process's memory goes, in MiB.
    const m = r.body.memory;
    expect(m.rssMb).toBeGreaterThan(m.heapUsedMb);
    expect(m.heapTotalMb).toBeGreaterThanOrEqual(m.heapUsedMb);
    expect(m.externalMb).toBeGreaterThanOrEqual(m.arrayBuffersMb);
    expect(m.heapUsedMb).toBeGreaterThan(0);
  });

  it('never answers the diagnostic shape when SYNC_SECRET is unset', async () => {
    const other = await startServer();
    try {
      const r = await http(other.url, 'GET', '/api/health', { headers: { 'x-sync-secret': '' } });
      expect(r.body).toEqual({ status: 'ok' });
    } finally {
      await other.close();
    }
  });
});

describe('request ids', () => {
  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const given = await http(server.url, 'GET', '/api/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const unsafe = await http(server.url, 'GET', '/api/health', { headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const err = await http(server.url, 'GET', '/api/municipalities', { headers: { 'x-request-id': 'err-1' } });
    expect(err.status).toBe(401);
    expect(err.body.requestId).toBe('err-1');
  });

  it('answers an unknown route with 404 in the error format', async () => {
    const r = await http(server.url, 'GET', '/api/nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'route_not_found', error: 'Route not found' });
  });
});
