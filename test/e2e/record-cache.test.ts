// The per-process record cache behind GET /api/companies/{orgNumber}: hits are served from
// memory, a write through this process shows at once, a change it did not announce within 1 s,
// and quotas stay exact for keys that have them.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company, org } from '../fixtures/aksjonaer/build.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
const [A, B, C] = [org(700), org(701), org(702)];

const diagnostics = async () =>
  (await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': 'cache-diagnostics-secret' } })).body
    .recordCache;
const nameOf = async (n: string) => (await http(server.url, 'GET', `/api/companies/${n}`, { key })).body.name;

beforeAll(async () => {
  server = await startServer({ env: { SYNC_SECRET: 'cache-diagnostics-secret', RECORD_CACHE_POLL_MS: '100' } });
  key = (await createKey(server, { tier: 'internal' })).raw;
  await server.ctx.repos.companyWrites.write([company(A, 'ALFA AS'), company(B, 'BETA AS'), company(C, 'GAMMA AS')]);
});
afterAll(async () => {
  await server?.close();
});

describe('record cache', () => {
  it('serves a repeated lookup from memory with the same body as the store', async () => {
    const first = await http(server.url, 'GET', `/api/companies/${A}`, { key });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ orgNumber: A, name: 'ALFA AS' });
    // The write in beforeAll may still be in the follow's window: its poll evicts A once, before
    // or (on a loaded machine, where a poll runs late) just after a hit, so wait for a hit that
    // leaves A cached.
    let before = await diagnostics();
    let second = await http(server.url, 'GET', `/api/companies/${A}`, { key });
    let after = await diagnostics();
    for (let i = 0; i < 20 && (after.hits === before.hits || after.entries === 0); i++) {
      before = after;
      second = await http(server.url, 'GET', `/api/companies/${A}`, { key });
      after = await diagnostics();
    }
    expect(after.hits - before.hits).toBe(1);
    expect(after.misses - before.misses).toBe(0);
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(second.body).toEqual(first.body);
    // the record with context is built from the store and carries the same fields
    const withContext = await http(server.url, 'GET', `/api/companies/${A}?include=context`, { key });
    expect(withContext.body).toMatchObject({ ...first.body, _sources: expect.any(Object) });
    expect(after.entries).toBeGreaterThanOrEqual(1);
    expect(after.bytes).toBeGreaterThan(0);
    expect(after.following).toBe(true);
    expect(after.hitRate).toBeGreaterThan(0);
  });

  it('shows a write through this process at once', async () => {
    expect(await nameOf(B)).toBe('BETA AS');
    const hits = (await diagnostics()).hits;
    expect(await nameOf(B)).toBe('BETA AS');
    expect((await diagnostics()).hits).toBe(hits + 1);
    await server.ctx.repos.companyWrites.write([company(B, 'BETA NY AS')]);
    // no wait: the write evicted the record when it committed
    expect(await nameOf(B)).toBe('BETA NY AS');
  });

  it('shows a change it was not told about within 1 s', async () => {
    expect(await nameOf(C)).toBe('GAMMA AS');
    expect(await nameOf(C)).toBe('GAMMA AS');
    const inv = (await diagnostics()).invalidations;
    // A writer outside the company write repository (as another process is): only the follow sees it.
    await sql`UPDATE companies SET name = 'GAMMA NY AS', updated_at = now() WHERE org_number = ${C}`.execute(
      server.ctx.store.db,
    );
    const written = performance.now();
    let name = await nameOf(C);
    while (name !== 'GAMMA NY AS' && performance.now() - written < 3000) name = await nameOf(C);
    const seenAfter = performance.now() - written;
    expect(name).toBe('GAMMA NY AS');
    expect(seenAfter).toBeLessThanOrEqual(1000);
    expect((await diagnostics()).invalidations).toBeGreaterThan(inv);
  });

  it('counts a quota exactly when the answers come from the cache', async () => {
    const limited = await createKey(server, { tier: 'internal', limits: { dailyLimit: 3, rateLimitPerMinute: 0 } });
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await http(server.url, 'GET', `/api/companies/${A}`, { key: limited.raw })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('answers 400 for a bad number and 404 for an unknown company, then serves one written later', async () => {
    const unknown = org(799);
    expect((await http(server.url, 'GET', `/api/companies/${unknown}?country=SE`, { key })).status).toBe(400);
    expect((await http(server.url, 'GET', `/api/companies/5560360793?country=SE`, { key })).status).toBe(404);
    await server.ctx.repos.companyWrites.write([company(unknown, 'DELTA AS')]);
    expect(await nameOf(unknown)).toBe('DELTA AS');
  });
});
