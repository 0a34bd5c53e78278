// Reads on PostgreSQL streaming replicas (DATABASE_READ_URL). The read repositories' Kysely runs
// on `ReadRouter.pool`, which hands out a connection to a replica in rotation, round robin, or to
// the primary when none qualifies. Writes never come here: their repositories use the primary.
//
// - Lag: every POLL_MS the primary's `pg_current_wal_lsn()` is sampled, then each replica's
//   `pg_last_wal_replay_lsn()`. A replica that has replayed the primary's latest LSN has no lag;
//   otherwise its lag is the age of the newest primary sample its replay has passed. The replay
//   timestamp alone would be wrong both ways: it stops moving on an idle primary (a caught-up
//   replica would look ever later) and says nothing of WAL not yet received.
// - Rotation: a replica in recovery with lag ≤ maxLagMs. One that fails to connect, or whose
//   connection breaks mid-query, leaves at once; the query is retried on the primary, so the
//   request that met it does not fail. It returns after a poll finds it caught up.
// - Read-your-writes: `noteWrite()` (called when this process committed a company write) takes
//   the primary's LSN after the commit; until a replica has replayed past it, reads go to a
//   replica only after it confirms on its own connection, else to the primary.
import pg from 'pg';

/** How often lag is measured. */
export const POLL_MS = 500;
/** A replica that does not accept a connection in this time counts as down. */
const REPLICA_CONNECT_TIMEOUT_MS = 2000;
/** Primary LSN samples kept for the lag estimate: lag beyond this window is "at least the window". */
const SAMPLE_WINDOW_MS = 120_000;

export interface ReplicaStatus {
  /** host:port only: never the user or password of the connection string. */
  host: string;
  /** Replay lag in ms; null while the replica cannot be reached. */
  lagMs: number | null;
  inRotation: boolean;
  /** `pg_is_in_recovery()` as the replica last answered it; null while unreachable. */
  inRecovery: boolean | null;
  /** Read connections this process has handed out to it. */
  reads: number;
}

export interface ReadRouter {
  /** A pg-Pool-shaped object for Kysely's PostgresDialect. */
  pool: { connect(): Promise<pg.PoolClient>; end(): Promise<void> };
  status(): ReplicaStatus[];
  /** This process committed a write: later reads must see it. */
  noteWrite(): void;
  /** One measurement of every replica now (also run every POLL_MS). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

interface Replica {
  host: string;
  pool: pg.Pool;
  replayLsn: bigint | null;
  lagMs: number | null;
  inRecovery: boolean | null;
  /** Set by a failed connect or a broken connection; cleared by the next successful poll. */
  down: boolean;
  inRotation: boolean;
  reads: number;
}

/** '16/B374D848' → a comparable number. */
export function parseLsn(text: string | null): bigint | null {
  if (!text) return null;
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** Errors that mean the connection or the server is gone (or a standby cancelled the read), not a bad query. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (typeof e?.code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(e.code)) return true;
    // 57P01-03: admin shutdown, crash shutdown, cannot connect now; 08xxx: connection exceptions;
    // 40001 on a standby: a recovery conflict cancelled the query.
    if (/^(57P0[1-3]|08...|40001)$/.test(e.code)) return true;
  }
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(e?.message ?? '');
}

export function hostOf(connectionString: string): string {
  const u = new URL(connectionString);
  return `${u.hostname}:${u.port || '5432'}`;
}

export interface ReadRouterOptions {
  primary: pg.Pool;
  urls: string[];
  maxLagMs: number;
  /** The pool options of the primary's (Client class, statement timeout, size). */
  poolConfig: pg.PoolConfig;
  pollMs?: number;
}

