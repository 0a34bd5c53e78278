// Counting windows for per-minute rate limits, registration limits and the cursor-depth guard.
// Redis when REDIS_URL is set; PostgreSQL in server mode without Redis; process memory in
// embedded mode (one process owns the data directory anyway). All three count exactly.
import { Redis } from 'ioredis';
import type pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface WindowResult {
  allowed: boolean;
  /** Points left in the window after this one. */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  /** Points counted in the window, this call's included (may exceed the limit). */
  used?: number;
}

export interface RateWindows {
  backend: 'redis' | 'postgres' | 'memory';
  /** Takes `cost` points (default 1) from `key` in a window of `points` per `durationSec`. */
  consume(name: string, key: string, points: number, durationSec: number, cost?: number): Promise<WindowResult>;
  /** Gives back `cost` points taken earlier in the window (a reservation that was not all used). */
  release(name: string, key: string, durationSec: number, cost: number): Promise<void>;
  /** Reads a window without taking a point. */
  peek(name: string, key: string, points: number, durationSec: number): Promise<WindowResult>;
  /** Resolves once the backend can count (Redis connected), or after `timeoutMs` regardless. */
  ready(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

interface RateWindowOptions {
  redisUrl?: string;
  pgPool?: pg.Pool;
  namespace: string;
}

const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 1000;
const REDIS_MAX_RECONNECT_DELAY_MS = 500;

export function createRateWindows(opts: RateWindowOptions): RateWindows {
  // Fail fast while Redis is away: no offline queue (a command with no connection fails at once
  // instead of waiting for a reconnect), a deadline on every command (a network that drops
  // packets), and reconnect attempts at most 500 ms apart, so keyed requests answer 503 within
  // a second during an outage and counting resumes within about a second of Redis returning.
  const redis = opts.redisUrl
    ? new Redis(opts.redisUrl, {
        enableOfflineQueue: false,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
        maxRetriesPerRequest: 0,
        retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_MAX_RECONNECT_DELAY_MS),
        lazyConnect: false,
      })
    : undefined;
  redis?.on('error', () => undefined); // reported through failed consume() calls
  const backend = redis ? 'redis' : opts.pgPool ? 'postgres' : 'memory';
  const limiters = new Map<string, RateLimiterAbstract>();
  // One counter per (name, key, window length) whatever the limit: the limit is applied here,
  // so a limit changed mid-window keeps the calls already counted, the same on every backend.
  const points = 2 ** 31 - 1;

  function limiter(name: string, durationSec: number): RateLimiterAbstract {
    const id = `${name}:${durationSec}`;
    let l = limiters.get(id);
    if (!l) {
      const keyPrefix = `${opts.namespace}:${name}`;
      if (redis)
        l = new RateLimiterRedis({
          storeClient: redis,
          keyPrefix,
          points,
          duration: durationSec,
          rejectIfRedisNotReady: true,
        });
      else if (opts.pgPool)
        l = new RateLimiterPostgres({
          storeClient: opts.pgPool,
          storeType: 'pool',
          tableName: 'rate_windows',
          tableCreated: true,
          clearExpiredByTimeout: false,
          keyPrefix,
          points,
          duration: durationSec,
        });
      else l = new RateLimiterMemory({ keyPrefix, points, duration: durationSec });
      limiters.set(id, l);
    }
    return l;
  }

  const fromRes = (res: RateLimiterRes, limit: number, consumedNow: boolean): WindowResult => ({
    allowed: consumedNow ? res.consumedPoints <= limit : res.consumedPoints < limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    resetMs: Math.max(0, res.msBeforeNext),
    used: res.consumedPoints,
  });

  return {
    backend,
    async consume(name, key, limit, durationSec, cost = 1) {
      try {
        return fromRes(await limiter(name, durationSec).consume(key, cost), limit, true);
      } catch (err) {
        if (err instanceof RateLimiterRes) return fromRes(err, limit, true);
        throw err;
      }
    },
    async release(name, key, durationSec, cost) {
      if (cost > 0) await limiter(name, durationSec).reward(key, cost);
    },
    async peek(name, key, limit, durationSec) {
      const res = await limiter(name, durationSec).get(key);
      if (!res) return { allowed: true, remaining: limit, resetMs: durationSec * 1000 };
      return fromRes(res, limit, false);
    },
    async ready(timeoutMs) {
      if (!redis || redis.status === 'ready') return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        redis.once('ready', done);
        function done() {
          clearTimeout(timer);
          redis!.off('ready', done);
          resolve();
        }
      });
    },
    async close() {
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}
