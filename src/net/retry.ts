// One retry loop for calls to upstreams we pace ourselves against (PRH's /companies today). The
// caller decides per failure whether to wait and how long (`delayFor`), typically from the
// upstream's Retry-After; everything else is rethrown at once. Waiting goes through an injected
// `sleep`, so tests never wait. The JS client (clients/js) keeps its own copy of this policy on
// purpose: it ships as a dependency-free package and cannot import the server's code.
import { setTimeout as sleepFor } from 'node:timers/promises';
import { currentSyncMeter } from './sync-meter.ts';

interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  /** Milliseconds to wait before retrying after `error`, or undefined to rethrow it. */
  delayFor(error: unknown, attempt: number): number | undefined;
  /** Called before each wait, e.g. to tell an operator why a run pauses. */
  onRetry?(info: { attempt: number; delayMs: number; error: unknown }): void;
  sleep?(ms: number): Promise<unknown>;
}

/** Runs `fn` until it succeeds, `delayFor` declines, or the retries are spent. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const sleep = opts.sleep ?? ((ms: number) => sleepFor(ms));
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      const delayMs = attempt < opts.retries ? opts.delayFor(err, attempt) : undefined;
      if (delayMs === undefined) throw err;
      opts.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
      // A sync's progress display counts the wait into its ETA.
      currentSyncMeter()?.waiting(delayMs);
      await sleep(delayMs);
    }
  }
}

/** Retry-After (RFC 9110: delay-seconds or an HTTP date) in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const t = header.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
