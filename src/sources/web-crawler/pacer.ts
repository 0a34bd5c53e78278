// Polite per-host pacing: requests to one host start at least `delayMs` apart (or the host's
// robots.txt Crawl-delay, when larger), whatever the overall concurrency. Each caller reserves
// the next free slot before sleeping, so concurrent callers for one host queue up in order.
import { setTimeout as sleepFor } from 'node:timers/promises';

export interface HostPacer {
  /** Resolves when a request to `host` may start; reserves that slot. */
  wait(host: string): Promise<void>;
  /** A larger gap for one host (robots.txt Crawl-delay), capped by the caller. */
  setDelay(host: string, delayMs: number): void;
}

interface PacerOptions {
  delayMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/** Hosts remembered before idle ones are dropped (a slot in the past constrains nothing). */
const PRUNE_AT = 10_000;

export function createHostPacer(opts: PacerOptions): HostPacer {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => sleepFor(ms));
  const nextFree = new Map<string, number>();
  const delays = new Map<string, number>();
  return {
    async wait(host) {
      const t = now();
      if (nextFree.size >= PRUNE_AT) {
        for (const [h, at] of nextFree) if (at <= t) nextFree.delete(h);
      }
      const at = Math.max(t, nextFree.get(host) ?? t);
      nextFree.set(host, at + Math.max(opts.delayMs, delays.get(host) ?? 0));
      if (at > t) await sleep(at - t);
    },
    setDelay(host, delayMs) {
      if (delays.size >= PRUNE_AT) delays.clear();
      delays.set(host, delayMs);
    },
  };
}
