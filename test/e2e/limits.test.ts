import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from '../helpers/server.ts';

const clock = new FakeClock(new Date('2026-03-31T23:59:00Z'));
let db: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer({ database: db, overrides: { clock }, env: { TRIAL_DAYS: '30' } });
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

const call = (key: string) => http(server.url, 'GET', '/api/municipalities?county=03', { key });

describe('per-minute rate limit', () => {
  it('gives a free key 20 calls a minute, then 429 rate_limited with Retry-After', async () => {
    const key = await createKey(server);
    const results = await Promise.all(Array.from({ length: 26 }, () => call(key.raw)));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(20);
    expect(limited).toHaveLength(6);
    for (const r of limited) {
      expect(r.body.code).toBe('rate_limited');
      const retry = Number(r.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
    }
    const remaining = ok.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(ok[0].headers.get('ratelimit-limit')).toBe('20');
    expect(Number(ok[0].headers.get('ratelimit-reset'))).toBeGreaterThan(0);
  });

  it('puts RateLimit headers on keyed responses, including errors', async () => {
    const key = await createKey(server);
    const bad = await http(server.url, 'GET', '/api/municipalities?county=x', { key: key.raw });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('ratelimit-limit')).toBe('20');
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(usage.headers.get('ratelimit-remaining')).toBe('18');
  });
});

