// The runner's VACUUM (ANALYZE) after a load: by default after every run that processed records,
// skipped when the caller says it runs it itself after a series of loads (the demo dataset).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPorts } from '../../src/jobs/job.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { shareholderCsv } from '../../src/sources/demo/shareholders.ts';
import { buildDemoWorld, DEMO_SEED } from '../../src/sources/demo/world.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let file: string;
let vacuums = 0;
let ctx: JobPorts;

beforeAll(async () => {
  server = await startServer();
  file = path.join(server.ctx.config.dataDir, 'aksjeeierbok_2023.csv');
  await writeFile(file, shareholderCsv(buildDemoWorld(40), 2023, DEMO_SEED));
  const syncRuns = server.ctx.repos.syncRuns;
  // The runner's own ports, with VACUUM counted (and still run).
  ctx = {
    ...server.ctx,
    repos: {
      ...server.ctx.repos,
      syncRuns: {
        ...syncRuns,
        async vacuumAnalyze() {
          vacuums++;
          await syncRuns.vacuumAnalyze();
        },
      },
    },
  };
});
afterAll(() => server?.close());

describe('the VACUUM after a load', () => {
  it('runs after a run that processed records', async () => {
    vacuums = 0;
    const r = await runJob(ctx, 'shareholders', { file, year: 2023 }, () => undefined);
    expect(r.recordsProcessed).toBeGreaterThan(0);
    expect(vacuums).toBe(1);
  });

  it('is skipped when the caller asks (vacuum: false), and the run is recorded as before', async () => {
    vacuums = 0;
    const r = await runJob(ctx, 'shareholders', { file, year: 2023 }, () => undefined, { vacuum: false });
    expect(r.recordsProcessed).toBeGreaterThan(0);
    expect(vacuums).toBe(0);
    const latest = (await server.ctx.repos.syncRuns.latestBySource()).shareholders;
    expect(latest).toMatchObject({ runId: r.runId, status: 'ok', recordsProcessed: r.recordsProcessed });
  });
});