export function createReadRouter(opts: ReadRouterOptions): ReadRouter {
  const replicas: Replica[] = opts.urls.map((connectionString) => {
    const pool = new pg.Pool({
      ...opts.poolConfig,
      connectionString,
      connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
    });
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    return {
      host: hostOf(connectionString),
      pool,
      replayLsn: null,
      lagMs: null,
      inRecovery: null,
      down: false,
      inRotation: false,
      reads: 0,
    };
  });
  const samples: { lsn: bigint; at: number }[] = [];
  let next = 0;
  let requiredLsn = 0n;
  /** While the post-write LSN could not be read: the primary only. */
  let primaryOnly = false;
  let pendingLsn: Promise<void> = Promise.resolve();
  let lsnQueued = false;

  const primaryLsn = async () =>
    parseLsn((await opts.primary.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l')).rows[0].l)!;

  function leave(r: Replica) {
    r.down = true;
    r.inRotation = false;
    r.lagMs = null;
    r.inRecovery = null;
  }

  function lagOf(replay: bigint | null, now: number, replayAgeMs: number | null): number {
    const latest = samples[samples.length - 1];
    if (replay !== null && latest && replay >= latest.lsn) return 0;
    for (let i = samples.length - 1; i >= 0; i--) {
      if (replay !== null && samples[i].lsn <= replay) return now - samples[i].at;
    }
    // Behind every sample kept: at least as old as the oldest one.
    return Math.max(samples.length ? now - samples[0].at : 0, replayAgeMs ?? 0);
  }

  async function measure(r: Replica, now: number) {
    try {
      const row = (
        await r.pool.query<{ recovery: boolean; lsn: string | null; age: number | null }>(
          `SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS lsn,
             (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS age`,
        )
      ).rows[0];
      r.down = false;
      r.inRecovery = row.recovery;
      r.replayLsn = parseLsn(row.lsn);
      // A server not in recovery is not following the primary (promoted, or the wrong URL).
      r.lagMs = row.recovery ? Math.round(lagOf(r.replayLsn, now, row.age)) : null;
      r.inRotation = row.recovery && r.lagMs !== null && r.lagMs <= opts.maxLagMs;
    } catch {
      leave(r);
    }
  }

  async function poll() {
    const now = Date.now();
    try {
      const lsn = await primaryLsn();
      samples.push({ lsn, at: now });
      // A post-write LSN that could not be read is covered by this later one.
      if (primaryOnly) {
        if (lsn > requiredLsn) requiredLsn = lsn;
        primaryOnly = false;
      }
      while (samples.length > 1 && now - samples[0].at > SAMPLE_WINDOW_MS) samples.shift();
    } catch {
      // Primary unreachable: keep the last samples; lag is then measured against them.
    }
    await Promise.all(replicas.map((r) => measure(r, now)));
  }

  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    void poll().finally(() => (polling = false));
  }, opts.pollMs ?? POLL_MS);
  timer.unref();
  const first = poll();

  /** A replica connection whose broken queries are run again on the primary. */
  function guarded(client: pg.PoolClient, r: Replica): pg.PoolClient {
    let current = client;
    let onPrimary = false;
    let inTransaction = false;
    const wrapper = Object.create(client) as pg.PoolClient;
    wrapper.query = (async (text: unknown, values?: unknown) => {
      if (typeof text === 'string' && /^\s*BEGIN/i.test(text)) inTransaction = true;
      try {
        return await (current.query as (t: unknown, v?: unknown) => Promise<pg.QueryResult>)(text, values);
      } catch (err) {
        if (onPrimary || inTransaction || !isConnectionError(err)) throw err;
        leave(r);
        current.release(err as Error);
        current = await opts.primary.connect();
        onPrimary = true;
        return (current.query as (t: unknown, v?: unknown) => Promise<pg.QueryResult>)(text, values);
      }
    }) as never;
    wrapper.release = ((err?: Error | boolean) => current.release(err)) as never;
    return wrapper;
  }

  async function replicaConnection(): Promise<pg.PoolClient | undefined> {
    await first;
    await pendingLsn;
    if (primaryOnly) return undefined;
    for (let tried = 0; tried < replicas.length; tried++) {
      const r = replicas[next++ % replicas.length];
      if (!r.inRotation) continue;
      let client: pg.PoolClient;
      try {
        client = await r.pool.connect();
      } catch {
        leave(r);
        continue;
      }
      if (requiredLsn > 0n && (r.replayLsn === null || r.replayLsn < requiredLsn)) {
        // Behind this process's last write when last measured: ask the replica itself.
        try {
          const now = (await client.query<{ l: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS l')).rows[0]
            .l;
          r.replayLsn = parseLsn(now);
        } catch (err) {
          client.release(err as Error);
          leave(r);
          continue;
        }
        if (r.replayLsn === null || r.replayLsn < requiredLsn) {
          client.release();
          continue;
        }
      }
      r.reads++;
      return guarded(client, r);
    }
    return undefined;
  }

  return {
    pool: {
      async connect() {
        return (await replicaConnection()) ?? opts.primary.connect();
      },
      async end() {
        /* the router's close() ends the replica pools; the primary belongs to the store */
      },
    },
    status: () =>
      replicas.map((r) => ({
        host: r.host,
        lagMs: r.lagMs,
        inRotation: r.inRotation,
        inRecovery: r.inRecovery,
        reads: r.reads,
      })),
    noteWrite() {
      // Writes in a burst share one LSN read, taken after the last of them was noted.
      if (lsnQueued) return;
      lsnQueued = true;
      pendingLsn = pendingLsn.then(async () => {
        lsnQueued = false;
        try {
          const lsn = await primaryLsn();
          if (lsn > requiredLsn) requiredLsn = lsn;
          primaryOnly = false;
        } catch {
          primaryOnly = true;
        }
      });
    },
    poll,
    async close() {
      clearInterval(timer);
      await first.catch(() => undefined);
      await Promise.all(replicas.map((r) => r.pool.end().catch(() => undefined)));
    },
  };
}
