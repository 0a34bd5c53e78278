// Evidence-pack creation: p50/p95 of POST /api/companies/{orgNumber}/evidence with the live
// registry fetch excluded (the route's Server-Timing `build`: snapshot read of every part,
// screening, canonicalisation, signing and the insert), on the embedded engine over the demo
// dataset (loaded through the real jobs), one request at a time.
//   node --import tsx bench/evidence.ts [--packs 100] [--companies 2000]
// BRREG_BASE_URL points at a closed loopback port: the live fetch fails at once and the store's
// copy stands in, which is the path the target is stated for. Results: bench/results/evidence.json.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import { loadDemoData } from '../src/jobs/demo-data.ts';
import { createLogger } from '../src/logger.ts';

const { values } = parseArgs({
  options: { packs: { type: 'string', default: '100' }, companies: { type: 'string', default: '2000' } },
});
const dataDir = mkdtempSync(path.join(tmpdir(), 'ncd-bench-evidence-'));
const env = {
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
  await loadDemoData(built.ctx, () => undefined, Number(values.companies));
  const loadS = (performance.now() - t0) / 1000;
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
  const k = await built.services.keys.register({ projectName: 'bench-evidence', email: 'bench@example.com' });
  await built.services.keys.setTier(k.keyPrefix, 'internal');
  const rows = await sql<{ org_number: string }>`
    SELECT org_number FROM companies WHERE country = 'NO' AND NOT is_deleted ORDER BY org_number LIMIT ${Number(values.packs)}`.execute(
    built.ctx.store.db,
  );
  const build: number[] = [];
  const total: number[] = [];
  for (const r of rows.rows) {
    const t = performance.now();
    const res = await fetch(`${url}/api/companies/${r.org_number}/evidence`, {
      method: 'POST',
      headers: { authorization: `Bearer ${k.raw}`, 'content-type': 'application/json' },
      body: '{}',
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`${r.org_number}: ${res.status}`);
    total.push(performance.now() - t);
    build.push(Number(/build;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]));
  }
  const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];
  const companies = Number(
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM companies`.execute(built.ctx.store.db)).rows[0].n,
  );
  const result = {
    scenario: 'evidence',
    engine: 'pglite',
    companiesInStore: companies,
    demoLoadSeconds: Math.round(loadS),
    packs: build.length,
    buildMs: { p50: q(build, 0.5), p95: q(build, 0.95), max: Math.max(...build) },
    requestMs: { p50: q(total, 0.5), p95: q(total, 0.95) },
    command: `node --import tsx bench/evidence.ts --packs ${values.packs} --companies ${values.companies}`,
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(path.join('bench', 'results'), { recursive: true });
  writeFileSync(path.join('bench', 'results', 'evidence.json'), JSON.stringify(result, null, 2) + '\n');
} finally {
  await built.close();
  rmSync(dataDir, { recursive: true, force: true });
}
