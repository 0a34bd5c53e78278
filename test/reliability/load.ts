// Bounded load loops for the fault scenarios: `workers` concurrent loops issue requests until
// told to stop (or a hard cap), each result timed and kept.
import { send } from './wire.ts';

export interface Sample {
  startedAt: number;
  ms: number;
  status?: number;
  error?: string;
  code?: string;
  path: string;
}

export function startLoad(opts: {
  base: string;
  paths: string[];
  headers?: Record<string, string>;
  workers: number;
  maxRequests: number;
  timeoutMs?: number;
}) {
  const samples: Sample[] = [];
  let stopped = false;
  let issued = 0;
  const loops = Array.from({ length: opts.workers }, async (_, w) => {
    for (let i = 0; !stopped && issued < opts.maxRequests; i++) {
      issued++;
      const path = opts.paths[(i + w) % opts.paths.length];
      const startedAt = Date.now();
      try {
        const r = await send(opts.base + path, { headers: opts.headers, timeoutMs: opts.timeoutMs ?? 30_000 });
        samples.push({ startedAt, ms: Date.now() - startedAt, status: r.status, code: r.json?.code, path });
      } catch (err) {
        samples.push({
          startedAt,
          ms: Date.now() - startedAt,
          error: (err as { code?: string }).code ?? (err as Error).message,
          path,
        });
      }
    }
  });
  return {
    samples,
    /** Samples started at or after `t`. */
    since: (t: number) => samples.filter((s) => s.startedAt >= t),
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return samples;
    },
  };
}

/** Polls `probe` every `everyMs` until it returns true or `withinMs` passes; the time it took, or undefined. */
export async function until(
  probe: () => Promise<boolean>,
  withinMs: number,
  everyMs = 200,
): Promise<number | undefined> {
  const t0 = Date.now();
  while (Date.now() - t0 < withinMs) {
    if (await probe().catch(() => false)) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return undefined;
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
