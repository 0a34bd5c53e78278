// Server mode only: three API processes against one PostgreSQL + Redis hold the limits exactly,
// and a company changed by one process is served by the others within 1 s (record caches).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext, closeContext } from '../../src/runtime/build-context.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createServices } from '../../src/runtime/services.ts';
import { company, org } from '../fixtures/aksjonaer/build.ts';
import { TEST_SECRET } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

const DIAGNOSTICS = 'multi-process-diagnostics';
let db: TestDatabase;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const env = { ...db.env, SECRET_KEY: TEST_SECRET, TRUST_PROXY: 'true', LOG_LEVEL: 'info', SYNC_SECRET: DIAGNOSTICS };
  // Three processes start at once; on a loaded machine that takes longer than one alone.
  servers = await Promise.all([0, 1, 2].map(() => startServerProcess(env, 110_000)));
});
afterAll(async () => {
  for (const s of servers) await s.stop('SIGTERM');
  await db?.drop();
});

describe('three processes, one PostgreSQL + Redis', () => {
  it('gives one free key exactly 20 successful calls in a minute across all of them', async () => {
    const reg = await http(servers[0].url, 'POST', '/api/keys/register', {
      body: { projectName: 'spread', email: 'a@example.com' },
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expect(reg.status).toBe(201);
    const calls = Array.from({ length: 45 }, (_, i) =>
      http(servers[i % 3].url, 'GET', '/api/municipalities?county=03', { key: reg.body.raw }),
    );
    const results = await Promise.all(calls);
    const byProcess = [0, 1, 2].map((p) => results.filter((r, i) => i % 3 === p && r.status === 200).length);
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    expect(results.filter((r) => r.status === 429)).toHaveLength(25);
    expect(byProcess.reduce((a, b) => a + b, 0)).toBe(20);
    for (const r of results.filter((x) => x.status === 429)) expect(r.body.code).toBe('rate_limited');
    // the quota counter agrees (read from the database: /usage is itself rate limited now)
    const c = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await c.connect();
    const row = await c.query(
      `SELECT u.day_count FROM project_usage u JOIN projects p ON p.id = u.project_id WHERE p.name = 'spread'`,
    );
    await c.end();
    expect(row.rows[0].day_count).toBe(20);
  });

  it('lets 20 concurrent registrations from one IP create exactly 3 keys', async () => {
    const ip = '203.0.113.77';
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http(servers[i % 3].url, 'POST', '/api/keys/register', {
          body: { projectName: `burst-${i}`, email: 'b@example.com' },
          headers: { 'x-forwarded-for': ip },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 429)).toHaveLength(17);
    for (const r of results.filter((x) => x.status === 429))
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    const created = results.filter((r) => r.status === 201).map((r) => r.body.projectName);
    // and exactly those three exist in the database, as working keys
    for (const r of results.filter((x) => x.status === 201)) {
      expect((await http(servers[1].url, 'GET', '/api/keys/usage', { key: r.body.raw })).status).toBe(200);
    }
    expect(new Set(created).size).toBe(3);
  });
});

describe('record caches across processes', () => {
  it('serves a change written by another process within 1 s, in every process', async () => {
    // The writer is this test process: its own store connection and write repository.
    const ctx = await buildContext(loadConfig({ ...db.env, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'warn' }));
    try {
      const services = createServices(ctx);
      const created = await services.keys.register({ projectName: 'cache-readers', email: 'c@example.com' });
      await services.keys.setTier(created.keyPrefix, 'internal');
      const n = org(710);
      await ctx.repos.companyWrites.write([company(n, 'CACHE AS')]);
      const nameAt = async (s: ServerProcess) =>
        (await http(s.url, 'GET', `/api/companies/${n}`, { key: created.raw })).body.name as string;
      const readers = servers.slice(0, 2);
      // Each reader serves the stored name, then (once its follow has passed the write) from its cache.
      for (const s of readers) for (let i = 0; i < 5; i++) expect(await nameAt(s)).toBe('CACHE AS');
      for (const s of readers) {
        const health = await http(s.url, 'GET', '/api/health', { headers: { 'x-sync-secret': DIAGNOSTICS } });
        expect(health.body.recordCache.hits).toBeGreaterThan(0);
      }

      await ctx.repos.companyWrites.write([company(n, 'CACHE NY AS')]);
      const written = performance.now();
      const seen = await Promise.all(
        readers.map(async (s) => {
          let name = await nameAt(s);
          while (name !== 'CACHE NY AS' && performance.now() - written < 3000) name = await nameAt(s);
          return { name, after: performance.now() - written };
        }),
      );
      for (const r of seen) {
        expect(r.name).toBe('CACHE NY AS');
        expect(r.after).toBeLessThanOrEqual(1000);
      }
    } finally {
      await closeContext(ctx);
    }
  });
});
