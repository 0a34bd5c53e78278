// Ultimate owners on a Norway-size store: p95 of GET /api/companies/{orgNumber}/owners on
// PostgreSQL for a company whose tree holds 500 companies in 10 layers, over a full register year.
//   BENCH_PG_DATABASE=ncd_bench49 node --import tsx bench/owners.ts [--year 2024] [--seed 1]
//     [--connections 10] [--duration 30]
// The store's companies come first (bench/load-store.ts --jobs brreg, the 1.2M generated
// companies). This script then writes one register year in Skatteetaten's aksjeeierbok CSV
// layout (FORMATS.md §3: BOM, `;`, CRLF, the nine columns with Landkode) for every AS and ASA
// in the store: 1–4 holders each (persons with a birth year, other companies of the store,
// foreign holders with their country), 5 % with a second share class; 500 of the companies get a
// planted tree instead (layer sizes 1, 2, 4 … 64, 124, 124, 125; each company held 55 % and 35 %
// by two companies of the next layer and 10 % by a person, the last layer by two persons), so
// the walk from its root loads 500 companies over 10 layers along 1 022 company paths. The file
// is loaded through the real shareholders job; the server runs as deployed (bin/serve.mjs) and
// autocannon drives the root's /owners (one connection, then --connections), a mix of random
// companies, and as the machine's yardstick in the same run one indexed read (the root's
// /shareholders, one connection). Results go to bench/results/owners.json.
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/index.ts';
import { runJob } from '../src/jobs/runner.ts';
import '../src/jobs/shareholders.ts';
import { createLogger } from '../src/logger.ts';
import { buildContext, closeContext } from '../src/runtime/build-context.ts';
import { SHAREHOLDER_COLUMNS } from '../src/sources/aksjonaer/parse.ts';
import { runLoad } from './load.ts';
import { machine, ROOT, startServer } from './proc.ts';
import { BENCH_SECRET, ensureDatabase, pgQuery, prepare } from './stores.ts';

const { values } = parseArgs({
  options: {
    year: { type: 'string', default: '2024' },
    seed: { type: 'string', default: '1' },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '30' },
  },
});
const year = Number(values.year);
const dbName = process.env.BENCH_PG_DATABASE ?? 'ncd_bench49';
const url = await ensureDatabase(dbName);
const env = { DATABASE_URL: url, SECRET_KEY: BENCH_SECRET };

/** mulberry32: a small deterministic generator, so a seed gives the same register. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['OLA', 'KARI', 'PER', 'INGRID', 'KNUT', 'SILJE', 'ARNE', 'HEGE', 'TORE', 'LIV', 'BJØRN', 'ÅSE'];
const LAST = [
  'HANSEN',
  'JOHANSEN',
  'OLSEN',
  'LARSEN',
  'ANDERSEN',
  'PEDERSEN',
  'NILSEN',
  'KRISTIANSEN',
  'BERG',
  'HAUGEN',
];
const POSTAL = ['0150 OSLO', '5003 BERGEN', '7010 TRONDHEIM', '4006 STAVANGER', '9008 TROMSØ', '3015 DRAMMEN'];
const FOREIGN: [string, string, string][] = [
  ['SE', '114 35, STOCKHOLM', 'AB'],
  ['DK', '2100, KØBENHAVN Ø', 'APS'],
  ['GB', 'EC2V 7HH, LONDON', 'LTD'],
  ['US', '10019, NEW YORK', 'INC'],
  ['DE', '10115, BERLIN', 'GMBH'],
  ['CY', '3036, LIMASSOL', 'LTD'],
];
/** The planted tree's layers, root first: 500 companies. */
const LAYERS = [1, 2, 4, 8, 16, 32, 64, 124, 124, 125];

interface Company {
  org: string;
  name: string;
}

