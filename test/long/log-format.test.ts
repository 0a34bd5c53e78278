// Log format: JSON for collectors (the default when stdout is not a terminal), readable lines
// with LOG_FORMAT=pretty (and on a terminal); either way the shutdown says it completed.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN } from '../helpers/process.ts';
import { ROOT } from '../helpers/env.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

/** Starts the server, waits for its start-up banner, stops it with SIGTERM; returns its whole stdout. */
function runAndStop(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      HOST: '127.0.0.1',
      SYNC_SCHEDULE: 'off',
      DEMO_DATA: 'off',
      ...db.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stopped = false;
  proc.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    // The banner is printed last; the signal handlers were installed before the server listened.
    if (!stopped && /you@example\.com/.test(out)) {
      stopped = true;
      proc.kill('SIGTERM');
    }
  });
  proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const timer = setTimeout(() => proc.kill('SIGKILL'), 150_000);
  return new Promise((resolve) =>
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }),
  );
}

describe('log format', () => {
  it('writes JSON lines when stdout is not a terminal, and logs that shutdown completed', async () => {
    const { code, out } = await runAndStop({});
    expect(code).toBe(0);
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.msg === 'listening')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ msg: 'shutdown complete', signal: 'SIGTERM' });
  }, 200_000);

  it('writes readable lines with LOG_FORMAT=pretty', async () => {
    const { code, out } = await runAndStop({ LOG_FORMAT: 'pretty' });
    expect(code).toBe(0);
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(\d+\): listening/m);
    expect(out).toMatch(/INFO \(\d+\): shutdown complete/);
    expect(out.split('\n').filter((l) => l.startsWith('{"level"'))).toEqual([]);
  }, 200_000);
});
