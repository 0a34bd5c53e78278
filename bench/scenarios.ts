// The load scenarios of issue 13. Each returns a JSON-able result with its targets checked.
// HTTP scenarios measure the bare Fastify baseline (bench/bare-server.ts) with the same load
// settings in the same run, so every figure has a ratio to the framework's ceiling.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runLoad, summarize, type LoadResult } from './load.ts';
import { cpuSplit, perUnit, ROOT, rssOf, sampleRss, startBare, startServer, type Child } from './proc.ts';
import pg from 'pg';
import { prepare, type Size, type Store } from './stores.ts';

/** `SELECT * FROM companies` pages of 100 in (updated_at, id) order over one connection. */
async function sqlDrain(url: string, rows: number) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    let last: [string, string] = ['-infinity', '0'];
    let n = 0;
    const t0 = performance.now();
    while (n < rows) {
      const r = await c.query({
        name: 'bench-feed',
        text: `SELECT c.*, c.updated_at::text AS k_ts FROM companies c WHERE (updated_at, id) > ($1::timestamptz, $2::bigint) ORDER BY updated_at, id LIMIT 100`,
        values: last,
        rowMode: 'array',
      });
      if (!r.rows.length) break;
      n += r.rows.length;
      const f = r.fields.map((x) => x.name);
      const lr = r.rows.at(-1) as unknown[];
      last = [String(lr[f.indexOf('k_ts')]), String(lr[f.indexOf('id')])];
    }
    const wallS = (performance.now() - t0) / 1000;
    return { rows: n, wallS: +wallS.toFixed(2), rowsPerS: Math.round(n / wallS) };
  } finally {
    await c.end();
  }
}

export interface Settings {
  size: Size;
  /** The search mix scoped to one country (`&country=`); none: across every country in the store. */
  country?: string;
  connections: number;
  durationS: number;
  warmupS: number;
}

export const defaults = (size: Size): Settings =>
  size === 'small'
    ? { size, connections: 50, durationS: 8, warmupS: 2 }
    : { size, connections: 50, durationS: 30, warmupS: 5 };

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function getJson(url: string, key: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: auth(key) });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** The bare route with a body the size of one real lookup response, under the same load. */
async function baseline(
  server: Child,
  key: string,
  lookupPath: string,
  connections: number,
  s: Settings,
): Promise<LoadResult & { bodyBytes: number }> {
  const rec = await getJson(`${server.url}${lookupPath}`, key);
  if (rec.status !== 200) throw new Error(`${lookupPath}: ${rec.status} ${JSON.stringify(rec.body).slice(0, 200)}`);
  const file = path.join(ROOT, 'bench/.data/record.json');
  const text = JSON.stringify(rec.body);
  // bench/.data is gitignored: a fresh clone has none until a PGlite store is loaded.
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  const bare = await startBare(file);
  try {
    await runLoad({ url: bare.url, connections, durationS: s.warmupS, nextPath: () => '/bare/1' });
    return {
      ...(await runLoad({ url: bare.url, connections, durationS: s.durationS, nextPath: () => '/bare/1' })),
      bodyBytes: Buffer.byteLength(text),
    };
  } finally {
    await bare.stop();
  }
}

function randomPicker(list: string[]) {
  let i = 0;
  return () => list[i++ % list.length];
}

const CACHE_SECRET = 'bench-record-cache-diagnostics';

/** The record cache's counters of a running server (GET /api/health with the sync secret). */
async function recordCacheOf(url: string) {
  return (await diagnosticsOf(url)).recordCache ?? null;
}

/** The diagnostics of a running server that the bench reads: record cache and memory. */
async function diagnosticsOf(url: string) {
  const res = await fetch(`${url}/api/health`, { headers: { 'x-sync-secret': CACHE_SECRET } });
  return (await res.json()) as {
    recordCache?: Record<string, number | boolean>;
    memory?: Record<string, number>;
  };
}

