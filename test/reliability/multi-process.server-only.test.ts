// Three API processes behind a round-robin proxy on loopback, one PostgreSQL + Redis: the
// per-minute limit, the daily quota and the cursor-depth limit hold exactly for 100 concurrent
// requests; the registration IP limit holds with spoofed X-Forwarded-For (TRUST_PROXY off);
// a rotated key is dead on every process within the documented bound (KEY_CACHE_TTL_MS: each
// process caches a verified key that long).
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoundRobinProxy } from '../fakes/round-robin-proxy.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { TEST_SECRET } from '../helpers/env.ts';
import { createKey } from '../helpers/keys.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from '../helpers/server.ts';
import { KEY_CACHE_TTL_MS } from '../../src/services/access/key-auth.ts';
import { pause } from './load.ts';
import { Scenario } from './record.ts';
import { send, type WireResponse } from './wire.ts';

let db: TestDatabase;
let admin: TestServer;
let procs: ServerProcess[] = [];
let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>>;

beforeAll(async () => {
  db = await createTestDatabase();
  // An in-process instance on the same database, used only as the operator (keys, data).
  admin = await startServer({ database: db });
  await loadGeneratedCompanies(admin, 60, 8);
  const env = { ...db.env, SECRET_KEY: TEST_SECRET }; // TRUST_PROXY unset: off
  // generous start deadline: CI machines with 2 cores start three tsx processes slowly
  procs = await Promise.all([
    startServerProcess(env, 240_000),
    startServerProcess(env, 240_000),
    startServerProcess(env, 240_000),
  ]);
  proxy = await startRoundRobinProxy(procs.map((p) => ({ host: '127.0.0.1', port: Number(new URL(p.url).port) })));
}, 300_000);
afterAll(async () => {
  await proxy?.close();
  await Promise.all(procs.map((p) => p.stop('SIGTERM')));
  await admin?.close();
  await db?.drop();
});

async function burst(
  n: number,
  path: string,
  opts: {
    key?: string;
    method?: string;
    body?: (i: number) => unknown;
    headers?: (i: number) => Record<string, string>;
  } = {},
): Promise<WireResponse[]> {
  const before = [...proxy.connections];
  // New connections for every burst, so the proxy spreads it over all three processes.
  const spread = new Agent({ connections: 100, pipelining: 1 });
  const out = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      send(proxy.url + path, {
        method: opts.method,
        headers: {
          ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
          ...(opts.body ? { 'content-type': 'application/json' } : {}),
          ...(opts.headers?.(i) ?? {}),
        },
        body: opts.body ? JSON.stringify(opts.body(i)) : undefined,
        dispatcher: spread,
      }),
    ),
  );
  await spread.close();
  // every process took part
  expect(proxy.connections.map((c, i) => c - before[i]).every((c) => c > 0)).toBe(true);
  return out;
}

function tally(s: Scenario, results: WireResponse[]) {
  const by: Record<string, number> = {};
  for (const r of results) {
    s.count(r.status);
    const k = `${r.status}${r.json?.code ? ' ' + r.json.code : ''}`;
    by[k] = (by[k] ?? 0) + 1;
  }
  return by;
}

