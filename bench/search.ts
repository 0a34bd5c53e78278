// Search latency on a loaded store (bench/load-store.ts): p50/p95/p99 per single filter and
// per sort, page 1 against page 50, the change feed, a lookup, and a bare Fastify route in the
// same process for scale. Concurrency 1 (one request at a time), over real HTTP on loopback.
//   DATABASE_URL=… node --import tsx bench/search.ts [--n 200]      (or DATA_DIR=… for PGlite)
// Writes bench/results/search-<engine>.json and prints a Markdown table.
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { request } from 'undici';
import { benchKey, getJson, percentiles as stats, startBenchApp } from './harness.ts';

const { values } = parseArgs({ options: { n: { type: 'string', default: '200' } } });
const N = Number(values.n);
const WARMUP = 20;

const { built, base } = await startBenchApp();
const db = built.ctx.store.pool;

// Web-profile and group data the generator does not produce, for their filters (idempotent).
const prepared = await db.query(`SELECT count(*)::int AS n FROM companies WHERE technology_names <> '{}'`);
if (prepared.rows[0].n === 0) {
  console.log('marking 2% of companies with technologies and 4% as group members …');
  await db.query(`UPDATE companies SET technology_names = CASE WHEN id % 3 = 0 THEN '{Shopify,Google Tag Manager}'::text[] ELSE '{WordPress}'::text[] END,
      has_ad_pixel = (id % 3 = 0), technologies = '[{"name":"WordPress","category":"cms","confidence":0.9}]' WHERE id % 50 = 7`);
  await db.query(`UPDATE companies c SET parent_org_number = p.org_number, parent_source = 'shareholders', is_in_group = true
      FROM companies p WHERE p.id = c.id - 1 AND c.id % 25 = 3`);
  await db.query(`UPDATE companies SET is_in_group = true WHERE id % 25 = 2`);
  await db.query('VACUUM (ANALYZE) companies');
}

// Cursor follows count against the cursor-depth limit (50 per key per 5 min): deep-page
// measurements switch to a fresh key every 45 requests.
const freshKey = () => benchKey(built, 'search');
const key = await freshKey();
const get = (path: string, k = key) => getJson(base + path, k);

async function measure(path: string, opts: { keyPerFollow?: boolean } = {}) {
  const times: number[] = [];
  let k = opts.keyPerFollow ? await freshKey() : key;
  let used = 0;
  for (let i = 0; i < WARMUP + N; i++) {
    if (opts.keyPerFollow && used >= 45) {
      k = await freshKey();
      used = 0;
    }
    const t = performance.now();
    const r = await get(path, k);
    const ms = performance.now() - t;
    used++;
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    if (i >= WARMUP) times.push(ms);
  }
  return stats(times);
}

/** The cursor that fetches page `page` of a query (walked with a key of its own). */
async function cursorFor(query: string, page: number): Promise<string> {
  const k = await freshKey();
  let cursor = '';
  for (let p = 1; p < page; p++) {
    const r = await get(`/api/companies?${query}&limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, k);
    cursor = r.body.nextCursor;
  }
  return cursor;
}

const sample = (
  await db.query(
    `SELECT org_number, business_address_muni_no, nace_code1 FROM companies WHERE org_form_code = 'AS' AND NOT is_deleted ORDER BY id LIMIT 1 OFFSET 5000`,
  )
).rows[0];
const filters: [string, string][] = [
  ['q substring (fjord)', 'q=fjord'],
  ['q substring (bakeri)', 'q=bakeri'],
  ['q prefix, 2 chars (fj)', 'q=fj'],
  ['nace division (56)', 'nace=56'],
  ['nace code', `nace=${sample.nace_code1}`],
  ['orgForm=AS', 'orgForm=AS'],
  ['orgForm=ASA (rare)', 'orgForm=ASA'],
  ['municipality=0301 (Oslo)', 'municipality=0301'],
  ['municipality (small)', 'municipality=5610'],
  ['county=46', 'county=46'],
  ['minEmployees=50', 'minEmployees=50'],
  ['maxEmployees=5', 'maxEmployees=5'],
  ['minRevenue=100M', 'minRevenue=100000000'],
  ['maxRevenue=1M', 'maxRevenue=1000000'],
  ['isBankrupt=true', 'isBankrupt=true'],
  ['isInGroup=true', 'isInGroup=true'],
  ['hasParent=true', 'hasParent=true'],
  ['hasTechnology=Shopify', 'hasTechnology=Shopify'],
  ['hasAnyAdPixel=true', 'hasAnyAdPixel=true'],
];
const sorts = ['name', 'employeeCount', 'foundingDate', 'updatedAt'].flatMap((s) =>
  ['asc', 'desc'].map((o) => [`sort=${s}&order=${o}`, `sort=${s}&order=${o}`] as [string, string]),
);

const results: Record<string, { p50: number; p95: number; p99: number; n: number }> = {};
const row = (label: string, r: { p50: number; p95: number; p99: number }) =>
  console.log(`| ${label} | ${r.p50} | ${r.p95} | ${r.p99} |`);
console.log(
  `\nengine: ${built.ctx.store.engine}; ${(await db.query('SELECT count(*)::int AS n FROM companies')).rows[0].n} companies; n=${N} per row, concurrency 1\n`,
);
console.log('| query (limit=20) | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|');

// Scale: a bare Fastify route in this process, and one company lookup (store hit).
const bare = Fastify();
bare.get('/hello', async () => ({ hello: 'world' }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/hello`;
const bareTimes: number[] = [];
for (let i = 0; i < WARMUP + N; i++) {
  const t = performance.now();
  await (await request(bareUrl)).body.text();
  if (i >= WARMUP) bareTimes.push(performance.now() - t);
}
results['bare fastify route'] = stats(bareTimes);
row('bare Fastify route (scale)', results['bare fastify route']);
results['lookup'] = await measure(`/api/companies/${sample.org_number}`);
row('GET /api/companies/{orgNumber} (store hit)', results.lookup);

for (const [label, q] of filters) {
  results[label] = await measure(`/api/companies?${q}&limit=20`);
  row(label, results[label]);
}
for (const [label, q] of sorts) {
  results[label] = await measure(`/api/companies?${q}&limit=20`);
  row(label, results[label]);
}
for (const [label, q] of [
  ['no filter, name', 'sort=name'],
  ['orgForm=AS, name', 'orgForm=AS'],
  ['employeeCount desc', 'sort=employeeCount&order=desc'],
  ['q=fjord', 'q=fjord'],
] as const) {
  const page1 = await measure(`/api/companies?${q}&limit=20`);
  const cursor = await cursorFor(q, 50);
  const page50 = await measure(`/api/companies?${q}&limit=20&cursor=${encodeURIComponent(cursor)}`, {
    keyPerFollow: true,
  });
  results[`page1: ${label}`] = page1;
  results[`page50: ${label}`] = page50;
  row(`page 1: ${label}`, page1);
  row(`page 50: ${label} (ratio p95 ${(page50.p95 / page1.p95).toFixed(2)})`, page50);
}
results['updates'] = await measure(`/api/updates?since=2000-01-01&limit=20`);
row('GET /api/updates (page 1)', results.updates);

mkdirSync('bench/results', { recursive: true });
const file = `bench/results/search-${built.ctx.store.engine === 'embedded' ? 'pglite' : 'postgresql'}.json`;
writeFileSync(
  file,
  JSON.stringify(
    { at: new Date().toISOString(), engine: built.ctx.store.engine, n: N, node: process.version, results },
    null,
    2,
  ),
);
console.log(`\nwritten ${file}`);
await bare.close();
await built.close();
