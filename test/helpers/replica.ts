// A real PostgreSQL streaming replica of the test server (DATABASE_URL), on another loopback
// port, for the read-replica tests. The primary must accept replication connections from
// 127.0.0.1 (`host replication all 127.0.0.1/32 trust` in its pg_hba.conf; .ci/run adds it).
// - pg_basebackup -R copies the primary's data directory and writes standby.signal and
//   primary_conninfo; `-c fast` asks for an immediate checkpoint (the default waits for the next
//   scheduled one, minutes on an idle server); `-X stream` brings the WAL written meanwhile.
// - Debian keeps postgresql.conf and pg_hba.conf in /etc, not in the data directory: the copy
//   gets its own, with limits at least the primary's (a hot standby refuses lower ones).
// - PostgreSQL refuses to run as root: as root, the commands run as the `postgres` user.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
/** Settings a hot standby must hold at least at the primary's values. */
const AT_LEAST_PRIMARY = [
  'max_connections',
  'max_worker_processes',
  'max_wal_senders',
  'max_prepared_transactions',
  'max_locks_per_transaction',
];

export interface Replica {
  /** host:port, as health reports it. */
  host: string;
  /** A connection string for `database` on the replica. */
  urlFor(database: string): string;
  /** Stops replaying WAL (`pg_wal_replay_pause()`): the replica falls behind. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops the server at once, as a crash would (`pg_ctl stop -m immediate`). */
  kill(): Promise<void>;
  /** Starts it again (after kill); it catches up from the primary. */
  start(): Promise<void>;
  /** The replica's replayed LSN has reached the primary's current one. */
  caughtUp(): Promise<void>;
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function binDir(primary: pg.Client): Promise<string> {
  const v = (await primary.query<{ server_version_num: string }>('SHOW server_version_num')).rows[0].server_version_num;
  return `/usr/lib/postgresql/${Math.floor(Number(v) / 10000)}/bin`;
}

async function asPostgres(command: string, args: string[]) {
  const isRoot = process.getuid?.() === 0;
  return isRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  // A server stopped while this client is open must fail the query, not the process.
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`replica: timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startReplica(primaryUrl = process.env.DATABASE_URL!): Promise<Replica> {
  const primary = new pg.Client({ connectionString: primaryUrl });
  await primary.connect();
  let bin: string;
  const limits: string[] = [];
  try {
    bin = await binDir(primary);
    for (const name of AT_LEAST_PRIMARY) {
      limits.push(`${name} = ${(await primary.query(`SHOW ${name}`)).rows[0][name]}`);
    }
  } finally {
    await primary.end();
  }
  const p = new URL(primaryUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ncd-replica-'));
  const data = path.join(dir, 'data');
  // As root, the copy and the files written into it belong to postgres, who runs the server.
  const owner = process.getuid?.() === 0 ? await postgresIds() : undefined;
  if (owner) chownSync(dir, ...owner);
  const port = await freePort();
  try {
    await asPostgres(path.join(bin, 'pg_basebackup'), [
      ...['-h', p.hostname, '-p', p.port || '5432', '-U', decodeURIComponent(p.username || 'postgres')],
      ...['-D', data, '-R', '-c', 'fast', '-X', 'stream'],
    ]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const text = String((err as { stderr?: string }).stderr ?? err);
    throw new Error(
      /pg_hba|replication connection/.test(text)
        ? `the primary refuses replication connections: add "host replication all 127.0.0.1/32 trust" to its pg_hba.conf and reload (${text.trim()})`
        : `pg_basebackup failed: ${text.trim()}`,
      { cause: err },
    );
  }
  const conf = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    `hba_file = '${path.join(dir, 'pg_hba.conf')}'`,
    `ident_file = '${path.join(dir, 'pg_ident.conf')}'`,
    'hot_standby = on',
    // A test replica: small, and nothing worth an fsync.
    'shared_buffers = 32MB',
    'fsync = off',
    'wal_receiver_status_interval = 1s',
    'hot_standby_feedback = on',
    ...limits,
  ];
  const write = (file: string, text: string) => {
    writeFileSync(file, text);
    if (owner) chownSync(file, ...owner);
  };
  write(path.join(data, 'postgresql.conf'), conf.join('\n') + '\n');
  write(path.join(dir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
  write(path.join(dir, 'pg_ident.conf'), '');
  const urlFor = (database: string) => {
    const u = new URL(primaryUrl);
    u.port = String(port);
    u.pathname = `/${database}`;
    return u.toString();
  };
  const admin = urlFor('postgres');
  const ctl = (...args: string[]) => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const start = async () => {
    await ctl('-l', path.join(dir, 'log'), '-w', '-t', '60', 'start');
    await until(
      async () => (await query<{ r: boolean }>(admin, 'SELECT pg_is_in_recovery() AS r'))[0].r,
      'it accepts reads in recovery',
    );
  };
  await start();
  const replica: Replica = {
    host: `127.0.0.1:${port}`,
    urlFor,
    async pause() {
      await query(admin, 'SELECT pg_wal_replay_pause()');
    },
    async resume() {
      await query(admin, 'SELECT pg_wal_replay_resume()');
    },
    async kill() {
      await ctl('-m', 'immediate', 'stop');
    },
    start,
    async caughtUp() {
      const [{ l }] = await query<{ l: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS l');
      await until(
        async () =>
          (await query<{ ok: boolean }>(admin, `SELECT pg_last_wal_replay_lsn() >= '${l}'::pg_lsn AS ok`))[0].ok,
        `it replayed ${l}`,
        100_000,
      );
    },
    async destroy() {
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return replica;
}

async function postgresIds(): Promise<[number, number]> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return [Number(uid.stdout.trim()), Number(gid.stdout.trim())];
}