describe('daily and monthly quotas (UTC)', () => {
  it('stops at the daily quota with daily_quota_exceeded until UTC midnight', async () => {
    clock.set('2026-05-10T22:00:00Z');
    const key = await createKey(server, { limits: { dailyLimit: 3, rateLimitPerMinute: 0 } });
    for (let i = 0; i < 3; i++) expect((await call(key.raw)).status).toBe(200);
    const over = await call(key.raw);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('daily_quota_exceeded');
    expect(Number(over.headers.get('retry-after'))).toBe(2 * 3600);

    // usage and rotate do not count
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(usage.body.usage).toEqual({ today: 3, thisMonth: 3, total: 3, dailyRemaining: 0, monthlyRemaining: 4997 });
    expect(usage.body.resets).toEqual({ daily: '2026-05-11T00:00:00.000Z', monthly: '2026-06-01T00:00:00.000Z' });

    clock.set('2026-05-11T00:00:01Z');
    expect((await call(key.raw)).status).toBe(200);
    const after = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(after.body.usage).toMatchObject({ today: 1, thisMonth: 4, total: 4 });
  });

  it('stops at the monthly quota with monthly_quota_exceeded until the 1st', async () => {
    clock.set('2026-05-30T12:00:00Z');
    const key = await createKey(server, { limits: { dailyLimit: 0, monthlyLimit: 2, rateLimitPerMinute: 0 } });
    expect((await call(key.raw)).status).toBe(200);
    expect((await call(key.raw)).status).toBe(200);
    const over = await call(key.raw);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('monthly_quota_exceeded');
    expect(Number(over.headers.get('retry-after'))).toBe(36 * 3600);
    clock.set('2026-06-01T00:00:00Z');
    expect((await call(key.raw)).status).toBe(200);
  });

  it('counts exactly under concurrency', async () => {
    clock.set('2026-07-01T10:00:00Z');
    const key = await createKey(server, { limits: { dailyLimit: 7, rateLimitPerMinute: 0 } });
    const results = await Promise.all(Array.from({ length: 25 }, () => call(key.raw)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(7);
    expect(results.filter((r) => r.status === 429)).toHaveLength(18);
  });

  it('does not count a request that fails validation', async () => {
    clock.set('2026-07-02T10:00:00Z');
    const key = await createKey(server);
    expect((await http(server.url, 'GET', '/api/municipalities?county=123', { key: key.raw })).status).toBe(400);
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(usage.body.usage.today).toBe(0);
  });

  it('keeps quotas across a restart (they live in the database)', async () => {
    clock.set('2026-08-05T10:00:00Z');
    const key = await createKey(server, { limits: { dailyLimit: 2, rateLimitPerMinute: 0 } });
    expect((await call(key.raw)).status).toBe(200);
    expect((await call(key.raw)).status).toBe(200);
    await server.close();
    server = await startServer({ database: db, overrides: { clock }, env: { TRIAL_DAYS: '30' } });
    const res = await call(key.raw);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('daily_quota_exceeded');
  });
});

describe('usage of keys without daily or monthly quotas (counted in memory, written each second)', () => {
  const usageRow = async (projectName: string) =>
    (
      await server.ctx.store.pool.query<{ day_count: number; total: number }>(
        'SELECT u.day_count, u.total FROM project_usage u JOIN projects p ON p.id = u.project_id WHERE p.name = $1',
        [projectName],
      )
    ).rows[0];

  it('counts every request: exact in this process at once, in the database within a second, and kept by a graceful stop', async () => {
    clock.set('2026-08-06T10:00:00Z');
    const key = await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } });
    const results = await Promise.all(Array.from({ length: 30 }, () => call(key.raw)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    // the usage read flushes what this process counted
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(usage.body.usage).toMatchObject({ today: 30, total: 30, dailyRemaining: null });
    expect(await usageRow(key.projectName)).toEqual({ day_count: 30, total: 30 });

    // without a read, another process (here: SQL) sees the counts within the flush interval
    await Promise.all(Array.from({ length: 7 }, () => call(key.raw)));
    const deadline = Date.now() + 3000;
    while ((await usageRow(key.projectName)).total !== 37 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await usageRow(key.projectName)).toEqual({ day_count: 37, total: 37 });

    // counted just before a graceful stop: written by the stop
    await Promise.all(Array.from({ length: 5 }, () => call(key.raw)));
    await server.close();
    server = await startServer({ database: db, overrides: { clock }, env: { TRIAL_DAYS: '30' } });
    expect(await usageRow(key.projectName)).toEqual({ day_count: 42, total: 42 });
    const history = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(history.body.usage.today).toBe(42);
  });
});

describe('trial expiry', () => {
  it('answers 402 trial_expired with upgradeUrl once a free key is older than TRIAL_DAYS', async () => {
    clock.set('2026-09-01T00:00:00Z');
    const key = await createKey(server);
    const pro = await createKey(server, { tier: 'pro' });
    await server.ctx.store.pool.query(
      `UPDATE projects SET created_at = '2026-07-01T00:00:00Z' WHERE name = $1 OR name = $2`,
      [key.projectName, pro.projectName],
    );
    const res = await call(key.raw);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      error: 'Trial expired',
      code: 'trial_expired',
      upgradeUrl: `${server.config.baseUrl}/activate`,
    });
    expect((await http(server.url, 'GET', '/api/keys/usage', { key: key.raw })).status).toBe(402);
    expect((await call(pro.raw)).status).toBe(200); // paid tiers have no trial
  });
});

describe('operator overrides while the server runs', () => {
  it('applies set-tier and set-limits to the next request', async () => {
    clock.set('2026-10-01T00:00:00Z');
    const key = await createKey(server);
    expect((await http(server.url, 'GET', '/api/keys/usage', { key: key.raw })).body.limits.maxPageSize).toBe(20);
    await server.services.keys.setTier(key.keyPrefix, 'enterprise');
    const u = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(u.body.tier).toBe('enterprise');
    expect(u.body.limits).toMatchObject({
      rateLimitPerMinute: 120,
      dailyLimit: null,
      monthlyLimit: null,
      maxPageSize: 100,
      canPush: true,
      requireFilterOnSearch: false,
    });
    expect(u.body.usage.dailyRemaining).toBeNull();
    // two calls already counted in this minute: a new limit of 3 leaves one
    await server.services.keys.setLimits(key.keyPrefix, { rateLimitPerMinute: 3 });
    expect((await call(key.raw)).status).toBe(200);
    expect((await call(key.raw)).status).toBe(429);
  });
});
