// Issue 54's growth sitting: the same commands on one store, figure by figure, so a run on the
// 1.2 M Norwegian store and one on the 6.7 M Nordic store compare line by line.
//   node --import tsx bench/growth.ts --database ncd_nordic --label no-1.2m      (one sitting)
//   node --import tsx bench/growth.ts --compare no-1.2m --compare nordic-6.7m   (the ratios)
// A sitting runs, one after another, each as its own process as documented in BENCHMARKS.md:
//   npm run bench -- lookup                  lookups over every country in the store, cache off and on
//   npm run bench -- search-mix              the search mix across countries (no country filter)
//   npm run bench -- search-mix --country NO the same mix scoped to Norway
//   npm run bench -- feed                    the change feed drained from the start
//   bench/match-eval.ts                      100-name match batches
//   bench/screening.ts                       company screening (10 subjects each) and 100-entity matches
//   bench/floor.ts --lookups 25000           the feed and uncached lookups against the floor server
// and keeps each step's result file, PostgreSQL's buffer hits and reads during the step, and the
// sizes of the big tables and their indexes, in bench/results/growth-<label>.json.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machine, ROOT } from './proc.ts';
import { PG_BASE, pgQuery } from './stores.ts';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    label: { type: 'string' },
    compare: { type: 'string', multiple: true },
    only: { type: 'string' },
  },
  allowPositionals: true,
  strict: false,
});

const RESULTS = path.join(ROOT, 'bench/results');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(RESULTS, file), 'utf8'));

interface Step {
  name: string;
  args: string[];
  /** The result file the step writes (read after it ran), if any. */
  file?: (db: string) => string;
}

const bench = (...args: string[]) => ['--import', 'tsx', 'bench/run.ts', ...args];
const STEPS: Step[] = [
  { name: 'lookup', args: bench('lookup'), file: () => 'lookup.json' },
  { name: 'search-cross', args: bench('search-mix'), file: () => 'search-mix.json' },
  { name: 'search-no', args: bench('search-mix', '--country', 'NO'), file: () => 'search-mix.country-NO.json' },
  { name: 'feed', args: bench('feed'), file: () => 'feed.json' },
  { name: 'match', args: ['--import', 'tsx', 'bench/match-eval.ts'] },
  { name: 'screening', args: ['--import', 'tsx', 'bench/screening.ts'], file: () => 'screening-postgresql.json' },
  {
    name: 'floor',
    args: ['--import', 'tsx', 'bench/floor.ts', '--lookups', '25000'],
    file: (db) => (db === 'ncd_bench' ? 'floor.json' : `floor.${db}.json`),
  },
];

