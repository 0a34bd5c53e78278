// The container image's entry point (docker/entrypoint.sh), run outside a container the way
// the image runs it: HOST=0.0.0.0, NODE_ENV=production, DATA_DIR and the database from the
// environment. Then the smoke flow of issue 22 — register, usage, search, lookup — with the data
// loaded through the entry point's `ncd` path. CI runs this where no container engine can start
// the compose stack (.ci/packaging.sh).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDumpFiles } from '../../src/sources/brreg/dump-files.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { TEST_SECRET } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRYPOINT = path.join(ROOT, 'docker/entrypoint.sh');
const work = mkdtempSync(path.join(tmpdir(), 'ncd-entrypoint-'));
let db: TestDatabase;
let env: Record<string, string>;

function entrypoint(args: string[], extra: Record<string, string> = {}) {
  return spawn('sh', [ENTRYPOINT, ...args], {
    cwd: work, // not the checkout: the script finds the app from its own location
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function finish(proc: ReturnType<typeof entrypoint>): Promise<{ code: number | null; out: string }> {
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => proc.on('close', (code) => resolve({ code, out })));
}

beforeAll(async () => {
  db = await createTestDatabase();
  env = {
    ...db.env,
    HOST: '0.0.0.0',
    PORT: '0',
    NODE_ENV: 'production',
    SECRET_KEY: TEST_SECRET,
    DEMO_DATA: 'off',
    SYNC_SCHEDULE: 'off',
    LOG_LEVEL: 'info',
  };
});
afterAll(async () => {
  await db?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('docker/entrypoint.sh', () => {
  it('serves the API, runs ncd commands, and passes the smoke flow', async () => {
    const server = entrypoint([]);
    let log = '';
    const exited = finish(server);
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (c: Buffer) => {
        log += c.toString();
        const m = /"address":"http:\/\/[^"]+:(\d+)"[^\n]*"msg":"listening"/.exec(log);
        if (m) resolve(`http://127.0.0.1:${m[1]}`);
      });
      server.on('close', (code) => reject(new Error(`the entry point exited with ${code}:\n${log}`)));
    });
    try {
      // HOST beyond loopback with BASE_URL unset: the start-up warning says what links will use.
      expect(log).toContain('HOST is 0.0.0.0 (reachable from other machines) and BASE_URL is not set');

      const dumpDir = mkdtempSync(path.join(work, 'dump-'));
      const files = await writeDumpFiles(dumpDir, 20, 5);
      const sync = await finish(entrypoint(['sync', 'brreg', '--file', files.enheter]));
      expect(sync.code, sync.out).toBe(0);

      const reg = await http(url, 'POST', '/api/keys/register', {
        body: { projectName: 'Container smoke', email: 'ops@example.com' },
      });
      expect(reg.status).toBe(201);
      expect(reg.body.setupUrl).toBe(`${url}/setup?key=${reg.body.raw}`);
      const key = reg.body.raw as string;

      const usage = await http(url, 'GET', '/api/keys/usage', { key });
      expect(usage.status).toBe(200);
      expect(usage.body.usage.today).toBe(0);

      const known = orgNumberFor(0);
      const lookup = await http(url, 'GET', `/api/companies/${known}`, { key });
      expect(lookup.status).toBe(200);
      expect(lookup.body.orgNumber).toBe(known);

      const search = await http(url, 'GET', `/api/companies?q=${encodeURIComponent(lookup.body.name)}`, { key });
      expect(search.status).toBe(200);
      expect(search.body.data.map((c: { orgNumber: string }) => c.orgNumber)).toContain(known);

      const health = await http(url, 'GET', '/api/health');
      expect(health.status).toBe(200);
      expect((await http(url, 'GET', '/api/keys/usage', { key })).body.usage.today).toBe(2);
    } finally {
      server.kill('SIGTERM');
    }
    expect((await exited).code).toBe(0);
  });

  it('runs `ncd --help` given as arguments', async () => {
    const r = await finish(entrypoint(['--help']));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage:/);
  });

  it('stops with a plain message when DATA_DIR cannot be written', async () => {
    const file = path.join(work, 'not-a-directory');
    writeFileSync(file, '');
    const r = await finish(entrypoint([], { DATA_DIR: path.join(file, 'data') }));
    expect(r.code).toBe(73);
    expect(r.out).toContain(`ncd: DATA_DIR ${path.join(file, 'data')} is not a writable directory`);
  });
});
