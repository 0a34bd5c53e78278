// Staying under each bureau's documented request rate (upstream/statistics-tables.md §1.4):
// SSB 30 queries a minute per IP, SCB 10 calls per 10 s, Statistics Finland 30 per 10 s. Every
// table of a bureau is fetched in one run, so the calls are counted in a sliding window and a
// call that would exceed it waits until the oldest leaves the window. A 429 answer is retried
// after its Retry-After (capped), a few times; then the table fails with that reason.
import type { StatCountry } from './tables.ts';

export interface RateLimit {
  calls: number;
  windowMs: number;
}

/** Documented limits; Statistics Denmark documents none, so it gets StatFin's. */
export const RATE_LIMITS: Record<StatCountry, RateLimit> = {
  NO: { calls: 30, windowMs: 60_000 },
  SE: { calls: 10, windowMs: 10_000 },
  FI: { calls: 30, windowMs: 10_000 },
  DK: { calls: 30, windowMs: 10_000 },
};

/** Cells per extract: SSB 800 000, SCB 100 000 (it answers 403 above); the others as SCB. */
export const CELL_LIMITS: Record<StatCountry, number> = { NO: 800_000, SE: 100_000, FI: 100_000, DK: 100_000 };

/** How often a 429 is retried, and the longest Retry-After honoured (a longer one fails the table). */
export const MAX_429_RETRIES = 3;
export const MAX_RETRY_AFTER_MS = 60_000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A sliding-window pacer: `take()` resolves when one more call fits the window. */
export function createPacer(limit: RateLimit, now: () => number = Date.now, sleep = wait) {
  const calls: number[] = [];
  return {
    async take(): Promise<void> {
      for (;;) {
        const t = now();
        while (calls.length && calls[0] <= t - limit.windowMs) calls.shift();
        if (calls.length < limit.calls) {
          calls.push(t);
          return;
        }
        await sleep(calls[0] + limit.windowMs - t);
      }
    },
  };
}

export type Pacer = ReturnType<typeof createPacer>;

/** Retry-After in milliseconds: seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number = Date.now()): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === '') return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export { wait };
