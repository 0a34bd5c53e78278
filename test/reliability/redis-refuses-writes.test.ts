// Redis answers but refuses writes — out of memory (maxmemory 1, noeviction), too few replicas
// (min-replicas-to-write), read-only after a failover (REPLICAOF a master that is gone): every
// keyed route and the OAuth client registration answer 503 with Retry-After, fast, never 500,
// and serve again as soon as Redis takes writes. A private redis-server on its own port.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Scenario } from './record.ts';
import { send } from './wire.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let t = 0; t < 100; t++) {
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => (c.destroy(), resolve(true)));
      c.on('error', () => resolve(false));
    });
    if (up) return proc;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('private redis-server did not start');
}

/** Each way a Redis refuses writes, and how it is undone. */
const REFUSALS: {
  name: string;
  refuse: (r: Redis, deadPort: number) => Promise<unknown>;
  undo: (r: Redis) => Promise<unknown>;
}[] = [
  {
    name: 'out of memory (maxmemory 1, noeviction)',
    refuse: async (r) => (await r.config('SET', 'maxmemory-policy', 'noeviction'), r.config('SET', 'maxmemory', '1')),
    undo: (r) => r.config('SET', 'maxmemory', '0'),
  },
  {
    name: 'too few replicas (min-replicas-to-write 1)',
    refuse: (r) => r.config('SET', 'min-replicas-to-write', '1'),
    undo: (r) => r.config('SET', 'min-replicas-to-write', '0'),
  },
  {
    name: 'read-only replica after a failover (REPLICAOF a gone master)',
    refuse: (r, deadPort) => r.replicaof('127.0.0.1', deadPort),
    undo: (r) => r.replicaof('NO', 'ONE'),
  },
];

describe('Redis refuses writes', () => {
  it('keyed routes and client registration answer 503 with Retry-After, then serve again', async () => {
    const s = new Scenario('faults: Redis refuses writes (OOM, NOREPLICAS, READONLY)', 2);
    const port = await freePort();
    const deadPort = await freePort();
    const redisProc = await startRedis(port);
    cleanups.push(async () => redisProc.kill('SIGKILL'));
    const admin = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    cleanups.push(() => admin.quit());
    const server: TestServer = await startServer({
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, TRUST_PROXY: 'true' },
    });
    cleanups.push(() => server.close());
    expect(server.ctx.rateWindows.backend).toBe('redis');
    const key = (await createKey(server, { limits: { rateLimitPerMinute: 100_000 } })).raw;
    let ip = 0;
    const calls = {
      keyed: () => send(`${server.url}/api/municipalities?county=03`, { headers: { authorization: `Bearer ${key}` } }),
      usage: () => send(`${server.url}/api/keys/usage`, { headers: { authorization: `Bearer ${key}` } }),
      oauthRegister: () =>
        send(`${server.url}/api/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.7.${++ip}` },
          body: JSON.stringify({ client_name: 'r', redirect_uris: ['http://127.0.0.1:1/cb'] }),
        }),
      keyRegister: () =>
        send(`${server.url}/api/keys/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.8.${++ip}` },
          body: JSON.stringify({ projectName: `redis-refusal-${ip}`, email: 'r@example.com' }),
        }),
    };
    const ok = { keyed: 200, usage: 200, oauthRegister: 201, keyRegister: 201 };
    for (const [name, call] of Object.entries(calls)) {
      const r = await call();
      s.count(r.status);
      s.check(r.status === ok[name as keyof typeof ok], `${name} before: ${r.status}`);
    }
    for (const refusal of REFUSALS) {
      await refusal.refuse(admin, deadPort);
      for (const [name, call] of Object.entries(calls)) {
        const started = performance.now();
        const r = await call();
        const ms = performance.now() - started;
        s.count(r.status);
        s.check(r.status === 503, `${refusal.name}: ${name} answered ${r.status} ${r.text.slice(0, 160)}`);
        s.check(Number(r.headers['retry-after']) > 0, `${refusal.name}: ${name} without Retry-After`);
        s.check(ms < 1000, `${refusal.name}: ${name} took ${Math.round(ms)} ms`);
        if (name === 'oauthRegister') s.check(r.json?.error === 'temporarily_unavailable', `${name}: ${r.text}`);
      }
      await refusal.undo(admin);
      for (const [name, call] of Object.entries(calls)) {
        const r = await call();
        s.count(r.status);
        s.check(r.status === ok[name as keyof typeof ok], `${refusal.name} undone: ${name} ${r.status}`);
      }
    }
    s.figure('refusals tried', String(REFUSALS.length));
    s.save();
    expect(s.violations).toEqual([]);
  });
});