describe('three processes behind a round-robin proxy', () => {
  it('holds the per-minute limit exactly for 100 concurrent requests', async () => {
    const s = new Scenario('multi-process: per-minute limit (37 of 100)', 3);
    const key = (await createKey(admin, { limits: { rateLimitPerMinute: 37, dailyLimit: 0, monthlyLimit: 0 } })).raw;
    const by = tally(s, await burst(100, '/api/municipalities?county=03', { key }));
    s.check(by['200'] === 37 && by['429 rate_limited'] === 63, `got ${JSON.stringify(by)}`);
    s.save();
    expect(by).toEqual({ '200': 37, '429 rate_limited': 63 });
  });

  it('holds the daily quota exactly for 100 concurrent requests', async () => {
    const s = new Scenario('multi-process: daily quota (23 of 100)', 3);
    const key = (await createKey(admin, { limits: { rateLimitPerMinute: 0, dailyLimit: 23, monthlyLimit: 0 } })).raw;
    const by = tally(s, await burst(100, '/api/municipalities?county=03', { key }));
    s.check(by['200'] === 23 && by['429 daily_quota_exceeded'] === 77, `got ${JSON.stringify(by)}`);
    s.save();
    expect(by).toEqual({ '200': 23, '429 daily_quota_exceeded': 77 });
  });

  it('holds the cursor-depth limit (50 follows per 5 minutes) exactly for 100 concurrent follows', async () => {
    const s = new Scenario('multi-process: cursor depth (50 of 100)', 3);
    const key = (
      await createKey(admin, { tier: 'internal', limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } })
    ).raw;
    const first = await send(`${proxy.url}/api/companies?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    s.count(first.status);
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const by = tally(
      s,
      await burst(100, `/api/companies?limit=1&cursor=${encodeURIComponent(first.json.nextCursor)}`, { key }),
    );
    s.check(by['200'] === 50 && by['429 cursor_depth_exceeded'] === 50, `got ${JSON.stringify(by)}`);
    s.save();
    expect(by).toEqual({ '200': 50, '429 cursor_depth_exceeded': 50 });
  });

  it('holds the registration IP limit (3 per hour) with spoofed X-Forwarded-For while TRUST_PROXY is off', async () => {
    const s = new Scenario('multi-process: registration IP limit, spoofed XFF', 3);
    const results = await burst(20, '/api/keys/register', {
      method: 'POST',
      body: (i) => ({ projectName: `spoof-${i}`, email: 'spoof@example.com' }),
      headers: (i) => ({ 'x-forwarded-for': `198.51.100.${i + 1}`, 'x-real-ip': `198.51.100.${i + 1}` }),
    });
    const by = tally(s, results);
    s.check(by['201'] === 3 && by['429 registration_limited'] === 17, `got ${JSON.stringify(by)}`);
    s.save();
    expect(by).toEqual({ '201': 3, '429 registration_limited': 17 });
  });

  it('makes a rotation take effect on every process within the key-cache bound', async () => {
    const s = new Scenario('multi-process: rotation on all processes', 3);
    const old = (await createKey(admin, { limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } })).raw;
    // warm every process with the old key first
    for (const p of procs) {
      const r = await send(`${p.url}/api/keys/usage`, { headers: { authorization: `Bearer ${old}` } });
      s.count(r.status);
      s.check(r.status === 200, `old key before rotation on ${p.url}: ${r.status}`);
    }
    const rot = await send(`${procs[1].url}/api/keys/rotate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${old}` },
    });
    const rotatedAt = Date.now();
    s.count(rot.status);
    expect(rot.status).toBe(201);
    // The documented bound: each process caches a verified key for KEY_CACHE_TTL_MS.
    const bound = KEY_CACHE_TTL_MS + 1000; // plus scheduling slack on a loaded machine
    for (const p of procs) {
      let last = 0;
      for (let i = 0; i < 100; i++) {
        const o = await send(`${p.url}/api/keys/usage`, { headers: { authorization: `Bearer ${old}` } });
        s.count(o.status);
        last = o.status;
        if (o.status === 401) break;
        s.check(o.status === 200, `old key after rotation on ${p.url}: ${o.status}`);
        if (Date.now() - rotatedAt > bound) break;
        await pause(50);
      }
      const took = Date.now() - rotatedAt;
      s.check(
        last === 401,
        `old key still accepted by ${p.url} ${took} ms after rotation (bound ${KEY_CACHE_TTL_MS} ms)`,
      );
      const n = await send(`${p.url}/api/keys/usage`, { headers: { authorization: `Bearer ${rot.json.raw}` } });
      s.count(n.status);
      s.check(n.status === 200, `new key after rotation on ${p.url}: ${n.status}`);
    }
    s.save();
    expect(s.violations).toEqual([]);
  });
});
