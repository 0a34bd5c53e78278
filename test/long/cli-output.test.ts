// `ncd` output for people and scripts: tables on a terminal (run under util-linux `script`, which
// gives the command a real pseudo-terminal), JSON with --json or through a pipe; key and job
// commands refuse to create a data directory, and name the store they opened.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cell, renderHuman, renderTable } from '../../src/cli/table.ts';
import { usage, commandHelp } from '../../src/cli/commands.ts';
import { TMP } from '../helpers/env.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

describe('human output', () => {
  it('renders a list as an aligned table and the rest as name: value lines', () => {
    const text = renderHuman({
      scheduler: 'on',
      jobs: [
        { name: 'brreg', lastRun: { status: 'ok', finishedAt: '2026-11-27T03:04:05.123Z' }, records: 1200 },
        { name: 'coverage', lastRun: null, records: 7 },
      ],
    });
    expect(text.split('\n')).toEqual([
      'scheduler: on',
      '',
      'jobs:',
      'name      last run             records',
      '--------  -------------------  -------',
      'brreg     ok 2026-11-27 03:04    1,200',
      'coverage  -                          7',
    ]);
  });

  it('formats cells for reading', () => {
    expect(cell(true)).toBe('yes');
    expect(cell(null)).toBe('-');
    expect(cell({ rpm: 60, daily: 0 })).toBe('rpm=60 daily=0');
    expect(renderTable([])).toBe('(none)');
  });

  it('has no empty sources: line when no job is known', () => {
    expect(usage([])).not.toMatch(/sources:/);
    expect(usage(['brreg'])).toMatch(/\nsources: brreg$/);
    expect(commandHelp(['sync'], [])).not.toMatch(/sources:/);
  });
});

const hasScript = spawnSync('script', ['--version']).status === 0;

describe('ncd on a terminal and in scripts', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    db = await createTestDatabase();
    env = { ...db.env, LOG_LEVEL: 'warn', SYNC_SCHEDULE: 'off', DEMO_DATA: 'off' };
  });
  afterAll(() => db?.drop());

  it('prints `ncd jobs` as a table on a TTY (util-linux script)', () => {
    expect(hasScript, 'util-linux `script` is installed (.ci/run installs it)').toBe(true);
    const command = [process.execPath, '--import', 'tsx', CLI, 'jobs']
      .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const out = execFileSync('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      cwd: path.resolve(CLI, '../../..'),
      encoding: 'utf8',
      timeout: 120_000,
    }).replace(/\r/g, '');
    expect(out).toMatch(/^scheduler: +off$/m);
    expect(out).toMatch(/^name +source +schedule +scheduled +last run +next run +running in$/m);
    expect(out).toMatch(/^coverage +coverage /m);
    expect(out).not.toContain('{');
  }, 240_000);

  it('prints JSON with --json, and through a pipe', async () => {
    const flagged = await runProcess([CLI, 'jobs', '--json'], env);
    expect(flagged.code).toBe(0);
    expect(JSON.parse(flagged.stdout).jobs.some((j: { name: string }) => j.name === 'coverage')).toBe(true);
    expect(flagged.stderr).toMatch(/^store: (embedded database in |PostgreSQL )/m);
    const piped = await runProcess([CLI, 'keys', 'list'], env);
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toEqual({ keys: expect.any(Array) });
  }, 240_000);

  it('refuses to create a data directory for key and job commands, and for an unknown source', async () => {
    const dir = mkdtempSync(path.join(TMP, 'ncd-nodata-'));
    const dataDir = path.join(dir, 'data');
    try {
      const noDb = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
      for (const args of [['jobs'], ['keys', 'list'], ['keys', 'set-tier', 'ncd_abc', 'pro']]) {
        const res = await runProcess([CLI, ...args], noDb);
        expect(res.code, args.join(' ')).toBe(1);
        expect(res.stderr).toContain(`No database in ${dataDir} (DATA_DIR)`);
      }
      const sync = await runProcess([CLI, 'sync', 'nope'], noDb);
      expect(sync.code).toBe(1);
      expect(sync.stderr).toMatch(/Unknown source "nope" \(known: .*brreg/);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
