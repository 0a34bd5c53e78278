// `npm start` (bin/serve.mjs) runs the server from dist/server.mjs, one module that esbuild
// bundles from src/main.ts at each start, instead of through tsx's loader thread. The bundle
// must behave as the sources do: files found from the package root (migrations, reference
// lists, the embedded engine's worker), routes, errors, and a clean exit on SIGTERM.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, TEST_SECRET } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { collectOutput, startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

const BUNDLE = path.join(ROOT, 'dist/server.mjs');
let db: TestDatabase | undefined;
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop('SIGKILL');
  await db?.drop();
});

describe('npm start: the bundled server', () => {
  it('builds dist/server.mjs, serves the API from it, and exits 0 on SIGTERM', async () => {
    db = await createTestDatabase();
    server = await startServerProcess({ ...db.env, SECRET_KEY: TEST_SECRET }, 90_000, [
      path.join(ROOT, 'bin/serve.mjs'),
    ]);
    // Written (or found identical) by this start: one module holding the sources.
    expect(readFileSync(BUNDLE, 'utf8')).toContain('// src/main.ts');

    expect(await http(server.url, 'GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    // A key from registration (the store the migrations built), then the reference data
    // (reference/ at the package root): the municipality list answers.
    const reg = await http(server.url, 'POST', '/api/keys/register', {
      body: { projectName: 'bundle-check', email: 'ops@example.com' },
    });
    expect(reg.status).toBe(201);
    const key = (reg.body as { raw: string }).raw;
    const municipalities = await http(server.url, 'GET', '/api/municipalities', { key });
    expect(municipalities.status).toBe(200);
    expect(JSON.stringify(municipalities.body)).toContain('"0301"');
    const search = await http(server.url, 'GET', '/api/companies?q=fjord&limit=5', { key });
    expect(search).toMatchObject({ status: 200, body: { data: [], nextCursor: null, hasMore: false } });
    const bad = await http(server.url, 'GET', '/api/companies/12', { key });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'validation_failed',
      details: [{ path: expect.stringContaining('orgNumber') }],
    });

    expect(await server.stop('SIGTERM')).toBe(0);
  }, 120_000);

  it('refuses a NODE_HEAP it does not know, naming the variable', async () => {
    const proc = spawn(process.execPath, [path.join(ROOT, 'bin/serve.mjs')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_HEAP: 'fast' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const r = await collectOutput(proc, 30_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('NODE_HEAP must be bounded, size or throughput, not "fast"');
  });
});
