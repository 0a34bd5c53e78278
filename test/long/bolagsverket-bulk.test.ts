// A generated 300 000-row Bolagsverket file (ZIP, as downloaded) through the whole sync job on
// a real store, in bounded memory. Prints peak RSS and throughput. The store's write path, not
// the parser, sets the pace: the timeout leaves room for a loaded 2-core machine.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { expectedGeneratedCompanies, generateBolagsverketText } from '../../src/sources/bolagsverket/index.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const ROWS = 300_000;
/** RSS growth allowed over the run: the store engine's caches plus one batch, never the file. */
const LIMIT_MB = 600;

let server: TestServer;
let dir: string;
let zipFile: string;

beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bolagsverket-bulk-'));
  zipFile = path.join(dir, 'bolagsverket_bulkfil.zip');
  const zip = new yazl.ZipFile();
  zip.addReadStream(generateBolagsverketText(ROWS, 2026), 'bolagsverket_bulkfil.txt');
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(zipFile));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('bolagsverket sync at scale', () => {
  it(`syncs a generated ${ROWS}-row file in bounded memory`, { timeout: 420_000 }, async () => {
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    global.gc?.();
    const startRss = process.memoryUsage().rss;
    let peakRss = startRss;
    const sample = () => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    };
    const timer = setInterval(sample, 100);
    const started = performance.now();
    let result;
    try {
      result = await runJob(server.ctx, 'bolagsverket', { file: zipFile }, sample);
    } finally {
      clearInterval(timer);
      sample();
    }
    const seconds = (performance.now() - started) / 1000;
    const expected = expectedGeneratedCompanies(ROWS);
    console.log(
      `bolagsverket job, ${ROWS} rows (${server.ctx.store.engine}): ${result.recordsProcessed} companies in ${seconds.toFixed(1)} s ` +
        `(${Math.round(result.recordsProcessed / seconds)} rows/s); RSS start ${mb(startRss)} MB, peak ${mb(peakRss)} MB, ` +
        `growth ${mb(peakRss - startRss)} MB (limit ${LIMIT_MB} MB)`,
    );
    expect(result.recordsProcessed).toBe(expected);
    expect(result.details).toMatchObject({ inserted: expected, deregistered: 0, absentMarked: true, rejected: 0 });
    const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM companies WHERE country = 'SE'`.execute(
      server.ctx.store.db,
    );
    expect(count.rows[0].n).toBe(expected);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sync_seen`.execute(server.ctx.store.db);
    expect(left.rows[0].n).toBe(0);
    expect(peakRss - startRss).toBeLessThan(LIMIT_MB * 1024 * 1024);
  });
});
