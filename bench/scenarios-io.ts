// Scenarios that measure work against an upstream or a dump rather than HTTP load:
// enrich (fake brreg at 100 ms latency) and ingest (`ncd sync … --file` against COPY).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { generateCompany } from '../src/sources/brreg/generate.ts';
import { writeDumpFiles } from '../src/sources/brreg/dump-files.ts';
import { startFakeBrreg } from '../test/fakes/brreg/server.ts';
import { cpuSplit, perUnit, ROOT, rssOf, startServer, type CpuSplit } from './proc.ts';
import type { Settings } from './scenarios.ts';
import { BENCH_SECRET, COUNT, ensureDatabase, PG_BASE, pgQuery, prepare, type Store } from './stores.ts';

async function post(url: string, key: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A fresh store per run (PostgreSQL database or PGlite directory) this harness owns. */
async function freshStore(engine: Store['engine'], name: string): Promise<Record<string, string>> {
  if (engine === 'postgresql') {
    await pgQuery(`${PG_BASE}/postgres`, `DROP DATABASE IF EXISTS ${name}`);
    return { DATABASE_URL: await ensureDatabase(name), SECRET_KEY: BENCH_SECRET };
  }
  const dir = path.join(ROOT, 'bench/.data', name);
  rmSync(dir, { recursive: true, force: true });
  return { DATA_DIR: dir, SECRET_KEY: BENCH_SECRET };
}

/** 100 misses fetched from the fake brreg at 100 ms latency, then the same 100 as hits. */
export async function enrich(store: Store, _s: Settings) {
  const brreg = await startFakeBrreg();
  for (let i = 190; i < 300; i++) brreg.add(generateCompany(i, 7));
  const env = {
    ...(await freshStore(store.engine, 'ncd_bench_enrich')),
    BRREG_BASE_URL: brreg.url,
    LIVE_FETCH_BUDGET_FREE: '0',
    UPSTREAM_RATE_PER_SECOND: '100000',
  };
  const prep = await prepare({ ...store, env, count: 0 }, { sample: 0 });
  const server = await startServer(env);
  try {
    const call = (orgNumbers: string[]) => post(`${server.url}/api/companies/enrich`, prep.keys[0], { orgNumbers });
    brreg.latencyMs = 100;
    // Steady state: one small call first (code JIT-compiled, statements prepared).
    if ((await call([generateCompany(199, 7).enhet.organisasjonsnummer])).status !== 200)
      throw new Error('warm-up enrich failed');
    const lat: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      await (await fetch(`${brreg.url}/enhetsregisteret/api/enheter/000000000`)).text();
      lat.push(performance.now() - t);
    }
    const latency = lat.sort((a, b) => a - b)[3];
    brreg.resetCounters();
    const numbers = Array.from({ length: 100 }, (_, i) => generateCompany(i + 200, 7).enhet.organisasjonsnummer);
    let t0 = performance.now();
    const miss = await call(numbers);
    const missMs = performance.now() - t0;
    const upstream = brreg.requests.length;
    const perCompanyMax = Math.max(...numbers.map((n) => brreg.requestsFor(n).length));
    const maxInFlight = brreg.maxInFlight;
    const ideal = Math.ceil(upstream / 10) * latency;
    brreg.resetCounters();
    const hitTimes: number[] = [];
    let hit: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      hit = await call(numbers);
      hitTimes.push(performance.now() - t0);
    }
    const hitMs = hitTimes.sort((a, b) => a - b)[2];
    return {
      engine: prep.engineVersion,
      upstreamLatencyMs: +latency.toFixed(1),
      misses: {
        status: miss.status,
        records: miss.body.data?.length,
        notFound: miss.body.notFound?.length,
        unavailable: miss.body.unavailable?.length,
        wallMs: Math.round(missMs),
        upstreamRequests: upstream,
        maxInFlight,
        maxRequestsPerCompany: perCompanyMax,
        idealMs: Math.round(ideal),
        ratioToIdeal: +(missMs / ideal).toFixed(3),
      },
      hits: {
        status: hit!.status,
        records: hit!.body.data?.length,
        upstreamRequests: brreg.requests.length,
        medianOf5Ms: Math.round(hitMs * 10) / 10,
        allMs: hitTimes.map((x) => Math.round(x * 10) / 10),
      },
      targets: {
        maxInFlightAtMost10: maxInFlight <= 10,
        atMost4PerCompany: perCompanyMax <= 4,
        wallWithin1_2xIdeal: missMs <= 1.2 * ideal,
        hitsAtMost50ms: hitMs <= 50,
        allReturned: miss.body.data?.length === 100 && hit!.body.data?.length === 100,
      },
    };
  } finally {
    await server.stop();
    await brreg.close();
  }
}

