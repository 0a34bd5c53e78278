// One page ahead for clients that walk a list with cursors (the change feed). While a client
// reads and parses a page, the next one is read for it, so the database statement and the
// page's assembly overlap the client's own work instead of following it. A page read ahead is
// handed over once, and only within the staleness bound of the record cache (a page read at
// most MAX_STALENESS_MS ago, as a lookup may be); a write through this process drops them all.
import { MAX_STALENESS_MS } from './record-cache.ts';

export interface ReadAheadDeps {
  /** Pages held at once (one per client walking the list); the oldest goes first. */
  maxEntries: number;
  /** How old (from the start of its read) a page may be when handed over. */
  maxAgeMs?: number;
  /** Monotonic milliseconds (tests pass their own). */
  now?: () => number;
}

interface Entry<T> {
  startedAt: number;
  /** Settles to undefined when the read failed: the request then reads the page itself. */
  value: Promise<T | undefined>;
}

export function createReadAhead<T>(deps: ReadAheadDeps) {
  const now = deps.now ?? (() => performance.now());
  const maxAgeMs = deps.maxAgeMs ?? MAX_STALENESS_MS;
  const entries = new Map<string, Entry<T>>();
  const stats = { started: 0, handedOver: 0, expired: 0, dropped: 0 };

  const tooOld = (entry: Entry<T>) => now() - entry.startedAt > maxAgeMs;

  /** Drops the pages too old to hand over (the oldest come first: a Map keeps insertion order). */
  function prune() {
    for (const [key, entry] of entries) {
      if (!tooOld(entry)) return;
      entries.delete(key);
      stats.expired++;
    }
  }

  return {
    /** The page read ahead under `key`, taken out; undefined when there is none or it is too old. */
    take(key: string): Promise<T | undefined> | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (tooOld(entry)) {
        stats.expired++;
        return undefined;
      }
      stats.handedOver++;
      return entry.value;
    },

    /** Starts reading `key` ahead, unless it already is being read. */
    start(key: string, read: () => Promise<T>): void {
      prune();
      if (entries.has(key)) return;
      if (entries.size >= deps.maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
        stats.dropped++;
      }
      stats.started++;
      entries.set(key, {
        startedAt: now(),
        value: read().catch(() => undefined),
      });
    },

    /** Drops every page read ahead (the store changed under them). */
    clear(): void {
      stats.dropped += entries.size;
      entries.clear();
    },

    stats() {
      prune();
      return { ...stats, held: entries.size };
    },
  };
}
