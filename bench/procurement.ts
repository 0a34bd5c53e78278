// Procurement sync throughput: writes --count generated eForms notices (competitions, results,
// cancellations, in the fixtures' structure) to a temporary directory and loads them twice through
// `ncd sync procurement --file DIR` on the store of DATABASE_URL (else an embedded store in a
// temporary DATA_DIR): the first load inserts, the second must change nothing. Prints JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import { runJob } from '../src/jobs/runner.ts';
import { createLogger } from '../src/logger.ts';
import { procurementDataset, writeDataset } from '../test/fakes/procurement/dataset.ts';

const { values } = parseArgs({ options: { count: { type: 'string', default: '2000' } } });
const count = Number(values.count);
const dir = await mkdtemp(path.join(os.tmpdir(), 'ncd-bench-procurement-'));
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ncd-bench-procurement-data-'));
try {
  const buyers = ['974760673', '971032081', '991324968'];
  const winners = ['982463718', '914782007', '935411718'];
  const files = procurementDataset(count, buyers, winners, new Date('2026-01-01T08:00:00Z'));
  await writeDataset(dir, files);
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DEMO_DATA: 'off', SYNC_SCHEDULE: 'off' });
  const app = await buildApp(config, { logger: createLogger('warn') });
  const timed = async () => {
    const t0 = performance.now();
    const r = await runJob(app.ctx, 'procurement', { file: dir }, () => undefined);
    return { ms: Math.round(performance.now() - t0), ...r.details };
  };
  const first = await timed();
  const second = await timed();
  const perSecond = (ms: number) => Math.round((files.size / ms) * 1000);
  console.log(
    JSON.stringify({
      engine: app.ctx.store.engine,
      notices: files.size,
      first: { ...first, noticesPerSecond: perSecond(first.ms) },
      resync: { ...second, noticesPerSecond: perSecond(second.ms) },
    }),
  );
  await app.close();
} finally {
  await rm(dir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}