/** One lookup load (warm-up, then the measured run) against a server started with `env`. */
async function lookupRun(store: Store, s: Settings, key: string, paths: string[], env: Record<string, string>) {
  const server = await startServer({ ...store.env, SYNC_SECRET: CACHE_SECRET, ...env });
  try {
    const nextPath = randomPicker(paths);
    const load = (durationS: number, amount?: number) =>
      runLoad({ url: server.url, connections: s.connections, durationS, amount, headers: auth(key), nextPath });
    // Every number of the sample once (the cache full, as in the issue's memory condition), then
    // the timed warm-up; the run's own hit rate is reported beside it.
    await load(s.warmupS, paths.length);
    await load(s.warmupS);
    const before = await recordCacheOf(server.url);
    const run = await load(s.durationS);
    const after = await recordCacheOf(server.url);
    const hits = Number(after?.hits ?? 0) - Number(before?.hits ?? 0);
    const misses = Number(after?.misses ?? 0) - Number(before?.misses ?? 0);
    return {
      run,
      recordCache: after && { ...after, hitRateOfRun: hits + misses ? +(hits / (hits + misses)).toFixed(4) : 0 },
      serverPeakRssMb: rssOf(server.pid).peakMb,
    };
  } finally {
    await server.stop();
  }
}

/**
 * Lookup: the bare-route baseline, then the same load with the record cache off and on (same
 * run), over companies of every country in the store. BENCH_LOOKUP_SAMPLE=N draws them from the
 * first N of the sample (default: all).
 */
export async function lookup(store: Store, s: Settings) {
  const prep = await prepare(store);
  const sample = Number(process.env.BENCH_LOOKUP_SAMPLE ?? 0);
  const paths = sample > 0 ? prep.lookupPaths.slice(0, sample) : prep.lookupPaths;
  const bare = await startServer(store.env);
  let base: Awaited<ReturnType<typeof baseline>>;
  try {
    base = await baseline(bare, prep.keys[0], paths[0], s.connections, s);
  } finally {
    await bare.stop();
  }
  const uncached = await lookupRun(store, s, prep.keys[0], paths, { RECORD_CACHE_ENTRIES: '0' });
  const cached = await lookupRun(store, s, prep.keys[0], paths, {});
  const run = cached.run;
  const ratio = run.throughputRps / base.throughputRps;
  return {
    engine: prep.engineVersion,
    sampleOrgNumbers: paths.length,
    countries: [...new Set(paths.map((p) => p.slice(-2)))],
    baseline: base,
    lookup: run,
    recordCache: cached.recordCache,
    serverPeakRssMb: cached.serverPeakRssMb,
    withoutCache: { lookup: uncached.run, serverPeakRssMb: uncached.serverPeakRssMb },
    throughputRatioToBaseline: +ratio.toFixed(3),
    cachedOverUncached: +(run.throughputRps / uncached.run.throughputRps).toFixed(3),
    targets: {
      throughputAtLeast30PctOfBaseline: ratio >= 0.3,
      p99Below25ms: run.latencyMs.p99 < 25,
      noErrors: run.non2xx === 0 && run.errors === 0 && run.timeouts === 0,
    },
  };
}

/** Search mix: selective q, nace prefixes, municipalities, employee ranges, sorts (limit 20). */
export const SEARCH_MIX = [
  'q=bakeri',
  'q=fjord',
  'q=mølle&sort=name',
  'nace=56',
  'nace=62',
  'nace=47.1',
  'municipality=0301',
  'municipality=5610',
  'municipality=4601&sort=employeeCount&order=desc',
  'minEmployees=10&maxEmployees=50',
  'minEmployees=100&sort=employeeCount&order=desc',
  'maxEmployees=5&orgForm=AS',
  'nace=47&municipality=0301',
  'orgForm=AS&sort=foundingDate&order=desc',
  'sort=updatedAt&order=desc',
  'q=bygg&minEmployees=5&sort=employeeCount&order=desc',
].map((q) => `/api/companies?${q}&limit=20`);

