// Per-process LRU cache of serialised company records (the lookup's response bodies), bounded by
// entries and bytes. It serves only while it is known to be fresh: every process follows the
// shared store's changes (`CompanyChangeFollower`, polled every `pollMs`) and evicts what
// changed; if the last successful poll began more than MAX_STALENESS_MS ago (database slow or
// down, event loop stalled) nothing is served from it. So a change committed by any process is
// served within MAX_STALENESS_MS by every process, and at once by the process that wrote it
// (its writes announce the companies they changed after commit).
import type { Logger } from 'pino';
import type { CompanyChangeFollower, CompanyChanges, CompanyChangeSignal } from '../../store/company-changes.ts';

export const MAX_STALENESS_MS = 1000;
/** Map entry, key and list bookkeeping beside the body, per entry (an estimate). */
const ENTRY_OVERHEAD_BYTES = 160;

export interface RecordCacheDeps {
  maxEntries: number;
  maxBytes: number;
  pollMs: number;
  follower: CompanyChangeFollower;
  signal: Pick<CompanyChangeSignal, 'subscribe'>;
  log: Pick<Logger, 'warn'>;
  /** Monotonic milliseconds (tests pass their own). */
  now?: () => number;
}

/**
 * A body as the cache keeps it: a buffer of its own, exactly its size. Buffer.from(text) takes a
 * body under 4 kB (most records) from Node's shared 8 kB pool, and a cached slice keeps its whole
 * slab alive: the cache then held ~8 kB per entry, over twice what it counted (148 MB of buffers
 * for 64 MB of bodies, measured).
 */
export function cacheBody(text: string): Buffer {
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  body.write(text);
  return body;
}

export function createRecordCache(deps: RecordCacheDeps) {
  const now = deps.now ?? (() => performance.now());
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recent first.
  const entries = new Map<string, Buffer>();
  let bytes = 0;
  let epoch = 0;
  let lastPollStart = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let stopped = true;
  let pollFailures = 0;
  const stats = { hits: 0, misses: 0, capacityEvictions: 0, invalidations: 0, bypassed: 0 };

  const sizeOf = (key: string, body: Buffer) => body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES;

  function remove(key: string) {
    const body = entries.get(key);
    if (!body) return false;
    entries.delete(key);
    bytes -= sizeOf(key, body);
    return true;
  }

  function invalidate(changes: CompanyChanges) {
    if ('keys' in changes && !changes.keys.length) return;
    epoch++;
    if ('all' in changes) {
      stats.invalidations += entries.size;
      entries.clear();
      bytes = 0;
      return;
    }
    for (const key of changes.keys) if (remove(key)) stats.invalidations++;
  }

  const fresh = () => deps.maxEntries > 0 && now() - lastPollStart <= MAX_STALENESS_MS;

  async function pollOnce() {
    const started = now();
    try {
      invalidate(await deps.follower.poll());
      lastPollStart = started;
      pollFailures = 0;
    } catch (err) {
      // A poll in flight when the cache stops fails on the closed store at shutdown: not a problem.
      if (stopped) return;
      // Not fresh any more after MAX_STALENESS_MS: lookups go to the store until a poll succeeds.
      if (pollFailures++ === 0) deps.log.warn({ err: (err as Error).message }, 'record cache: change poll failed');
    }
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      void pollOnce().finally(schedule);
    }, deps.pollMs);
    timer.unref();
  }

  return {
    /** Starts following the store; the cache serves after the first successful poll. */
    async start() {
      if (!stopped || deps.maxEntries === 0) return;
      stopped = false;
      unsubscribe = deps.signal.subscribe(invalidate);
      await pollOnce();
      schedule();
    },

    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      unsubscribe?.();
      entries.clear();
      bytes = 0;
      lastPollStart = Number.NEGATIVE_INFINITY;
    },

    get(key: string): Buffer | undefined {
      if (!fresh()) {
        stats.bypassed++;
        return undefined;
      }
      const body = entries.get(key);
      if (!body) {
        stats.misses++;
        return undefined;
      }
      entries.delete(key);
      entries.set(key, body);
      stats.hits++;
      return body;
    },

    /** Taken before reading the store; `set` drops a body read before a later invalidation. */
    ticket: () => epoch,

    set(key: string, body: Buffer, ticket: number) {
      if (ticket !== epoch || !fresh()) return;
      const size = sizeOf(key, body);
      if (size > deps.maxBytes) return;
      remove(key);
      entries.set(key, body);
      bytes += size;
      for (const oldest of entries.keys()) {
        if (entries.size <= deps.maxEntries && bytes <= deps.maxBytes) break;
        remove(oldest);
        stats.capacityEvictions++;
      }
    },

    /** For the health diagnostics. */
    diagnostics() {
      const lookups = stats.hits + stats.misses;
      return {
        entries: entries.size,
        bytes,
        maxEntries: deps.maxEntries,
        maxBytes: deps.maxBytes,
        ...stats,
        hitRate: lookups ? Math.round((stats.hits / lookups) * 10000) / 10000 : 0,
        following: fresh(),
      };
    },
  };
}

export type RecordCache = ReturnType<typeof createRecordCache>;
