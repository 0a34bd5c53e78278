// Builds a Norway-scale store for the benchmarks: generated companies in brreg's real file
// formats (enheter dump, roles totalbestand, accounts), loaded through the real sync jobs.
//   node --import tsx bench/load-store.ts [--count 1200000] [--seed 1] [--jobs brreg,brreg-subunits,brreg-roles,regnskap]
// Target: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded). Files are cached in bench/.data/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildContext, closeContext } from '../src/runtime/build-context.ts';
import { loadConfig } from '../src/config/index.ts';
import { runJob } from '../src/jobs/runner.ts';
import { createLogger } from '../src/logger.ts';
import { writeDumpFiles } from '../src/sources/brreg/dump-files.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1200000' },
    seed: { type: 'string', default: '1' },
    jobs: { type: 'string', default: 'brreg,brreg-subunits,brreg-roles,regnskap' },
  },
});
const jobs = new Set(values.jobs.split(','));
const count = Number(values.count);
const seed = Number(values.seed);
const dir = path.resolve('bench/.data', `brreg-${count}-${seed}`);

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
if (!existsSync(path.join(dir, 'regnskap.json.gz'))) {
  console.log(`generating ${count} companies into ${dir} …`);
  await writeDumpFiles(dir, count, seed);
  console.log(`generated (${elapsed()})`);
}
const config = loadConfig({ ...process.env, DEMO_DATA: 'off', LOG_LEVEL: 'warn' });
const ctx = await buildContext(config, { logger: createLogger('warn') });
try {
  for (const [job, file] of [
    ['brreg', 'enheter.json.gz'],
    ['brreg-subunits', 'underenheter.json.gz'],
    ['brreg-roles', 'roller-totalbestand.json.gz'],
    ['regnskap', 'regnskap.json.gz'],
  ] as const) {
    if (!jobs.has(job)) continue;
    const t = Date.now();
    const r = await runJob(ctx, job, { file: path.join(dir, file), follow: false }, (m) => console.log(`  ${m}`));
    console.log(
      `${job}: ${r.recordsProcessed} records in ${((Date.now() - t) / 1000).toFixed(0)} s (total ${elapsed()})`,
    );
  }
  console.log(`engine ${ctx.store.engine}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  await closeContext(ctx);
}