/** Runs a CLI command to completion, sampling its peak RSS. */
function timedCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; wallS: number; peakRssMb: number; out: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TZ: 'UTC',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let peak = 0;
    const timer = setInterval(() => {
      try {
        peak = Math.max(peak, rssOf(p.pid!).peakMb);
      } catch {
        // exited
      }
    }, 200);
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (out += c));
    p.on('exit', (code) => {
      clearInterval(timer);
      const reported = /peak RSS (\d+) MB/.exec(out);
      resolve({
        code: code ?? 1,
        wallS: +((performance.now() - t0) / 1000).toFixed(2),
        peakRssMb: Math.max(peak, reported ? Number(reported[1]) : 0),
        out: out.slice(-2000),
      });
    });
  });
}

function psql(url: string, command: string): number {
  const t0 = performance.now();
  const r = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qc', command], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql ${command}: ${r.stderr}`);
  return +((performance.now() - t0) / 1000).toFixed(2);
}

/**
 * The brreg dump (enheter + underenheter .json.gz) into an empty PostgreSQL database the way an
 * operator loads it: one `ncd sync brreg` that downloads both dumps (from a loopback fake brreg
 * streaming the files), then PostgreSQL's own COPY of the same rows (as CSV) into empty copies of
 * the tables, with and without indexes. BENCH_INGEST_FILES=1 times the two `--file` commands
 * (`sync brreg --file`, `sync brreg-subunits --file`) instead, as rounds before 2026-11-29 did.
 */
export async function ingest(store: Store, _s: Settings) {
  if (store.engine !== 'postgresql') throw new Error('ingest is measured on PostgreSQL');
  const count = COUNT[store.size];
  const dir = path.join(ROOT, 'bench/.data', `brreg-${count}-1`);
  const files = { enheter: path.join(dir, 'enheter.json.gz'), underenheter: path.join(dir, 'underenheter.json.gz') };
  if (!existsSync(files.underenheter)) await writeDumpFiles(dir, count, 1);
  // BENCH_INGEST_DATABASE: a database of its own when several sessions benchmark on one server.
  const env = await freshStore('postgresql', process.env.BENCH_INGEST_DATABASE ?? 'ncd_bench_ingest');
  // Migrations and reference data first, so the sync timing is the dump alone.
  await prepare({ ...store, env, count: 0 }, { keys: 0, sample: 0 });
  const brreg = await startFakeBrreg();
  brreg.dumpFiles = files;
  const runs: { command: string; wallS: number; peakRssMb: number; cpu: CpuSplit; log: string[] }[] = [];
  try {
    const commands = process.env.BENCH_INGEST_FILES
      ? [
          ['sync', 'brreg', '--file', files.enheter],
          ['sync', 'brreg-subunits', '--file', files.underenheter],
        ]
      : [['sync', 'brreg']];
    for (const args of commands) {
      const { result: r, split } = await cpuSplit({ child: true }, () =>
        timedCli(args, { ...env, BRREG_BASE_URL: brreg.url }),
      );
      if (r.code !== 0) throw new Error(`${args.join(' ')} failed:\n${r.out}`);
      runs.push({
        command: `ncd ${args.join(' ')}`,
        wallS: r.wallS,
        peakRssMb: r.peakRssMb,
        // The sync process is `server` here, this process (serving the dump files) `client`.
        cpu: split,
        log: r.out.split('\n').slice(-14),
      });
    }
  } finally {
    await brreg.close();
  }
  const url = env.DATABASE_URL;
  const [{ companies }] = await pgQuery(url, 'SELECT count(*)::int AS companies FROM companies');
  const [{ subs }] = await pgQuery(url, 'SELECT count(*)::int AS subs FROM sub_units');

  const copy = await copyBaseline(url);
  const syncS = runs.reduce((t, r) => t + r.wallS, 0);
  const copyS = copy.companies.copyWithIndexesS + copy.sub_units.copyWithIndexesS;
  const perS = Math.round(companies / syncS);
  // The cores' cost of one company (with its share of the sub-units), summed over the commands.
  const cpuTotal = (k: keyof CpuSplit['cpuS']) => runs.reduce((t, r) => t + r.cpu.cpuS[k], 0);
  const cpuSum = {
    cpuS: {
      server: cpuTotal('server'),
      postgres: cpuTotal('postgres'),
      client: cpuTotal('client'),
      total: cpuTotal('total'),
    },
  };
  const peak = Math.max(...runs.map((r) => r.peakRssMb));
  return {
    engine: 'PostgreSQL',
    dump: {
      dir: path.relative(ROOT, dir),
      enheterMb: Math.round(statSync(files.enheter).size / 2 ** 20),
      underenheterMb: Math.round(statSync(files.underenheter).size / 2 ** 20),
    },
    runs,
    loaded: { companies, subUnits: subs },
    endToEnd: {
      wallS: +syncS.toFixed(2),
      companiesPerS: perS,
      peakRssMb: peak,
      cpuPerCompany: perUnit(cpuSum, companies),
    },
    copy,
    ratioSyncToCopyWithIndexes: +(syncS / copyS).toFixed(2),
    ratioSyncToCopyNoIndexes: +(syncS / (copy.companies.copyNoIndexesS + copy.sub_units.copyNoIndexesS)).toFixed(2),
    targets: { atLeast20kCompaniesPerS: perS >= 20_000, peakRssBelow1Gb: peak < 1024 },
  };
}

