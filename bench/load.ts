// The load tool: autocannon (npm), driven in-process, with every response's latency kept so
// p50/p95/p99 are exact (autocannon's own summary has p97.5 but no p95).
import autocannon from 'autocannon';

export interface LoadResult {
  connections: number;
  durationS: number;
  requests: number;
  throughputRps: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  /** Stop after this many requests instead of after durationS. */
  amount?: number;
  headers?: Record<string, string>;
  /** Picks the path of each request. */
  nextPath: () => string;
}

export function summarize(ms: Float64Array | number[], n = ms.length) {
  const s = Float64Array.from(ms.slice(0, n)).sort();
  if (s.length === 0) return { p50: NaN, p95: NaN, p99: NaN, max: NaN, mean: NaN };
  const q = (p: number) => +s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2);
  let sum = 0;
  for (const x of s) sum += x;
  return {
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
    max: +s[s.length - 1].toFixed(2),
    mean: +(sum / s.length).toFixed(2),
  };
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  let lat = new Float64Array(1 << 16);
  let n = 0;
  // autocannon notices the end of a fixed-count run only at its next 1 s sample tick, so its
  // duration is the run's rounded up to a whole second (7 500 requests in 2.2 s reported as 3 s).
  // A count run's rate is taken from our own clock: the start to the last response.
  const started = performance.now();
  let lastResponse = started;
  const statusCounts: Record<string, number> = {};
  const instance = autocannon({
    url: o.url,
    connections: o.connections,
    ...(o.amount ? { amount: o.amount } : { duration: o.durationS }),
    headers: o.headers,
    timeout: 10,
    requests: [{ method: 'GET', setupRequest: (req: any) => ({ ...req, path: o.nextPath() }) }],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (n === lat.length) {
      const grown = new Float64Array(lat.length * 2);
      grown.set(lat);
      lat = grown;
    }
    lat[n++] = responseTime;
    lastResponse = performance.now();
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  });
  const r: any = await instance;
  const wallS = o.amount ? (lastResponse - started) / 1000 : r.duration || o.durationS;
  return {
    connections: o.connections,
    durationS: o.amount ? +wallS.toFixed(3) : o.durationS,
    requests: n,
    throughputRps: Math.round(n / wallS),
    latencyMs: summarize(lat, n),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCounts,
  };
}
