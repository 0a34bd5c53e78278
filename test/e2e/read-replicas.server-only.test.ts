// DATABASE_READ_URL against a real streaming replica of the test server (test/helpers/replica.ts):
// reads served by it, read-your-writes, a lagging replica out of rotation and back, a killed one
// costing no client request, and the feed drained across a replica switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startReplica, type Replica } from '../helpers/replica.ts';
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from '../helpers/server.ts';

const SEED = 23;
const SECRET = 'replica-test-sync-secret-0123';
// Long enough that the replica stays in rotation through one small load while it is paused.
const MAX_LAG_MS = 4000;
const orgNumber = (i: number) => generateCompany(i, SEED).enhet.organisasjonsnummer;

let database: TestDatabase;
let replica: Replica;
let server: TestServer;
let key: string;

interface ReplicaHealth {
  host: string;
  lagMs: number | null;
  inRotation: boolean;
  inRecovery: boolean | null;
  reads: number;
}

async function replicaHealth(): Promise<ReplicaHealth> {
  const r = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } });
  expect(r.status).toBe(200);
  expect(r.body.database).toBe('connected');
  expect(r.body.replicas).toHaveLength(1);
  return r.body.replicas[0];
}

/** Polls health until `check` holds (the router measures lag every 500 ms). */
async function healthUntil(check: (h: ReplicaHealth) => boolean, timeoutMs = 60_000): Promise<ReplicaHealth> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const h = await replicaHealth();
    if (check(h)) return h;
    if (Date.now() > end) throw new Error(`health never matched: ${JSON.stringify(h)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lookup = (i: number) => http(server.url, 'GET', `/api/companies/${orgNumber(i)}`, { key });

beforeAll(async () => {
  database = await createTestDatabase();
  const name = new URL(database.env.DATABASE_URL).pathname.slice(1);
  replica = await startReplica();
  server = await startServer({
    database,
    env: {
      DATABASE_READ_URL: replica.urlFor(name),
      READ_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      SYNC_SECRET: SECRET,
      // Every lookup reaches the store: the record cache would hide where reads go.
      RECORD_CACHE_ENTRIES: '0',
    },
  });
  await loadGeneratedCompanies(server, 60, SEED);
  key = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
  await replica.caughtUp();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await replica?.destroy();
  await database?.drop();
});

describe('read replicas (DATABASE_READ_URL)', () => {
  it('serves lookups and search from the replica, which health shows in recovery and in rotation', async () => {
    const before = await healthUntil((h) => h.inRotation);
    expect(before.host).toBe(replica.host);
    expect(before.inRecovery).toBe(true);
    expect(before.lagMs).toBeLessThanOrEqual(MAX_LAG_MS);
    for (let i = 0; i < 10; i++) expect((await lookup(i)).status).toBe(200);
    const search = await http(server.url, 'GET', '/api/companies?limit=5', { key });
    expect(search.status).toBe(200);
    expect(search.body.data.length).toBe(5);
    const after = await replicaHealth();
    expect(after.reads - before.reads).toBeGreaterThanOrEqual(11);
    // The connection string's user never reaches health.
    expect(JSON.stringify(after)).not.toContain('postgres@');
  }, 120_000);

  it("reads this process's own writes at once, even while the replica has not replayed them", async () => {
    // Close behind (other suites write to the same server meanwhile), so it stays in rotation.
    await healthUntil((h) => h.inRotation && h.lagMs !== null && h.lagMs <= 1000);
    await replica.pause();
    try {
      await loadGeneratedCompanies(server, 5, SEED, 60);
      const before = await replicaHealth();
      // Not on the replica yet, which is still in rotation: served by the primary.
      const r = await lookup(62);
      expect(r.status).toBe(200);
      expect(r.body.orgNumber).toBe(orgNumber(62));
      const after = await replicaHealth();
      expect(after.inRotation).toBe(true);
      expect(after.reads).toBe(before.reads);
    } finally {
      await replica.resume();
    }
    await replica.caughtUp();
    // Caught up: reads go back to the replica.
    const { reads } = await healthUntil((h) => h.inRotation);
    expect((await lookup(63)).status).toBe(200);
    expect((await replicaHealth()).reads).toBeGreaterThan(reads);
  }, 120_000);

  it('takes a replica lagging beyond READ_REPLICA_MAX_LAG_MS out of rotation, and back once caught up', async () => {
    await replica.pause();
    try {
      await loadGeneratedCompanies(server, 5, SEED, 65);
      const out = await healthUntil((h) => !h.inRotation);
      expect(out.lagMs).toBeGreaterThan(MAX_LAG_MS);
      expect(out.inRecovery).toBe(true);
      // Out of rotation: its reads counter stands still while lookups are served.
      for (let i = 0; i < 5; i++) expect((await lookup(i)).status).toBe(200);
      expect((await replicaHealth()).reads).toBe(out.reads);
    } finally {
      await replica.resume();
    }
    const back = await healthUntil((h) => h.inRotation);
    expect(back.lagMs).toBeLessThanOrEqual(MAX_LAG_MS);
  }, 120_000);

  it('a killed replica costs no failed request; it rejoins once it is back and caught up', async () => {
    await healthUntil((h) => h.inRotation);
    // Open pooled connections to it first, so the kill breaks connections in use.
    await Promise.all(Array.from({ length: 8 }, (_, i) => lookup(i)));
    await replica.kill();
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => lookup(i % 60).then((r) => r.status)));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const down = await healthUntil((h) => !h.inRotation);
    expect(down.lagMs).toBeNull();
    await replica.start();
    await replica.caughtUp();
    const back = await healthUntil((h) => h.inRotation);
    expect(back.inRecovery).toBe(true);
  }, 120_000);

  it('drains the feed across a replica switch with nothing missed and nothing twice', async () => {
    await healthUntil((h) => h.inRotation);
    const seen: string[] = [];
    let cursor: string | undefined;
    let page = 0;
    const { reads } = await replicaHealth();
    for (;;) {
      // After three pages from the replica it goes away: the rest come from the primary.
      if (page === 3) {
        expect((await replicaHealth()).reads).toBeGreaterThanOrEqual(reads + 3);
        await replica.kill();
      }
      const q = `/api/updates?since=2000-01-01&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const r = await http(server.url, 'GET', q, { key });
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((c: { orgNumber: string }) => c.orgNumber));
      page++;
      if (!r.body.hasMore) break;
      cursor = r.body.nextCursor;
    }
    expect(page).toBeGreaterThan(6);
    expect((await replicaHealth()).inRotation).toBe(false);
    const expected = Array.from({ length: 70 }, (_, i) => orgNumber(i)).sort();
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(expected);
  }, 120_000);
});
