// Issue 54: the product against its floor (bench/floor-server.ts: one statement, JSON built by
// PostgreSQL, bytes passed through), in one run on one store, with the same client and load.
//   (a) feed: drain GET /api/updates from the start, page after page, through each server; the
//       server process's CPU (user+sys from /proc) per row. Target: product ≤ 2× the floor.
//   (b) lookup: GET /api/companies/{orgNumber} for org numbers drawn at random over the whole
//       store, none asked twice (the record cache cannot answer: its hit counter is read before
//       and after), at the same concurrency; requests/s and CPU per request. Target: ≥ 0.5×.
//   node --import tsx bench/floor.ts [--database ncd_bench] [--phase feed|lookup|both]
//     [--pages 1000] [--limit 100] [--lookups 60000] [--connections 50]
// The database is --database or BENCH_PG_DATABASE on BENCH_PG (default ncd_bench); it is read
// only, besides the bench key prepare() registers. Writes bench/results/floor.json on ncd_bench,
// floor.<database>.json on any other.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad, summarize } from './load.ts';
import { cpuSplit, freePort, machine, perUnit, ROOT, spawnChild, startServer, type Child } from './proc.ts';
import { BENCH_SECRET, PG_BASE, pgQuery, prepare, type Store } from './stores.ts';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    phase: { type: 'string', default: 'both' },
    pages: { type: 'string', default: '1000' },
    limit: { type: 'string', default: '100' },
    lookups: { type: 'string', default: '60000' },
    connections: { type: 'string', default: '50' },
  },
});
const database = values.database ?? process.env.BENCH_PG_DATABASE ?? 'ncd_bench';
const phase = values.phase;
if (phase !== 'feed' && phase !== 'lookup' && phase !== 'both') throw new Error('--phase feed|lookup|both');
const pages = Number(values.pages);
const limit = Number(values.limit);
const lookups = Number(values.lookups);
const connections = Number(values.connections);
const url = `${PG_BASE}/${database}`;

// Read with the sync secret: the record cache's counters in GET /api/health's diagnostics.
const DIAGNOSTICS_SECRET = 'bench-floor-diagnostics';

/** The floor server as a child process on loopback, ready once /health answers. */
async function startFloor(): Promise<Child> {
  const port = await freePort();
  return spawnChild(
    ['--import', 'tsx', path.join(ROOT, 'bench/floor-server.ts')],
    { NODE_ENV: 'production', PORT: String(port), DATABASE_URL: url },
    '/health',
    port,
    30_000,
  );
}

async function recordCacheOf(server: Child) {
  const res = await fetch(`${server.url}/api/health`, { headers: { 'x-sync-secret': DIAGNOSTICS_SECRET } });
  const body = (await res.json()) as {
    recordCache?: { hits: number; misses: number; bypassed: number; entries: number };
  };
  if (!body.recordCache) throw new Error('no recordCache in the diagnostics (sync secret refused?)');
  return body.recordCache;
}

/** A server process's user and system CPU seconds (/proc/<pid>/stat utime, stime at USER_HZ 100). */
function userSys(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { user: f[11] / 100, sys: f[12] / 100 };
}