function run(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
    let out = '';
    const on = (c: Buffer) => {
      out += c.toString();
      process.stdout.write(c);
    };
    p.stdout.on('data', on);
    p.stderr.on('data', on);
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

/** PostgreSQL's block hits and reads in the database so far (pg_stat_database). */
async function blocks(url: string) {
  const [r] = await pgQuery<{ hit: string; read: string }>(
    url,
    'SELECT blks_hit AS hit, blks_read AS read FROM pg_stat_database WHERE datname = current_database()',
  );
  return { hit: Number(r.hit), read: Number(r.read) };
}

async function sizes(url: string) {
  return pgQuery(
    url,
    `SELECT c.relname AS table, c.reltuples::bigint AS rows, pg_relation_size(c.oid) / 1048576 AS "tableMb",
            pg_indexes_size(c.oid) / 1048576 AS "indexesMb"
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND pg_total_relation_size(c.oid) >= 50 * 1048576
      ORDER BY pg_total_relation_size(c.oid) DESC`,
  );
}

async function sitting(database: string, label: string) {
  const url = `${PG_BASE}/${database}`;
  const env = { BENCH_PG_DATABASE: database, DATABASE_URL: url };
  const [{ shared_buffers }] = await pgQuery(url, 'SHOW shared_buffers');
  const countries = await pgQuery(url, 'SELECT country, count(*)::int AS n FROM companies GROUP BY 1 ORDER BY 1');
  const dir = path.join(RESULTS, `growth-${label}`);
  mkdirSync(dir, { recursive: true });
  const out: Record<string, unknown> = {
    label,
    database,
    startedAt: new Date().toISOString(),
    machine: machine(),
    sharedBuffers: shared_buffers,
    countries,
    sizes: await sizes(url),
    steps: {},
  };
  const steps = out.steps as Record<string, unknown>;
  for (const step of STEPS.filter((s) => !values.only || String(values.only).split(',').includes(s.name))) {
    console.log(`\n=== ${label}: ${step.name} (load average ${machine().loadavg.join(' ')})`);
    const b0 = await blocks(url);
    const t0 = Date.now();
    const text = await run(step.args, env);
    const b1 = await blocks(url);
    const hit = b1.hit - b0.hit;
    const read = b1.read - b0.read;
    const entry: Record<string, unknown> = {
      wallS: Math.round((Date.now() - t0) / 1000),
      bufferHitRate: hit + read ? +(hit / (hit + read)).toFixed(4) : null,
      blocksRead: read,
    };
    if (step.file) {
      const file = step.file(database);
      copyFileSync(path.join(RESULTS, file), path.join(dir, file));
      entry.file = path.relative(ROOT, path.join(dir, file));
    }
    // match-eval prints its batch percentiles; nothing else to read.
    const m = /batches of ≤100 queries .*: p50 (\d+) ms, p95 (\d+) ms, max (\d+) ms/.exec(text);
    if (m) entry.batchMs = { p50: +m[1], p95: +m[2], max: +m[3] };
    steps[step.name] = entry;
    writeFileSync(path.join(RESULTS, `growth-${label}.json`), JSON.stringify(out, null, 2) + '\n');
  }
  out.finishedAt = new Date().toISOString();
  writeFileSync(path.join(RESULTS, `growth-${label}.json`), JSON.stringify(out, null, 2) + '\n');
  console.log(`\nwritten bench/results/growth-${label}.json`);
}

type Sitting = { steps: Record<string, { file?: string; batchMs?: { p95: number } }> };

/** The figures of one sitting, each with whether lower or higher is better. */
function figures(s: Sitting): [string, number, 'lower' | 'higher'][] {
  const file = (step: string) => JSON.parse(readFileSync(path.join(ROOT, s.steps[step].file!), 'utf8'));
  const lookup = file('lookup');
  const cross = file('search-cross');
  const scoped = file('search-no');
  const feed = file('feed');
  const screening = file('screening');
  const floor = file('floor');
  return [
    ['lookup, cache off: requests/s', lookup.withoutCache.lookup.throughputRps, 'higher'],
    ['lookup, cache off: p99 ms', lookup.withoutCache.lookup.latencyMs.p99, 'lower'],
    ['lookup, cache on (10 000 numbers, all cached): requests/s', lookup.lookup.throughputRps, 'higher'],
    ['lookup, cache on: p99 ms', lookup.lookup.latencyMs.p99, 'lower'],
    ['search mix across countries: p95 ms', cross.search.latencyMs.p95, 'lower'],
    ['search mix, country=NO: p95 ms', scoped.search.latencyMs.p95, 'lower'],
    ['feed: rows/s', feed.rowsPerS, 'higher'],
    ['100-name match batch: p95 ms', s.steps.match.batchMs!.p95, 'lower'],
    ['company screening: p95 ms', screening.result.p95, 'lower'],
    ['server peak RSS, lookups with the cache full: MB', lookup.serverPeakRssMb, 'lower'],
    ['server peak RSS, search mix: MB', Math.max(cross.serverPeakRssMb, scoped.serverPeakRssMb), 'lower'],
    [
      'feed against the floor: server CPU per row, product ÷ floor',
      floor.feed.serverCpuPerRowProductOverFloor,
      'lower',
    ],
    ['uncached lookup against the floor: rate, product ÷ floor', floor.lookup.requestsPerSProductOverFloor, 'higher'],
  ];
}

function compare(a: string, b: string) {
  const [fa, fb] = [figures(readJson(`growth-${a}.json`)), figures(readJson(`growth-${b}.json`))];
  console.log(`| figure | ${a} | ${b} | cost growth (${b} ÷ ${a}) | ≤ 1.5 |`);
  console.log('|---|---|---|---|---|');
  fa.forEach(([name, x, better], i) => {
    const y = fb[i][1];
    // Growth of the cost: a time or size as it is, a rate inverted, so > 1 always means worse.
    const growth = better === 'lower' ? y / x : x / y;
    console.log(`| ${name} | ${x} | ${y} | ${growth.toFixed(2)} | ${growth <= 1.5 ? 'yes' : '**no**'} |`);
  });
}

if (values.compare) {
  const [a, b] = values.compare as string[];
  if (!a || !b) throw new Error('--compare <label> --compare <label>');
  compare(a, b);
} else {
  if (typeof values.database !== 'string' || typeof values.label !== 'string')
    throw new Error('--database <name> --label <label>');
  await sitting(values.database, values.label);
}
