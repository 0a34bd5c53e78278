// Counting windows in memory on a movable clock, with the real backends' rules: a window opens at
// its first point and lasts `durationSec`; points taken past the limit still count (as
// rate-limiter-flexible counts them); peek takes nothing.
import type { Clock } from '../../../src/domain/clock.ts';
import type { RateWindows, WindowResult } from '../../../src/store/access/rate-windows.ts';

interface Window {
  startMs: number;
  used: number;
}

export class FakeRateWindows implements RateWindows {
  readonly backend = 'memory' as const;
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  private current(name: string, key: string, durationSec: number): Window | undefined {
    const id = `${name}:${durationSec}:${key}`;
    const w = this.windows.get(id);
    if (w && this.clock.now().getTime() - w.startMs >= durationSec * 1000) this.windows.delete(id);
    return this.windows.get(id);
  }

  private result(w: Window, limit: number, durationSec: number, consumedNow: boolean): WindowResult {
    return {
      allowed: consumedNow ? w.used <= limit : w.used < limit,
      remaining: Math.max(0, limit - w.used),
      resetMs: Math.max(0, w.startMs + durationSec * 1000 - this.clock.now().getTime()),
      used: w.used,
    };
  }

  async consume(name: string, key: string, limit: number, durationSec: number, cost = 1): Promise<WindowResult> {
    let w = this.current(name, key, durationSec);
    if (!w) {
      w = { startMs: this.clock.now().getTime(), used: 0 };
      this.windows.set(`${name}:${durationSec}:${key}`, w);
    }
    w.used += cost;
    return this.result(w, limit, durationSec, true);
  }

  async release(name: string, key: string, durationSec: number, cost: number): Promise<void> {
    const w = this.current(name, key, durationSec);
    if (w) w.used = Math.max(0, w.used - cost);
  }

  async peek(name: string, key: string, limit: number, durationSec: number): Promise<WindowResult> {
    const w = this.current(name, key, durationSec);
    if (!w) return { allowed: true, remaining: limit, resetMs: durationSec * 1000 };
    return this.result(w, limit, durationSec, false);
  }

  /** Points counted in a window now (0 when none is open). */
  used(name: string, key: string, durationSec: number): number {
    return this.current(name, key, durationSec)?.used ?? 0;
  }

  async ready(): Promise<void> {}
  async close(): Promise<void> {}
}
