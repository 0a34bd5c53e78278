// A test-owned PostgreSQL (initdb into a temporary directory, its own port) stopped mid-load with
// `pg_ctl stop -m immediate` — the server is gone, not a cut connection — and started again.
// Rules: during the outage requests answer 503 with Retry-After within the pool's connect
// deadline; nothing is half-written (every project has its usage row and exactly one active key,
// every registration answered 201 has a working key); service resumes by itself after the return.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../helpers/env.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { pause, until } from './load.ts';
import { Scenario } from './record.ts';
import { send, type WireResponse } from './wire.ts';

const BIN = '/usr/lib/postgresql/15/bin';
const DB_DEADLINE_MS = 5000 + 1500;
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
});

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** PostgreSQL refuses to run as root: its binaries run as the postgres user when we are root. */
const asPostgres = (cmd: string, args: string[]) =>
  process.getuid?.() === 0
    ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
    : execFileSync(cmd, args, { stdio: 'pipe' });

describe('a test-owned PostgreSQL stopped mid-load', () => {
  it('answers 503 fast, writes nothing by halves, and serves again once PostgreSQL is back', async () => {
    const s = new Scenario('faults: private PostgreSQL stopped (pg_ctl immediate) mid-load', 2);
    const dir = mkdtempSync(path.join(tmpdir(), 'ncd-pg-'));
    execFileSync('chmod', ['777', dir]);
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const data = path.join(dir, 'data');
    asPostgres(`${BIN}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '-N']);
    const port = await freePort();
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    const pgCtl = (...args: string[]) =>
      asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-l', path.join(dir, 'log'), ...args]);
    pgCtl('-o', opts, '-w', 'start');
    cleanups.push(() => pgCtl('-m', 'immediate', 'stop'));
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE ncd');
    await admin.end();
    const url = `postgres://postgres@127.0.0.1:${port}/ncd`;
    const server: TestServer = await startServer({
      database: { env: { DATABASE_URL: url, DATA_DIR: path.join(dir, 'app') }, drop: async () => undefined },
      env: { TRUST_PROXY: 'true', SECRET_KEY: TEST_SECRET },
    });
    cleanups.push(() => server.close());

    let seq = 0;
    const answered: { status: number; raw?: string; ms: number; phase: string }[] = [];
    let phase = 'before';
    const register = async () => {
      const i = ++seq;
      const started = Date.now();
      // The phase the request started in: one in flight at the stop may still commit.
      const startedIn = phase;
      const r: WireResponse = await send(`${server.url}/api/keys/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${(i >> 8) & 255}.${i & 255}` },
        body: JSON.stringify({ projectName: `pg-outage-${i}`, email: `o${i}@example.com` }),
        timeoutMs: 20_000,
      }).catch(() => ({ status: 0, headers: {}, text: '', json: undefined }));
      s.count(r.status || undefined);
      answered.push({ status: r.status, raw: r.json?.raw, ms: Date.now() - started, phase: startedIn });
      if (startedIn === 'down' && phase === 'down' && r.status !== 0) {
        s.check(r.status === 503, `during the outage: ${r.status} ${r.json?.code ?? ''}`);
        if (r.status === 503) s.check(Number(r.headers['retry-after']) > 0, 'a 503 without Retry-After');
      }
    };
    let running = true;
    const workers = Array.from({ length: 4 }, async () => {
      while (running) await register();
    });
    await until(async () => answered.filter((a) => a.status === 201).length >= 10, 60_000, 100);
    pgCtl('-m', 'immediate', 'stop');
    phase = 'down';
    const downAt = Date.now();
    await pause(8000);
    pgCtl('-o', opts, '-w', 'start');
    phase = 'back';
    const backAt = Date.now();
    const recovered = await until(
      async () => answered.some((a) => a.phase === 'back' && a.status === 201),
      30_000,
      100,
    );
    running = false;
    await Promise.all(workers);
    s.check(recovered !== undefined, 'no registration succeeded within 30 s of PostgreSQL returning');
    s.figure('recovered after', recovered === undefined ? 'never' : `${Math.round((Date.now() - backAt) / 1000)} s`);
    const down = answered.filter((a) => a.phase === 'down');
    s.check(down.length > 0, 'nothing was asked during the outage');
    const slow = down.filter((a) => a.ms > DB_DEADLINE_MS);
    s.check(slow.length === 0, `${slow.length} answers during the outage took over ${DB_DEADLINE_MS} ms`);
    s.figure('answers during the outage', `${down.length} (${Math.round((backAt - downAt) / 1000)} s)`);

    // Nothing by halves: each project whole, each answered key working.
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const broken = await c.query(`SELECT p.name FROM projects p
      WHERE NOT EXISTS (SELECT 1 FROM project_usage u WHERE u.project_id = p.id)
         OR (SELECT count(*) FROM api_keys k WHERE k.project_id = p.id AND k.active) <> 1`);
    await c.end();
    s.check(broken.rows.length === 0, `half-written projects: ${broken.rows.map((r) => r.name).join(', ')}`);
    for (const a of answered.filter((x) => x.status === 201)) {
      const usage = await send(`${server.url}/api/keys/usage`, { headers: { authorization: `Bearer ${a.raw}` } });
      s.count(usage.status);
      s.check(usage.status === 200, `a key answered with 201 does not work after recovery: ${usage.status}`);
    }
    s.save();
    expect(s.violations.slice(0, 10)).toEqual([]);
  });
});