async function companies(): Promise<Company[]> {
  const rows = await pgQuery<{ org_number: string; name: string }>(
    url,
    `SELECT org_number, name FROM companies
     WHERE country = 'NO' AND org_form_code IN ('AS', 'ASA') AND NOT is_deleted ORDER BY id`,
  );
  return rows.map((r) => ({ org: r.org_number, name: r.name.replace(/;/g, ' ') }));
}

/** The tree's companies by layer: spread over the list (a stride), so they are not neighbours. */
function treeOf(all: Company[]): Company[][] {
  const step = Math.floor(all.length / 500);
  let k = 0;
  return LAYERS.map((size) => Array.from({ length: size }, () => all[k++ * step]));
}

async function writeRegister(file: string, all: Company[], tree: Company[][], seed: number) {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const out = createWriteStream(file);
  let lines = 0;
  const write = async (fields: (string | number)[]) => {
    lines++;
    if (!out.write(`${fields.join(';')}\r\n`)) await once(out, 'drain');
  };
  const person = () => [`${pick(LAST)} ${pick(FIRST)}`, 1940 + Math.floor(r() * 60), pick(POSTAL), 'NO'] as const;
  out.write(`\uFEFF${SHAREHOLDER_COLUMNS.join(';')}\r\n`);
  const inTree = new Set(tree.flat().map((c) => c.org));
  let foreignSeq = 0;
  for (const c of all) {
    if (inTree.has(c.org)) continue;
    const total = pick([30, 100, 1000, 30_000]);
    const holders = 1 + Math.floor(r() * 4);
    const weights = Array.from({ length: holders }, () => 1 + r() * 9);
    const sum = weights.reduce((s, w) => s + w, 0);
    const counts = weights.map((w) => Math.max(1, Math.floor((w / sum) * total)));
    counts[0] += total - counts.reduce((s, n) => s + n, 0);
    const classes = r() < 0.05 ? ['Ordinære aksjer', 'B-aksjer'] : ['Ordinære aksjer'];
    for (const cls of classes)
      for (const count of counts) {
        if (count <= 0) continue;
        const kind = r();
        if (kind < 0.6) {
          const [name, born, postal, country] = person();
          await write([c.org, c.name, cls, name, born, postal, country, count, total]);
        } else if (kind < 0.9) {
          const h = pick(all);
          if (h.org === c.org) continue;
          await write([c.org, c.name, cls, h.name, h.org, pick(POSTAL), 'NO', count, total]);
        } else {
          const [country, postal, suffix] = pick(FOREIGN);
          await write([c.org, c.name, cls, `HOLDING ${++foreignSeq} ${suffix}`, ' ', postal, country, count, total]);
        }
      }
  }
  for (let l = 0; l < tree.length; l++)
    for (let j = 0; j < tree[l].length; j++) {
      const c = tree[l][j];
      const up = tree[l + 1];
      const row = async (holder: (string | number)[], count: number) =>
        write([c.org, c.name, 'Ordinære aksjer', ...holder, count, 1000]);
      if (up) {
        for (const [h, count] of [
          [up[(2 * j) % up.length], 550],
          [up[(2 * j + 1) % up.length], 350],
        ] as const)
          await row([h.name, h.org, '0150 OSLO', 'NO'], count);
        await row([...person()], 100);
      } else {
        await row([...person()], 600);
        await row([...person()], 400);
      }
    }
  out.end();
  await once(out, 'finish');
  return lines;
}

const all = await companies();
if (all.length < 1000)
  throw new Error(`${dbName} holds ${all.length} AS/ASA: load it first (bench/load-store.ts --jobs brreg)`);
