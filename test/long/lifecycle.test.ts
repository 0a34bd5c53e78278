// The server and the `ncd` command as separate processes: start-up failures, graceful
// shutdown, the DATA_DIR lock, and operator commands while the server runs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/engine/db.ts';
import { serverMode, TEST_SECRET } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { CLI, MAIN, runProcess, startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

let db: TestDatabase | undefined;
const procs: ServerProcess[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) await p.stop('SIGKILL');
  await db?.drop();
  db = undefined;
});

async function freshEnv(): Promise<Record<string, string>> {
  db = await createTestDatabase();
  return { ...db.env, SECRET_KEY: TEST_SECRET };
}

async function register(url: string, name: string) {
  const r = await http(url, 'POST', '/api/keys/register', { body: { projectName: name, email: 'ops@example.com' } });
  expect(r.status).toBe(201);
  return r.body as { raw: string; keyPrefix: string };
}

describe('start-up', () => {
  it('stops with a non-zero exit and a message naming the variable on bad configuration', async () => {
    const r = await runProcess([MAIN], { DATA_DIR: '/tmp/ncd-never-used', PORT: 'eighty' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('PORT');
  });

  it('stops with a non-zero exit when a migration fails', async () => {
    const env = await freshEnv();
    // A table in the way of migration 0001 makes it fail.
    if (serverMode) {
      const c = new pg.Client({ connectionString: env.DATABASE_URL });
      await c.connect();
      await c.query('DROP TABLE schema_migrations; DROP TABLE tiers CASCADE; CREATE TABLE tiers (oops int)');
      await c.query('DELETE FROM schema_migrations').catch(() => undefined);
      await c.end();
    } else {
      const s = await openStore({ dataDir: env.DATA_DIR, statementTimeoutMs: 10_000 });
      await s.pool.query('DROP TABLE schema_migrations; DROP TABLE tiers CASCADE; CREATE TABLE tiers (oops int)');
      await s.close();
    }
    const r = await runProcess([MAIN], { ...env, PORT: '0', LOG_LEVEL: 'warn' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Migration 0001_foundation failed');
  });
});

describe('shutdown and restart', () => {
  it('exits 0 on SIGTERM, releases DATA_DIR, and keeps data for the next start', async () => {
    const env = await freshEnv();
    const first = await startServerProcess(env);
    procs.push(first);
    const key = await register(first.url, 'survivor');
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.output()).toContain('shutting down');
    expect(existsSync(path.join(env.DATA_DIR, 'ncd.lock'))).toBe(false);

    const second = await startServerProcess(env);
    procs.push(second);
    const usage = await http(second.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(usage.status).toBe(200);
    expect(usage.body.projectName).toBe('survivor');
  });

  it(
    serverMode
      ? 'lets several processes share one PostgreSQL database'
      : 'refuses a second process on the same embedded DATA_DIR',
    async () => {
      const env = await freshEnv();
      const first = await startServerProcess(env);
      procs.push(first);
      if (serverMode) {
        const second = await startServerProcess(env);
        procs.push(second);
        expect((await http(second.url, 'GET', '/api/health')).status).toBe(200);
      } else {
        const r = await runProcess([MAIN], { ...env, PORT: '0' });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('DATA_DIR is in use by another process');
        expect((await http(first.url, 'GET', '/api/health')).status).toBe(200);
      }
    },
  );
});

describe('ncd keys while the server runs', () => {
  it('moves a key to another tier and sets limits, then works again with the server stopped', async () => {
    const env = await freshEnv();
    const server = await startServerProcess(env);
    procs.push(server);
    const key = await register(server.url, 'operated');

    const setTier = await runProcess([CLI, 'keys', 'set-tier', key.keyPrefix, 'pro'], env);
    expect(setTier.code).toBe(0);
    expect(JSON.parse(setTier.stdout)).toMatchObject({ keyPrefix: key.keyPrefix, tier: 'pro' });
    if (!serverMode) expect(setTier.stderr).toContain('running the command there');
    let usage = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(usage.body.tier).toBe('pro');
    expect(usage.body.limits).toMatchObject({
      rateLimitPerMinute: 60,
      dailyLimit: 5000,
      maxPageSize: 100,
      canPush: true,
    });

    const setLimits = await runProcess(
      [CLI, 'keys', 'set-limits', key.keyPrefix, '--rpm', '7', '--daily', '0', '--page-size', '50'],
      env,
    );
    expect(setLimits.code).toBe(0);
    usage = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(usage.body.limits).toMatchObject({
      rateLimitPerMinute: 7,
      dailyLimit: null,
      monthlyLimit: 50000,
      maxPageSize: 50,
    });

    const bad = await runProcess([CLI, 'keys', 'set-tier', key.keyPrefix, 'platinum'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown tier');
    const unknown = await runProcess([CLI, 'keys', 'set-tier', 'ncd_00000000', 'pro'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No active key');

    expect(await server.stop('SIGTERM')).toBe(0);
    const offline = await runProcess([CLI, 'keys', 'set-limits', key.keyPrefix, '--rpm', 'default'], env);
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout).limits.rateLimitPerMinute).toBe(60);
  });

  it('lists keys and deactivates one: it answers 401 at once, and the list shows it inactive', async () => {
    const env = await freshEnv();
    const server = await startServerProcess(env);
    procs.push(server);
    const kept = await register(server.url, 'listed-kept');
    const leaked = await register(server.url, 'listed-leaked');

    const list = await runProcess([CLI, 'keys', 'list'], env);
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.stdout).keys as { keyPrefix: string; projectName: string; active: boolean }[];
    expect(listed.map((k) => k.keyPrefix)).toEqual(expect.arrayContaining([kept.keyPrefix, leaked.keyPrefix]));
    expect(list.stdout).not.toContain(kept.raw);
    expect(JSON.parse((await runProcess([CLI, 'keys', 'list', '--project', 'LISTED-KEPT'], env)).stdout).keys).toEqual([
      expect.objectContaining({ keyPrefix: kept.keyPrefix, projectName: 'listed-kept', tier: 'free', active: true }),
    ]);

    const off = await runProcess([CLI, 'keys', 'deactivate', leaked.keyPrefix], env);
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({ keyPrefix: leaked.keyPrefix, active: false });
    expect((await http(server.url, 'GET', '/api/keys/usage', { key: leaked.raw })).status).toBe(401);
    expect((await http(server.url, 'GET', '/api/keys/usage', { key: kept.raw })).status).toBe(200);

    const again = await runProcess([CLI, 'keys', 'deactivate', leaked.keyPrefix], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No active key');
    const active = JSON.parse((await runProcess([CLI, 'keys', 'list'], env)).stdout).keys;
    expect(active.map((k: { keyPrefix: string }) => k.keyPrefix)).not.toContain(leaked.keyPrefix);
    const all = JSON.parse((await runProcess([CLI, 'keys', 'list', '--all'], env)).stdout).keys;
    expect(all).toEqual(
      expect.arrayContaining([expect.objectContaining({ keyPrefix: leaked.keyPrefix, active: false })]),
    );
  });
});