export async function search(store: Store, s: Settings) {
  const mix = s.country ? SEARCH_MIX.map((p) => `${p}&country=${s.country}`) : SEARCH_MIX;
  const prep = await prepare(store);
  const server = await startServer(store.env);
  const connections = 8;
  try {
    // Each query of the mix alone (concurrency 1, median of 5 after one warm-up): which ones the
    // mix's tail comes from.
    const alone: Record<string, number> = {};
    for (const p of mix) {
      const times: number[] = [];
      for (let i = 0; i < 6; i++) {
        const t = performance.now();
        const r = await getJson(server.url + encodeURI(p), prep.keys[0]);
        if (r.status !== 200) throw new Error(`${p}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        if (i > 0) times.push(performance.now() - t);
      }
      alone[p] = summarize(times).p50;
    }
    const base = await baseline(server, prep.keys[0], `/api/companies/${prep.orgNumbers[0]}`, connections, s);
    const nextPath = randomPicker(mix.map((p) => encodeURI(p)));
    await runLoad({ url: server.url, connections, durationS: s.warmupS, headers: auth(prep.keys[0]), nextPath });
    const { result: run, split } = await cpuSplit({ serverPid: server.pid }, () =>
      runLoad({ url: server.url, connections, durationS: s.durationS, headers: auth(prep.keys[0]), nextPath }),
    );
    return {
      engine: prep.engineVersion,
      mix,
      // Where the cores went during the run, per request.
      cpu: { ...split, perRequest: perUnit(split, run.requests) },
      aloneMedianMs: alone,
      baseline: base,
      search: run,
      serverPeakRssMb: rssOf(server.pid).peakMb,
      throughputRatioToBaseline: +(run.throughputRps / base.throughputRps).toFixed(3),
      targets: { p95Below50ms: run.latencyMs.p95 < 50, noErrors: run.non2xx === 0 && run.errors === 0 },
    };
  } finally {
    await server.stop();
  }
}

/** Drains the change feed from the start with limit=100, one request at a time. */
export async function feed(store: Store, s: Settings) {
  const prep = await prepare(store);
  const server = await startServer(store.env);
  const target = s.size === 'small' ? 10_000 : 100_000;
  try {
    const drain = async (max: number) => {
      let cursor: string | null = null;
      let rows = 0;
      let pages = 0;
      const times: number[] = [];
      const t0 = performance.now();
      while (rows < max && pages < max / 50) {
        const t = performance.now();
        const r = await getJson(
          `${server.url}/api/updates?since=2000-01-01&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          prep.keys[0],
        );
        times.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`updates: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        rows += r.body.data.length;
        pages++;
        cursor = r.body.nextCursor;
        if (!cursor) break;
      }
      return { rows, pages, wallS: (performance.now() - t0) / 1000, pageLatencyMs: summarize(times) };
    };
    await drain(2_000); // warm-up
    const { result: r, split } = await cpuSplit({ serverPid: server.pid }, () => drain(target));
    const rowsPerS = Math.round(r.rows / r.wallS);
    const perPage = perUnit(split, r.pages);
    // Same-run reference: the same keyset walk as plain SQL from this process (PostgreSQL only;
    // PGlite's directory belongs to the server while it runs).
    const sql = store.engine === 'postgresql' ? await sqlDrain(store.env.DATABASE_URL, r.rows) : undefined;
    return {
      engine: prep.engineVersion,
      limit: 100,
      ...r,
      wallS: +r.wallS.toFixed(2),
      rowsPerS,
      sqlKeysetReference: sql,
      ratioToSqlReference: sql ? +(rowsPerS / sql.rowsPerS).toFixed(3) : undefined,
      // Where the cores went during the drain, per page, and the rows a second they allow at that cost.
      cpu: { ...split, perPage, ceilingRowsPerS: Math.round((perPage.ceilingPerS * r.rows) / r.pages) },
      serverPeakRssMb: rssOf(server.pid).peakMb,
      targets: { atLeast20kRowsPerS: rowsPerS >= 20_000, drainedTarget: r.rows >= target },
    };
  } finally {
    await server.stop();
  }
}

/**
 * Lookup load for 5 minutes (small: 60 s), server RSS sampled every second. RSS follows the
 * garbage collector's sawtooth (tens of MB within seconds), so one sample says little: growth is
 * judged on each minute of the tail by its lowest sample (what survives a collection) and its
 * mean, the first minute of the tail against the last.
 */
export async function memory(store: Store, s: Settings) {
  // More numbers than the record cache holds (20 000 entries or 64 MB of bodies by default), so
  // the cache fills to its bound and then evicts: the issue's "cache full".
  const prep = await prepare(store, { sample: 30_000 });
  const server = await startServer({ ...store.env, SYNC_SECRET: CACHE_SECRET });
  const total = s.size === 'small' ? 60 : 300;
  const tail = s.size === 'small' ? 36 : 180;
  const minute = s.size === 'small' ? 12 : 60;
  try {
    // Uniform random picks (a cycle through more numbers than the cache holds would never hit).
    const next = () => prep.orgNumbers[Math.floor(Math.random() * prep.orgNumbers.length)];
    const rss = sampleRss(server.pid, 1000);
    const run = await runLoad({
      url: server.url,
      connections: s.connections,
      durationS: total,
      headers: auth(prep.keys[0]),
      nextPath: () => `/api/companies/${next()}`,
    });
    const samples = rss.stop();
    const { recordCache, memory: processMemory } = await diagnosticsOf(server.url);
    const inTail = samples.filter((x) => x.s >= total - tail);
    const tailStart = inTail[0]?.rssMb ?? NaN;
    const tailMax = Math.max(...inTail.map((x) => x.rssMb));
    const end = samples.at(-1)!.rssMb;
    const bound = store.engine === 'pglite' ? 500 : 300;
    const window = (from: number, to: number) => {
      const v = samples.filter((x) => x.s >= from && x.s < to).map((x) => x.rssMb);
      return {
        fromS: from,
        toS: to,
        min: Math.min(...v),
        mean: Math.round(v.reduce((a, b) => a + b, 0) / v.length),
        max: Math.max(...v),
      };
    };
    // The last minute also takes the final sample, taken at `total`.
    const starts = Array.from({ length: tail / minute }, (_, i) => total - tail + i * minute);
    const minutes = starts.map((from, i) => window(from, i === starts.length - 1 ? total + 1 : from + minute));
    const first = minutes[0];
    const last = minutes.at(-1)!;
    // Least-squares slope over the tail, MB per minute.
    const mx = inTail.reduce((a, x) => a + x.s, 0) / inTail.length;
    const my = inTail.reduce((a, x) => a + x.rssMb, 0) / inTail.length;
    const slope =
      (inTail.reduce((a, x) => a + (x.s - mx) * (x.rssMb - my), 0) / inTail.reduce((a, x) => a + (x.s - mx) ** 2, 0)) *
      60;
    return {
      engine: prep.engineVersion,
      durationS: total,
      tailS: tail,
      sampleOrgNumbers: prep.orgNumbers.length,
      lookup: run,
      recordCache,
      processMemory,
      rssMb: {
        end,
        peak: rssOf(server.pid).peakMb,
        tailStart,
        tailMax,
        tailSlopeMbPerMin: +slope.toFixed(2),
        tailMinutes: minutes,
      },
      samples,
      // Issue 30's bounds: 300 MB with PostgreSQL, 500 MB embedded (PGlite's heap is in-process).
      targets: {
        boundMb: bound,
        endBelowBound: end < bound,
        lastMinuteMeanBelowBound: last.mean < bound,
        tailMaxBelowBound: tailMax < bound,
        noGrowthInTail: last.min <= first.min * 1.05 && last.mean <= first.mean * 1.05,
      },
    };
  } finally {
    await server.stop();
  }
}
