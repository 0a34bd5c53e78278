// Opens the store: embedded PostgreSQL (PGlite, file-backed under DATA_DIR) when DATABASE_URL
// is unset, else a pg Pool on a real server. Both are reached through the same pg Pool API and
// Kysely, so every query and row type is identical on the two engines.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { startPGliteThread, type PGliteMemory } from './pglite-thread.ts';
import { createReadRouter, type ReadRouter } from './read-replicas.ts';

// Row types must not depend on the engine: numbers for int8 and numeric, plain strings for
// dates (pg would otherwise turn a DATE into a local-midnight Date object).
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
pg.types.setTypeParser(1082, (v) => v);

type Engine = 'embedded' | 'server';

/**
 * SQL text that starts with this comment runs as a named (prepared) statement: parsed and
 * planned once per connection instead of on every call. For the hot reads (the lookup's one
 * statement plans in ~0.2 ms and executes in ~0.07 ms) and the per-batch statements of the bulk
 * writes (the company upsert with its core events is 19 kB of SQL: some 3 ms of planning a batch,
 * BENCHMARKS.md). The text must not vary with the values (arrays go in as one
 * `ANY($n)` parameter, a batch's rows through the COPY stage or one jsonb parameter), as every
 * distinct text is a statement kept by each connection.
 */
export const PREPARED = '/* prepared */';
const MAX_PREPARED_TEXTS = 200;

/** pg.Client that names the statements marked PREPARED after a hash of their text. */
function preparing(Base: typeof pg.Client): typeof pg.Client {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name && names.size < MAX_PREPARED_TEXTS) {
      name = `ncd_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
      names.set(text, name);
    }
    return name;
  };
  return class extends Base {
    // pg's overloads: (text, values?, callback?) or (config, ...). Only the text form is named.
    query(...args: unknown[]): never {
      const [text, values, callback] = args;
      const name =
        typeof text === 'string' && text.startsWith(PREPARED) && typeof values !== 'function'
          ? nameOf(text)
          : undefined;
      const call = super.query as (...a: unknown[]) => never;
      return name ? call.call(this, { name, text, values }, callback) : call.apply(this, args);
    }
  } as typeof pg.Client;
}

export interface Store {
  engine: Engine;
  pool: pg.Pool;
  db: Kysely<Database>;
  /**
   * Where the read repositories run: the replicas of DATABASE_READ_URL in rotation, else the
   * primary (`db` itself when no replica is configured).
   */
  readDb: Kysely<Database>;
  /** The replica router, when DATABASE_READ_URL names replicas. */
  replicas?: ReadRouter;
  /** The DATA_DIR lock held in embedded mode. */
  lock?: DataDirLock;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  /** Embedded engine only: its thread's WebAssembly and JavaScript heaps (memory diagnosis). */
  engineMemory?: () => Promise<PGliteMemory>;
  close(): Promise<void>;
}

interface OpenStoreOptions {
  databaseUrl?: string;
  dataDir: string;
  statementTimeoutMs: number;
  /** Max pool connections in server mode. */
  poolSize?: number;
  /** Replicas for the reads (server mode only). */
  readReplicas?: { urls: string[]; maxLagMs: number };
  /** Lock details written for the operator hand-off (embedded mode). */
  lockInfo?: Record<string, unknown>;
  /** Skip the DATA_DIR lock (only for a template copy that no other process can see). */
  noLock?: boolean;
}

function wrap(engine: Engine, pool: pg.Pool, closeEngine: () => Promise<void>, lock?: DataDirLock): Store {
  // A dropped server connection must not crash the process: the pool replaces it.
  pool.on('error', () => undefined);
  // The pool listens for errors only on idle clients: a connection dropped while checked out
  // between two statements (inside a transaction) emitted an unhandled 'error' and crashed the
  // process (found by the reliability suite's database cut). The failed query still rejects, and
  // the pool discards the dead client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    engine,
    pool,
    db,
    readDb: db,
    lock,
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await db.destroy().catch(() => undefined);
      await closeEngine();
    },
  };
}

async function openServer(opts: OpenStoreOptions): Promise<Store> {
  const poolConfig: pg.PoolConfig = {
    Client: preparing(pg.Client),
    max: opts.poolSize ?? 10,
    statement_timeout: opts.statementTimeoutMs,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
  };
  const pool = new pg.Pool({ ...poolConfig, connectionString: opts.databaseUrl });
  const urls = opts.readReplicas?.urls ?? [];
  const replicas = urls.length
    ? createReadRouter({ primary: pool, urls, maxLagMs: opts.readReplicas!.maxLagMs, poolConfig })
    : undefined;
  const store = wrap('server', pool, async () => {
    await replicas?.close();
    await pool.end().catch(() => undefined);
  });
  if (!replicas) return store;
  return {
    ...store,
    replicas,
    readDb: new Kysely<Database>({ dialect: new PostgresDialect({ pool: replicas.pool }) }),
  };
}

async function openEmbedded(opts: OpenStoreOptions): Promise<Store> {
  mkdirSync(opts.dataDir, { recursive: true });
  const lock: DataDirLock | undefined = opts.noLock ? undefined : acquireDataDirLock(opts.dataDir, opts.lockInfo ?? {});
  try {
    const { PglitePgConnection } = await import('@electric-sql/pglite/node-postgres');
    const lite = startPGliteThread(path.join(opts.dataDir, 'pglite'));
    try {
      await lite.waitReady;
      // PGlite has a single backend, so a session setting holds for every query it runs.
      await lite.exec(`SET statement_timeout = ${Math.trunc(opts.statementTimeoutMs)}`);
    } catch (err) {
      await lite.close();
      throw err;
    }
    // Each client gets its own connection object: pg-pool throws away a client whose query
    // failed, and a connection object once ended cannot serve a new client.
    class EmbeddedClient extends preparing(pg.Client) {
      constructor(config: pg.ClientConfig) {
        super({ ...config, connection: new PglitePgConnection({ pglite: lite as never }) } as pg.ClientConfig);
      }
    }
    const pool = new pg.Pool({
      Client: EmbeddedClient,
      max: 1,
      idleTimeoutMillis: 0,
      user: 'postgres',
      database: 'postgres',
      host: 'localhost',
    } as unknown as pg.PoolConfig);
    const store = wrap(
      'embedded',
      pool,
      async () => {
        await pool.end().catch(() => undefined);
        await lite.close().catch(() => undefined); // checkpoints, then closes
        lock?.release();
      },
      lock,
    );
    return { ...store, engineMemory: () => lite.memory() };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  return opts.databaseUrl ? openServer(opts) : openEmbedded(opts);
}