const tree = treeOf(all);
const root = tree[0][0].org;
const loaded = await pgQuery(url, 'SELECT row_count FROM shareholder_years WHERE year = $1', [year]).catch(() => []);
let register: Record<string, unknown> = { rows: loaded[0]?.row_count ?? null, loadedBefore: loaded.length > 0 };
if (!loaded.length) {
  const dir = path.join(ROOT, 'bench/.data');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `aksjeeierbok_${year}.csv`);
  const t0 = performance.now();
  const lines = await writeRegister(file, all, tree, Number(values.seed));
  const writtenS = (performance.now() - t0) / 1000;
  console.log(`register ${year}: ${lines} lines for ${all.length} companies written in ${writtenS.toFixed(0)} s`);
  const config = loadConfig({ ...process.env, ...env, DEMO_DATA: 'off', SYNC_SCHEDULE: 'off', LOG_LEVEL: 'warn' });
  const ctx = await buildContext(config, { logger: createLogger('warn') });
  try {
    const t1 = performance.now();
    const r = await runJob(ctx, 'shareholders', { file, year }, (m) => console.log(`  ${m}`));
    register = {
      rows: r.recordsProcessed,
      companies: all.length,
      writeS: +writtenS.toFixed(1),
      loadS: +((performance.now() - t1) / 1000).toFixed(1),
      status: r.status,
    };
  } finally {
    await closeContext(ctx);
  }
}
const count = (await pgQuery<{ n: number }>(url, 'SELECT count(*)::int AS n FROM companies'))[0].n;
const storeRows = (await pgQuery<{ n: number }>(url, 'SELECT count(*)::int AS n FROM shareholdings'))[0].n;
console.log(`store: ${count} companies, ${storeRows} shareholding rows; root ${root}`);

const { keys, orgNumbers, engineVersion } = await prepare(
  { engine: 'postgresql', size: 'full', count, env },
  { keys: 1, sample: 5_000 },
);
const server = await startServer(env);
try {
  const headers = { authorization: `Bearer ${keys[0]}` };
  const check = await fetch(`${server.url}/api/companies/${root}/owners`, { headers });
  const body = (await check.json()) as { companiesInTree: number; flags: { layers: number }; truncated: boolean };
  if (check.status !== 200 || body.companiesInTree !== 500 || body.flags.layers !== 10)
    throw new Error(`root ${root}: ${check.status} ${JSON.stringify(body).slice(0, 300)}`);
  const connections = Number(values.connections);
  const durationS = Number(values.duration);
  const before = machine();
  const deep = (c: number) => ({
    url: server.url,
    headers,
    nextPath: () => `/api/companies/${root}/owners`,
    connections: c,
  });
  await runLoad({ ...deep(connections), durationS: 5 });
  const sequential = await runLoad({ ...deep(1), durationS });
  const concurrent = await runLoad({ ...deep(connections), durationS });
  // The machine's own speed in the same minute: one indexed read of the same company's shareholders.
  const baseline = await runLoad({
    url: server.url,
    headers,
    connections: 1,
    durationS,
    nextPath: () => `/api/companies/${root}/shareholders`,
  });
  let i = 0;
  const mix = await runLoad({
    url: server.url,
    headers,
    connections,
    durationS,
    nextPath: () => `/api/companies/${orgNumbers[i++ % orgNumbers.length]}/owners`,
  });
  const result = {
    scenario: 'owners',
    engineName: 'postgresql',
    engineVersion,
    command: `BENCH_PG_DATABASE=${dbName} node --import tsx bench/owners.ts --year ${year} --seed ${values.seed} --connections ${connections} --duration ${durationS}`,
    store: { companies: count, asCompanies: all.length, shareholdingRows: storeRows, register },
    tree: { root, companiesInTree: body.companiesInTree, layers: body.flags.layers, truncated: body.truncated },
    machine: { ...before, loadavgAfter: machine().loadavg },
    target: 'p95 < 100 ms',
    deepSequential: sequential,
    deepConcurrent: concurrent,
    randomCompanies: mix,
    baselineShareholdersSequential: baseline,
    met: sequential.latencyMs.p95 < 100 && concurrent.latencyMs.p95 < 100,
  };
  const file = path.join(ROOT, 'bench/results/owners.json');
  await mkdir(path.dirname(file), { recursive: true });
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, (k, v) => (k === 'statusCounts' ? undefined : v), 1));
} finally {
  await server.stop();
}
