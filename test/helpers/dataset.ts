// Loads generated Norwegian companies into a test server through the real sync jobs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runJob } from '../../src/jobs/runner.ts';
import { writeDumpFiles } from '../../src/sources/brreg/dump-files.ts';
import type { TestServer } from './server.ts';

export async function loadGeneratedCompanies(server: TestServer, count: number, seed = 11, start = 0): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncd-dataset-'));
  try {
    const files = await writeDumpFiles(dir, count, seed, start);
    const quiet = () => undefined;
    await runJob(server.ctx, 'brreg', { file: files.enheter, follow: false }, quiet);
    await runJob(server.ctx, 'brreg-subunits', { file: files.underenheter }, quiet);
    await runJob(server.ctx, 'brreg-roles', { file: files.roller }, quiet);
    await runJob(server.ctx, 'regnskap', { file: files.regnskap }, quiet);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
