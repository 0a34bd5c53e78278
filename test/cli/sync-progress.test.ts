// `ncd sync` progress as an operator sees it. On a terminal (util-linux `script` gives the CLI a
// pseudo-terminal) a 200k-row generated brreg dump shows the share of the file read, rows, rows/s
// and an ETA, and Ctrl-C (the ^C byte through the terminal, as a keyboard sends it) prints a
// summary and the command that finishes the job. Through a pipe it prints a line per 10 %. The
// ETA arithmetic, waits included, is checked on its own.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duration, estimate } from '../../src/cli/sync-progress.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { ROOT, TMP } from '../helpers/env.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

/** A gzipped enheter dump (brreg's bulk format: a JSON array of units) of `rows` generated units. */
async function dumpFile(rows: number): Promise<string> {
  const dir = path.join(TMP, 'sync-progress');
  const file = path.join(dir, `enheter-${rows}.json.gz`);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const gzip = createGzip({ level: 1 });
  const out = gzip.pipe(createWriteStream(`${file}.part`));
  gzip.write('[');
  for (let i = 0; i < rows; i++) {
    const unit = {
      organisasjonsnummer: orgNumberFor(i, 82_000_000),
      navn: `PROGRESS ${i} AS`,
      organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
      registreringsdatoEnhetsregisteret: '2020-01-01',
      forretningsadresse: { adresse: [`Gate ${i % 500}`], postnummer: '0150', poststed: 'OSLO', kommunenummer: '0301' },
    };
    if (!gzip.write(`${i ? ',\n' : ''}${JSON.stringify(unit)}`)) await once(gzip, 'drain');
  }
  gzip.end(']');
  await once(out, 'finish');
  const { rename } = await import('node:fs/promises');
  await rename(`${file}.part`, file);
  return file;
}

describe('progress arithmetic', () => {
  it('takes the rate from working time and adds what is left of a rate-limit wait to the ETA', () => {
    const base = { totalBytes: 1000, bytes: 250, rows: 500, elapsedMs: 10_000, waitedMs: 0, waitLeftMs: 0 };
    expect(estimate(base)).toEqual({ percent: 25, rowsPerSecond: 50, etaMs: 30_000 });
    // 5 s of the 10 were a wait: the working rate is twice as high, and 20 s of wait are ahead.
    expect(estimate({ ...base, waitedMs: 5000, waitLeftMs: 20_000 })).toEqual({
      percent: 25,
      rowsPerSecond: 50,
      etaMs: 15_000 + 20_000,
    });
    expect(estimate({ ...base, totalBytes: undefined }).etaMs).toBeUndefined();
    expect(estimate({ ...base, bytes: 1200 }).percent).toBe(100);
    expect(duration(3_725_000)).toBe('1:02:05');
    expect(duration(65_000)).toBe('1:05');
  });
});

const hasScript = spawnSync('script', ['--version']).status === 0;

describe('ncd sync progress', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    db = await createTestDatabase();
    // The feed position after a dump is asked of brreg: a closed local port answers at once.
    env = {
      ...db.env,
      LOG_LEVEL: 'warn',
      SYNC_SCHEDULE: 'off',
      DEMO_DATA: 'off',
      BRREG_BASE_URL: 'http://127.0.0.1:9',
    };
  });
  afterAll(() => db?.drop());

  it('shows %, rows/s and ETA on a terminal for a 200k-row file, and a summary on Ctrl-C', async () => {
    expect(hasScript, 'util-linux `script` is installed (.ci/run installs it)').toBe(true);
    const file = await dumpFile(200_000);
    const command = [process.execPath, '--import', 'tsx', CLI, 'sync', 'brreg', '--file', file]
      .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const proc = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', ...env },
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = once(proc, 'exit');
    // A bar past 5 % with rows counted: the rate and ETA are real numbers by then.
    const bar = /brreg .*?(\d+)% \| [\d.]+ MB of [\d.]+ MB \| ([\d,]+) rows \| ([\d,]+) rows\/s \| ETA (\d+:\d\d)/g;
    // The bar redraws itself with terminal control sequences; the text between them is read.
    const plain = () =>
      out.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g'), '\n').replace(/\r/g, '\n');
    const bars = () => [...plain().matchAll(bar)];
    const deadline = Date.now() + 400_000;
    while (!bars().some((m) => Number(m[1]) >= 5 && Number(m[2].replace(/,/g, '')) > 0) && Date.now() < deadline) {
      if (proc.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const seen = bars();
    expect(seen.length, out.slice(-2000)).toBeGreaterThan(0);
    const last = seen[seen.length - 1];
    expect(Number(last[1])).toBeGreaterThanOrEqual(5);
    expect(Number(last[1])).toBeLessThan(100);
    expect(Number(last[3].replace(/,/g, ''))).toBeGreaterThan(0);

    // Ctrl-C as a keyboard sends it: the terminal turns ^C into SIGINT for the command.
    proc.stdin.write('\x03');
    const [code] = await Promise.race([
      exited,
      new Promise<['timeout']>((r) => setTimeout(() => r(['timeout']), 60_000)),
    ]);
    const text = plain();
    expect(text).toMatch(/Interrupted\. brreg: [\d,]+ rows in \d+:\d\d \([\d,]+ rows\/s\), \d+% of the input read\./);
    expect(text).toContain(`ncd sync brreg --file ${file}`);
    expect(code).not.toBe('timeout');
  }, 600_000);

  it('prints a line per 10 % when stderr is not a terminal', async () => {
    const file = await dumpFile(20_000);
    const r = await runProcess([CLI, 'sync', 'brreg', '--file', file], env, 400_000);
    expect(r.code, r.stderr).toBe(0);
    const tenths = [
      ...r.stderr.matchAll(/^brreg: (\d+)% \([\d.]+ MB of [\d.]+ MB\), [\d,]+ rows, [\d,]+ rows\/s, ETA \d+:\d\d$/gm),
    ];
    expect(tenths.map((m) => Number(m[1]))).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(r.stderr).toMatch(/^brreg: 20,000 rows in \d+:\d\d \([\d,]+ rows\/s\), 100% of the input read$/m);
  }, 600_000);
});
