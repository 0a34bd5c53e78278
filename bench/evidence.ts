// Evidence-pack creation: p50/p95 of POST /api/companies/{orgNumber}/evidence with the live
// registry fetch excluded (the route's Server-Timing `build`: snapshot read of every part,
// screening, canonicalisation, signing and the insert), one request at a time. Two stores:
// - the embedded engine over the demo dataset (loaded through the real jobs):
//     node --import tsx bench/evidence.ts [--packs 100] [--companies 2000]
// - a PostgreSQL database that already holds a store (the 1.2M store of bench/load-store.ts with
//   the register year of bench/owners.ts), given a generated PEP/sanctions list of `--entities`
//   through the real `sanctions` job when it holds none; the companies are AS/ASA spread over
//   the whole store in a seeded random order (no hot set), and the planted 500-company tree's
//   root of bench/owners.ts is measured apart:
//     node --import tsx bench/evidence.ts --database ncd_bench [--packs 100] [--entities 100000]
// BRREG_BASE_URL points at a closed loopback port: the live fetch fails at once and the store's
// copy stands in, which is the path the target is stated for. Results: bench/results/evidence.json.
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import { loadDemoData } from '../src/jobs/demo-data.ts';
import { runJob } from '../src/jobs/runner.ts';
import { createLogger } from '../src/logger.ts';
import { seededRandom, writeFtmFile } from './screening-data.ts';
import { BENCH_SECRET, ensureDatabase } from './stores.ts';

const { values } = parseArgs({
  options: {
    packs: { type: 'string', default: '100' },
    companies: { type: 'string', default: '2000' },
    database: { type: 'string' },
    entities: { type: 'string', default: '100000' },
  },
});
/** The planted tree's root of bench/owners.ts (10 layers, 500 companies). */
const DEEP_ROOT = '810000023';
const LIST = 'opensanctions-default';
const dataDir = mkdtempSync(path.join(tmpdir(), 'ncd-bench-evidence-'));
const database = values.database ? await ensureDatabase(values.database) : undefined;
const env = {
  ...(database ? { DATABASE_URL: database, SECRET_KEY: BENCH_SECRET } : {}),
  DATA_DIR: dataDir,
  DEMO_DATA: 'off',
  SYNC_SCHEDULE: 'off',
  LOG_LEVEL: 'warn',
  BRREG_BASE_URL: 'http://127.0.0.1:9',
  NODE_ENV: 'production',
};
const config = loadConfig(env);
const built = await buildApp(config, { logger: createLogger('warn') });
try {
  const t0 = performance.now();
  let entities: number | null = null;
  if (database) entities = await ensureList(Number(values.entities));
  else await loadDemoData(built.ctx, () => undefined, Number(values.companies));
  const loadS = (performance.now() - t0) / 1000;
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
  const k = await built.services.keys.register({
    projectName: `bench-evidence-${Date.now()}`,
    email: 'bench@example.com',
  });
  await built.services.keys.setTier(k.keyPrefix, 'internal');
  const orgNumbers = database ? await spreadSample(Number(values.packs)) : await firstNorwegian(Number(values.packs));
  const pack = async (orgNumber: string) => {
    const t = performance.now();
    const res = await fetch(`${url}/api/companies/${orgNumber}/evidence`, {
      method: 'POST',
      headers: { authorization: `Bearer ${k.raw}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 201) throw new Error(`${orgNumber}: ${res.status}`);
    const build = Number(/build;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]);
    return { build, total: performance.now() - t, bytes };
  };
  const build: number[] = [];
  const total: number[] = [];
  for (const orgNumber of orgNumbers) {
    const r = await pack(orgNumber);
    build.push(r.build);
    total.push(r.total);
  }
  // The deep tree (bench/owners.ts): five packs of its root, the ultimate-owner walk at full size.
  const deep: { build: number; total: number; bytes: number }[] = [];
  if (database && (await isCompany(DEEP_ROOT))) for (let i = 0; i < 5; i++) deep.push(await pack(DEEP_ROOT));
  const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];
  const companies = Number(
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM companies`.execute(built.ctx.store.db)).rows[0].n,
  );
  const result = {
    scenario: 'evidence',
    engine: built.ctx.store.engine === 'embedded' ? 'pglite' : 'postgresql',
    companiesInStore: companies,
    ...(database
      ? { listEntities: entities, listLoadSeconds: Math.round(loadS) }
      : { demoLoadSeconds: Math.round(loadS) }),
    packs: build.length,
    buildMs: { p50: q(build, 0.5), p95: q(build, 0.95), max: Math.max(...build) },
    requestMs: { p50: q(total, 0.5), p95: q(total, 0.95) },
    ...(deep.length
      ? {
          deepTree: {
            orgNumber: DEEP_ROOT,
            packs: deep.length,
            buildMs: deep.map((d) => +d.build.toFixed(1)),
            packBytes: deep[0].bytes,
          },
        }
      : {}),
    loadAverage: (await import('node:os')).loadavg().map((l) => +l.toFixed(1)),
    command: database
      ? `node --import tsx bench/evidence.ts --database ${values.database} --packs ${values.packs} --entities ${values.entities}`
      : `node --import tsx bench/evidence.ts --packs ${values.packs} --companies ${values.companies}`,
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(path.join('bench', 'results'), { recursive: true });
  const name = database ? 'evidence-postgresql.json' : 'evidence.json';
  writeFileSync(path.join('bench', 'results', name), JSON.stringify(result, null, 2) + '\n');
} finally {
  await built.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The store's first Norwegian companies (the demo store: every one of them is a demo company). */
async function firstNorwegian(n: number): Promise<string[]> {
  const rows = await sql<{ org_number: string }>`
    SELECT org_number FROM companies WHERE country = 'NO' AND NOT is_deleted ORDER BY org_number LIMIT ${n}`.execute(
    built.ctx.store.db,
  );
  return rows.rows.map((r) => r.org_number);
}

/** `n` AS/ASA (the companies with shareholders) spread over the whole store, in a seeded random order. */
async function spreadSample(n: number): Promise<string[]> {
  const rows = await sql<{ org_number: string }>`
    SELECT org_number FROM companies
    WHERE country = 'NO' AND NOT is_deleted AND org_form_code IN ('AS', 'ASA') AND org_number <> ${DEEP_ROOT}`.execute(
    built.ctx.store.db,
  );
  const all = rows.rows.map((r) => r.org_number);
  const random = seededRandom(7);
  const picked = new Set<string>();
  while (picked.size < Math.min(n, all.length)) picked.add(random.pick(all));
  return [...picked];
}

async function isCompany(orgNumber: string): Promise<boolean> {
  const rows = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM companies WHERE country = 'NO' AND org_number = ${orgNumber}`.execute(
    built.ctx.store.db,
  );
  return rows.rows[0].n > 0;
}

/** A generated PEP/sanctions list of `count` entities, through the real job unless already loaded. */
async function ensureList(count: number): Promise<number> {
  const loaded = (await built.ctx.repos.screening.lists()).find((l) => l.name === LIST);
  if (loaded?.entityCount === count) return count;
  const file = path.resolve('bench/.data', `sanctions-${count}-1.ftm.json.gz`);
  mkdirSync(path.dirname(file), { recursive: true });
  if (!existsSync(file)) await writeFtmFile(file, count, 1);
  const run = await runJob(built.ctx, 'sanctions', { file, list: LIST }, () => undefined);
  return run.recordsProcessed;
}
