// Load benchmarks of issue 13: `npm run bench -- <scenario> [--size small|full] [--engine postgresql|pglite]`
//   scenarios: lookup, search-mix, feed, enrich, ingest, memory, copy (COPY of a loaded store's rows), engines (lookup+search on both
//   engines, PGlite as a ratio to PostgreSQL), all (every scenario but copy, at --size).
// Starts the server as deployed (bin/serve.mjs, as npm start runs it; NODE_ENV=production, LOG_LEVEL=warn) against a
// generated store, drives it with autocannon, and writes bench/results/<scenario>.json
// (`<scenario>.small.json` for --size small, `-pglite` for the embedded engine,
// `.store-small` when --store differs from --size, `.country-XX` for --country, `.<tag>` with
// BENCH_RESULT_TAG=<tag>). Options: --connections N, --duration S, --country XX (search-mix).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machine, ROOT } from './proc.ts';
import { defaults, feed, lookup, memory, search } from './scenarios.ts';
import { copy, enrich, ingest } from './scenarios-io.ts';
import { ensureStore, type Engine, type Size } from './stores.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    size: { type: 'string', default: 'full' },
    engine: { type: 'string', default: 'postgresql' },
    // The store to run against when it differs from --size (e.g. the 5-minute memory run on the 20k store).
    store: { type: 'string' },
    connections: { type: 'string' },
    duration: { type: 'string' },
    // search-mix only: every query of the mix scoped to this country.
    country: { type: 'string' },
  },
});
const size = values.size as Size;
if (size !== 'small' && size !== 'full') throw new Error('--size small|full');
const engine = values.engine as Engine;
if (engine !== 'postgresql' && engine !== 'pglite') throw new Error('--engine postgresql|pglite');
const storeSize = (values.store ?? size) as Size;
const settings = { ...defaults(size) };
if (values.connections) settings.connections = Number(values.connections);
if (values.duration) settings.durationS = Number(values.duration);
if (values.country) settings.country = values.country.toUpperCase();

// `search-mix`, not `search`: bench/results/search-<engine>.json belong to bench/search.ts.
const SCENARIOS = { lookup, 'search-mix': search, feed, memory, enrich, ingest, copy } as const;
type Name = keyof typeof SCENARIOS;

async function runOne(name: Name, eng: Engine) {
  const store =
    name === 'enrich' || name === 'ingest'
      ? { engine: eng, size, count: 0, env: {} }
      : await ensureStore(eng, storeSize);
  const before = machine();
  const t0 = Date.now();
  console.log(`\n== ${name} (${eng}, ${size}) load average ${before.loadavg.join(' ')}`);
  const result = await SCENARIOS[name](store, settings);
  const out = {
    scenario: name,
    engineName: eng,
    size,
    storeCompanies: store.count,
    settings,
    command: `npm run bench -- ${name} --size ${size}${storeSize !== size ? ` --store ${storeSize}` : ''}${eng === 'pglite' ? ' --engine pglite' : ''}${values.connections ? ` --connections ${values.connections}` : ''}${values.duration ? ` --duration ${values.duration}` : ''}${values.country ? ` --country ${values.country}` : ''}`,
    startedAt: new Date(t0).toISOString(),
    wallS: Math.round((Date.now() - t0) / 1000),
    machine: { ...before, loadavgAfter: machine().loadavg },
    ...result,
  };
  const file = path.join(
    ROOT,
    'bench/results',
    `${name}${eng === 'pglite' ? '-pglite' : ''}${size === 'small' ? '.small' : ''}${storeSize !== size ? `.store-${storeSize}` : ''}${settings.country ? `.country-${settings.country}` : ''}${process.env.BENCH_RESULT_TAG ? `.${process.env.BENCH_RESULT_TAG}` : ''}.json`,
  );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  const { samples: _s, ...brief } = out as typeof out & { samples?: unknown };
  console.log(JSON.stringify(brief, (k, v) => (k === 'statusCounts' || k === 'mix' ? undefined : v), 1).slice(0, 4000));
  console.log(`-> ${path.relative(ROOT, file)}`);
  return out;
}

const scenario = positionals[0];
if (scenario === 'engines') {
  // Same store size, same settings, back to back: PGlite as a ratio to PostgreSQL.
  const res: Record<string, any> = {};
  for (const name of ['lookup', 'search-mix'] as const)
    for (const eng of ['postgresql', 'pglite'] as const) res[`${name}-${eng}`] = await runOne(name, eng);
  const ratio = {
    lookupThroughput: +(
      res['lookup-pglite'].lookup.throughputRps / res['lookup-postgresql'].lookup.throughputRps
    ).toFixed(3),
    lookupP99: +(res['lookup-pglite'].lookup.latencyMs.p99 / res['lookup-postgresql'].lookup.latencyMs.p99).toFixed(2),
    // The same lookups with the record cache off: every one reads the store.
    lookupThroughputUncached: +(
      res['lookup-pglite'].withoutCache.lookup.throughputRps /
      res['lookup-postgresql'].withoutCache.lookup.throughputRps
    ).toFixed(3),
    searchThroughput: +(
      res['search-mix-pglite'].search.throughputRps / res['search-mix-postgresql'].search.throughputRps
    ).toFixed(3),
    searchP95: +(
      res['search-mix-pglite'].search.latencyMs.p95 / res['search-mix-postgresql'].search.latencyMs.p95
    ).toFixed(2),
  };
  const file = path.join(ROOT, 'bench/results', `engines${size === 'small' ? '.small' : ''}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { scenario: 'engines', size, pgliteOverPostgresql: ratio, command: `npm run bench -- engines --size ${size}` },
      null,
      2,
    ) + '\n',
  );
  console.log('PGlite / PostgreSQL', ratio, `-> ${path.relative(ROOT, file)}`);
} else if (scenario === 'all') {
  for (const name of (Object.keys(SCENARIOS) as Name[]).filter((n) => n !== 'copy')) await runOne(name, engine);
} else if (scenario && scenario in SCENARIOS) {
  await runOne(scenario as Name, engine);
} else {
  console.error(
    `usage: npm run bench -- <${Object.keys(SCENARIOS).join('|')}|engines|all> [--size small|full] [--engine postgresql|pglite] [--connections N] [--duration S]`,
  );
  process.exit(2);
}
process.exit(0);