/** Transactions committed in the store so far: each statement outside a transaction is one. */
async function commits(): Promise<number> {
  const r = await pgQuery<{ n: string }>(
    url,
    'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(r[0].n);
}

/**
 * `run` measured as bench/proc.ts's cpuSplit does, with the server's user/system split and the
 * store's committed transactions per unit. PostgreSQL publishes an idle backend's counters on a
 * 10 s timer, hence the pause; other clients of the same database would count too.
 */
async function measured<T>(pid: number, run: () => Promise<T>, unitsOf: (r: T) => number) {
  const c0 = await commits();
  const t0 = userSys(pid);
  const { result, split } = await cpuSplit({ serverPid: pid }, run);
  const t1 = userSys(pid);
  await new Promise((r) => setTimeout(r, 11_000));
  const units = unitsOf(result);
  const us = (s: number) => +((s * 1e6) / units).toFixed(1);
  return {
    result,
    split,
    serverUserUs: us(t1.user - t0.user),
    serverSysUs: us(t1.sys - t0.sys),
    transactionsPerUnit: +(((await commits()) - c0 - 1) / units).toFixed(3),
  };
}

interface Drained {
  rows: number;
  pages: number;
  bytes: number;
  wallS: number;
}

/**
 * Follows one server's feed from the start for `maxPages` pages, one request at a time (a client
 * draining it); `get` asks for the page after a cursor (the first page for null).
 */
async function drain(
  maxPages: number,
  get: (cursor: string | null) => Promise<{ status: number; text: string }>,
): Promise<Drained & { pageMs: ReturnType<typeof summarize> }> {
  let cursor: string | null = null;
  const out = { rows: 0, pages: 0, bytes: 0 };
  const times: number[] = [];
  const t0 = performance.now();
  while (out.pages < maxPages) {
    const t = performance.now();
    const r = await get(cursor);
    times.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`feed page ${out.pages}: ${r.status} ${r.text.slice(0, 300)}`);
    const page = JSON.parse(r.text) as { data: unknown[]; nextCursor: string | null };
    out.rows += page.data.length;
    out.pages++;
    out.bytes += Buffer.byteLength(r.text);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return { ...out, wallS: +((performance.now() - t0) / 1000).toFixed(2), pageMs: summarize(times) };
}

async function getText(u: string, key?: string) {
  const res = await fetch(u, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return { status: res.status, text: await res.text() };
}

/** The feed through both servers: a warm-up of each, then the measured drains, product first. */
async function feedPhase(product: Child, floor: Child, key: string) {
  const productPage = (c: string | null) =>
    getText(
      `${product.url}/api/updates?since=2000-01-01&limit=${limit}${c ? `&cursor=${encodeURIComponent(c)}` : ''}`,
      key,
    );
  const floorPage = (c: string | null) =>
    getText(`${floor.url}/feed?since=2000-01-01&limit=${limit}${c ? `&cursor=${encodeURIComponent(c)}` : ''}`);
  // Warm-up: compiled code in both and the first pages' blocks in PostgreSQL's cache for either.
  await drain(20, productPage);
  await drain(20, floorPage);
  const measure = async (serverPid: number, get: typeof productPage) => {
    const { result, split, ...per } = await measured(
      serverPid,
      () => drain(pages, get),
      (r) => r.rows,
    );
    return {
      ...result,
      // Per row: the server's user and system CPU µs, and the store's transactions.
      perRow: per,
      rowsPerS: Math.round(result.rows / result.wallS),
      bytesPerRow: Math.round(result.bytes / result.rows),
      cpu: split,
      serverCpuUsPerRow: +((split.cpuS.server * 1e6) / result.rows).toFixed(1),
      postgresCpuUsPerRow: +((split.cpuS.postgres * 1e6) / result.rows).toFixed(1),
    };
  };
  const p = await measure(product.pid, productPage);
  const f = await measure(floor.pid, floorPage);
  const ratio = p.serverCpuUsPerRow / f.serverCpuUsPerRow;
  return {
    limit,
    product: p,
    floor: f,
    serverCpuPerRowProductOverFloor: +ratio.toFixed(2),
    rowsPerSProductOverFloor: +(p.rowsPerS / f.rowsPerS).toFixed(3),
    bytesPerRowProductOverFloor: +(p.bytesPerRow / f.bytesPerRow).toFixed(3),
    target: { serverCpuPerRowAtMost2xFloor: ratio <= 2 },
  };
}

/**
 * Distinct live Norwegian companies in random order over the whole table (not a stride of ids),
 * whose records are complete: a bulk-loaded one without roles would be completed by a live fetch
 * from brreg on lookup, which the floor has no counterpart for.
 */
async function sampleOrgNumbers(n: number): Promise<string[]> {
  const rows = await pgQuery<{ org_number: string }>(
    url,
    `SELECT org_number FROM companies
     WHERE country = 'NO' AND NOT is_deleted AND (roles_hash IS NOT NULL OR fetched_at IS NOT NULL)
     ORDER BY random() LIMIT $1`,
    [n],
  );
  return rows.map((r) => r.org_number);
}

/** The relations an uncached lookup reads, in either server: the company row and its relations. */
const LOOKUP_TABLES = [
  'companies',
  'roles',
  'sub_units',
  'financials',
  'licenses',
  'procurement_notices',
  'shareholdings',
  'shareholder_years',
];

/**
 * Reads every lookup relation and its indexes into the OS page cache (pg_prewarm's 'read' mode)
 * before either server is measured. Without it the run that goes first pays the disk for both:
 * on a store just loaded the product's run (first) waited on reads (iowait 74-91 %) and warmed
 * the index pages the floor's run then found cached, a ratio of the disk rather than the code.
 */
async function prewarmLookupRelations() {
  await pgQuery(url, 'CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  const rows = await pgQuery<{ mb: number }>(
    url,
    `SELECT round(sum(pg_prewarm(c.oid, 'read')) * current_setting('block_size')::numeric / 1048576)::float8 AS mb
       FROM pg_class c
      WHERE c.oid IN (SELECT t.oid FROM pg_class t WHERE t.relname = ANY($1) AND t.relkind = 'r'
                      UNION SELECT i.indexrelid FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
                                                WHERE t.relname = ANY($1))`,
    [LOOKUP_TABLES],
  );
  return { tables: LOOKUP_TABLES, mbRead: rows[0].mb };
}

/** A request path for each number of `list` once; counts the paths handed out beyond it. */
function onceEach(list: string[], pathOf: (orgNumber: string) => string) {
  let i = 0;
  return {
    next: () => pathOf(list[i++ % list.length]),
    repeated: () => Math.max(0, i - list.length),
  };
}

/**
 * Uncached lookups through both servers: each gets its own numbers (a number asked of the floor
 * first would be in PostgreSQL's cache for the product, or the other way round), a warm-up share
 * and a measured share, every number once. The run stops after the list's length in responses;
 * autocannon hands out a path per request it sends, so the counter shows none was sent twice.
 */
async function lookupPhase(product: Child, floor: Child, key: string) {
  const all = await sampleOrgNumbers(lookups);
  const prewarmed = await prewarmLookupRelations();
  if (all.length < lookups) throw new Error(`the store has ${all.length} eligible companies, not ${lookups}`);
  const quarter = Math.floor(all.length / 4);
  const warm = Math.min(quarter, 5_000);
  const sets = {
    product: { warm: all.slice(0, warm), run: all.slice(warm, 2 * quarter) },
    floor: { warm: all.slice(2 * quarter, 2 * quarter + warm), run: all.slice(2 * quarter + warm, 4 * quarter) },
  };
  const run = async (server: Child, list: string[], pathOf: (o: string) => string, headers = {}) => {
    const picker = onceEach(list, pathOf);
    const { result, split, ...per } = await measured(
      server.pid,
      () =>
        runLoad({ url: server.url, connections, durationS: 0, amount: list.length, headers, nextPath: picker.next }),
      (r) => r.requests,
    );
    return { load: result, cpu: split, perRequest: per, repeatedPaths: picker.repeated() };
  };
  const productPath = (o: string) => `/api/companies/${o}`;
  const floorPath = (o: string) => `/companies/${o}`;
  const auth = { authorization: `Bearer ${key}` };

  await run(product, sets.product.warm, productPath, auth);
  const before = await recordCacheOf(product);
  const p = await run(product, sets.product.run, productPath, auth);
  const after = await recordCacheOf(product);
  await run(floor, sets.floor.warm, floorPath);
  const f = await run(floor, sets.floor.run, floorPath);

  // What each answer carries, on one company both are asked for (after the runs, so it is no warm-up).
  const probe = sets.floor.run[0];
  const bytes = {
    product: Buffer.byteLength((await getText(`${product.url}/api/companies/${probe}`, key)).text),
    floor: Buffer.byteLength((await getText(`${floor.url}/companies/${probe}`)).text),
  };
  const summary = (x: typeof p) => ({
    ...x.load,
    statusCounts: x.load.statusCounts,
    repeatedPaths: x.repeatedPaths,
    cpu: x.cpu,
    perRequest: { ...perUnit(x.cpu, x.load.requests), ...x.perRequest },
    serverCpuUsPerRequest: +((x.cpu.cpuS.server * 1e6) / x.load.requests).toFixed(1),
  });
  const ratio = p.load.throughputRps / f.load.throughputRps;
  return {
    connections,
    distinctOrgNumbers: all.length,
    prewarmed,
    perServer: { warmUp: warm, measured: sets.product.run.length },
    product: summary(p),
    floor: summary(f),
    // The measured run's cache counters: no hit; every request a miss, or a bypass (the cache
    // steps aside while its poll of the store's changes is late, services/support/record-cache.ts).
    productRecordCache: {
      hits: after.hits - before.hits,
      misses: after.misses - before.misses,
      bypassed: after.bypassed - before.bypassed,
      entriesAfter: after.entries,
    },
    responseBytes: { orgNumber: probe, ...bytes, productOverFloor: +(bytes.product / bytes.floor).toFixed(3) },
    requestsPerSProductOverFloor: +ratio.toFixed(3),
    serverCpuPerRequestProductOverFloor: +(
      p.cpu.cpuS.server /
      p.load.requests /
      (f.cpu.cpuS.server / f.load.requests)
    ).toFixed(2),
    target: {
      requestsPerSAtLeastHalfFloor: ratio >= 0.5,
      noneFromCache: after.hits === before.hits,
      noneRepeated: p.repeatedPaths === 0 && f.repeatedPaths === 0,
      noErrors: [p, f].every((x) => x.load.non2xx === 0 && x.load.errors === 0 && x.load.timeouts === 0),
    },
  };
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

const count = (await pgQuery<{ n: number }>(url, 'SELECT count(*)::int AS n FROM companies'))[0].n;
const store: Store = {
  engine: 'postgresql',
  size: 'full',
  count,
  env: { DATABASE_URL: url, SECRET_KEY: BENCH_SECRET },
};
const prep = await prepare(store, { sample: 0 });
const t0 = Date.now();
const before = machine();
console.log(`floor: ${database}, ${count} companies, ${prep.engineVersion}, load average ${before.loadavg.join(' ')}`);
const product = await startServer({ ...store.env, SYNC_SECRET: DIAGNOSTICS_SECRET });
const floor = await startFloor();
let out: Record<string, unknown>;
try {
  const feed = phase === 'lookup' ? undefined : await feedPhase(product, floor, prep.keys[0]);
  if (feed) console.log('feed', JSON.stringify({ ratio: feed.serverCpuPerRowProductOverFloor, ...feed.target }));
  const lookup = phase === 'feed' ? undefined : await lookupPhase(product, floor, prep.keys[0]);
  if (lookup) console.log('lookup', JSON.stringify({ ratio: lookup.requestsPerSProductOverFloor, ...lookup.target }));
  out = {
    scenario: 'floor',
    database,
    storeCompanies: count,
    engine: prep.engineVersion,
    command: `node --import tsx bench/floor.ts ${process.argv.slice(2).join(' ')}`.trim(),
    // The product server bundles src/ at its start: the commit, and the src/ files that differed from it.
    source: {
      commit: git('rev-parse', 'HEAD').trim(),
      uncommittedSrc: git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean),
    },
    startedAt: new Date(t0).toISOString(),
    wallS: Math.round((Date.now() - t0) / 1000),
    machine: { ...before, loadavgAfter: machine().loadavg },
    feed,
    lookup,
  };
} finally {
  await product.stop();
  await floor.stop();
}
const file = path.join(ROOT, 'bench/results', database === 'ncd_bench' ? 'floor.json' : `floor.${database}.json`);
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
console.log(JSON.stringify(out, (k, v) => (k === 'statusCounts' ? undefined : v), 1).slice(0, 6000));
console.log(`-> ${path.relative(ROOT, file)}`);
process.exit(0);