/**
 * PostgreSQL's own COPY of the rows a store holds (companies, sub_units): exported as CSV, then
 * copied into empty tables shaped like them, without indexes and with all of them.
 */
export async function copyBaseline(url: string) {
  const copy: Record<
    string,
    { rows: number; exportS: number; copyNoIndexesS: number; copyWithIndexesS: number; csvMb: number }
  > = {};
  for (const table of ['companies', 'sub_units']) {
    const [{ n }] = await pgQuery(url, `SELECT count(*)::int AS n FROM ${table}`);
    const csv = `/tmp/ncd-bench-${table}.csv`;
    const exportS = psql(url, `\\copy ${table} TO '${csv}' WITH (FORMAT csv)`);
    psql(
      url,
      `DROP TABLE IF EXISTS bench_${table}_bare, bench_${table}_idx;` +
        ` CREATE TABLE bench_${table}_bare (LIKE ${table} INCLUDING DEFAULTS); CREATE TABLE bench_${table}_idx (LIKE ${table} INCLUDING ALL)`,
    );
    const copyNoIndexesS = psql(url, `\\copy bench_${table}_bare FROM '${csv}' WITH (FORMAT csv)`);
    const copyWithIndexesS = psql(url, `\\copy bench_${table}_idx FROM '${csv}' WITH (FORMAT csv)`);
    const csvMb = Math.round(statSync(csv).size / 2 ** 20);
    psql(url, `DROP TABLE bench_${table}_bare, bench_${table}_idx`);
    rmSync(csv, { force: true });
    copy[table] = { rows: n, exportS, copyNoIndexesS, copyWithIndexesS, csvMb };
  }
  return copy;
}

/** COPY alone on an existing store (the full store's rows, when the sync was timed by its load). */
export async function copy(store: Store, _s: Settings) {
  if (store.engine !== 'postgresql') throw new Error('copy is measured on PostgreSQL');
  const c = await copyBaseline(store.env.DATABASE_URL);
  return {
    engine: 'PostgreSQL',
    copy: c,
    copyWithIndexesS: +(c.companies.copyWithIndexesS + c.sub_units.copyWithIndexesS).toFixed(2),
    copyNoIndexesS: +(c.companies.copyNoIndexesS + c.sub_units.copyNoIndexesS).toFixed(2),
  };
}
