import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDue, runSlot, checkScheduleOverrides, nextRun } from '../../src/jobs/scheduler.ts';
import { UPDATES_STATE } from '../../src/jobs/brreg.ts';
import { DATA_SOURCES, sourceOfJob } from '../../src/domain/data-sources.ts';
import { findJob } from '../../src/jobs/index.ts';
import { effectiveSchedule, jobNames, runJob, shortReason } from '../../src/jobs/runner.ts';
import { ConfigError, loadConfig } from '../../src/config/index.ts';
import { runOperatorCommand } from '../../src/ops/commands.ts';
import { startFakeFileServer, type FakeFileServer } from '../fakes/file-server.ts';
import { http } from '../helpers/http.ts';
import { serverMode, TEST_SECRET } from '../helpers/env.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const SYNC_SECRET = 'scheduler-sync-secret-0123';
let server: TestServer;
let files: FakeFileServer;
const quiet = () => undefined;
const runsOf = async (source: string) =>
  (
    await server.ctx.store.pool.query(
      `SELECT status, message, slot, holder FROM sync_runs WHERE source = $1 ORDER BY id`,
      [source],
    )
  ).rows as {
    status: string;
    message: string | null;
    slot: Date | null;
    holder: string | null;
  }[];

beforeAll(async () => {
  files = await startFakeFileServer();
  server = await startServer({
    env: {
      INSPECTIONS_URL: `${files.url}/smilefjes-tilsyn.csv`,
      SYNC_SECRET,
      SYNC_CRON_PRH_UPDATES: 'off',
      SYNC_CRON_COVERAGE: '*/5 * * * * *',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await files?.close();
});

describe('scheduler', () => {
  it('schedules nothing on a fresh install (demo data and file imports download nothing)', async () => {
    for (const name of [
      'brreg',
      'brreg-updates',
      'regnskap',
      'inspections',
      'licenses',
      'prh',
      'bolagsverket',
      'domains',
      'sanctions',
    ]) {
      expect(await isDue(server.ctx, name), name).toBe(false);
    }
    // the coverage snapshot reads the store only: always due
    expect(await isDue(server.ctx, 'coverage')).toBe(true);
  });

  it('keeps a source fresh once it was synced from the network, not from a file', async () => {
    const runs = server.ctx.repos.syncRuns;
    await runs.finish(await runs.start('inspections', 'file'), 'ok', 10, null);
    expect(await isDue(server.ctx, 'inspections')).toBe(false);
    await runs.finish(await runs.start('inspections', 'upstream'), 'error', 0, 'timeout');
    expect(await isDue(server.ctx, 'inspections')).toBe(false);
    await runs.finish(await runs.start('inspections', 'upstream'), 'ok', 10, null);
    expect(await isDue(server.ctx, 'inspections')).toBe(true);
  });

  it('follows the brreg feed once a full load set its position', async () => {
    await server.ctx.repos.syncRuns.setState(UPDATES_STATE, { enheterId: 1, underenheterId: 1 });
    expect(await isDue(server.ctx, 'brreg-updates')).toBe(true);
  });

  it('never schedules licences without a configured source', async () => {
    expect(await isDue(server.ctx, 'licenses')).toBe(false);
    server.ctx.config.licensesUrl = 'http://127.0.0.1:9/licences.csv';
    expect(await isDue(server.ctx, 'licenses')).toBe(true);
    server.ctx.config.licensesUrl = undefined;
  });

  it('declares the cadences of the reference table, each overridable and each able to be switched off', () => {
    const declared = Object.fromEntries(
      [
        'brreg-updates',
        'brreg',
        'inspections',
        'licenses',
        'prh',
        'bolagsverket',
        'sanctions',
        'domains',
        'coverage',
      ].map((j) => [j, findJob(j)?.schedule]),
    );
    expect(declared).toEqual({
      'brreg-updates': '*/15 * * * *',
      brreg: '0 3 1 * *',
      inspections: '0 5 * * 1',
      licenses: '0 7 * * 1',
      prh: '0 3 * * 1',
      bolagsverket: '0 5 * * *',
      sanctions: '30 4 * * *',
      domains: '0 1 * * 1-6',
      coverage: '0 2 * * *',
    });
    expect(effectiveSchedule(server.ctx.config, 'coverage')).toBe('*/5 * * * * *');
    expect(effectiveSchedule(server.ctx.config, 'prh-updates')).toBeUndefined();
    expect(nextRun(server.ctx, 'coverage', new Date('2026-05-20T02:00:01Z'))?.toISOString()).toBe(
      '2026-05-20T02:00:05.000Z',
    );
    expect(nextRun(server.ctx, 'prh-updates', new Date())).toBeNull();
    expect(nextRun(server.ctx, 'inspections', new Date('2026-05-20T12:00:00Z'))?.toISOString()).toBe(
      '2026-05-25T05:00:00.000Z',
    ); // next Monday
  });

  it('refuses a bad cron expression and an override naming no job, naming the variable', () => {
    const base = { SECRET_KEY: TEST_SECRET, DATA_DIR: server.config.dataDir };
    expect(() => loadConfig({ ...base, SYNC_CRON_COVERAGE: 'every night' })).toThrow(
      /SYNC_CRON_COVERAGE must be a cron expression/,
    );
    expect(loadConfig({ ...base, SYNC_CRON_BRREG_UPDATES: '0 */5 * * * *' }).syncCron).toEqual({
      'brreg-updates': '0 */5 * * * *',
    });
    const typo = { ...server.ctx, config: loadConfig({ ...base, SYNC_CRON_BREG: '* * * * *' }) };
    expect(() => checkScheduleOverrides(typo)).toThrow(ConfigError);
    expect(() => checkScheduleOverrides(typo)).toThrow(/SYNC_CRON_BREG names no job/);
  });

  it('runs a slot once: the same slot again is skipped, the next slot runs', async () => {
    const slot = new Date('2026-05-20T02:00:00Z');
    expect(await runSlot(server.ctx, 'coverage', slot)).toBe('ran');
    expect(await runSlot(server.ctx, 'coverage', slot)).toBe('skipped');
    expect(await runSlot(server.ctx, 'coverage', new Date('2026-05-20T02:00:05Z'))).toBe('ran');
    const runs = (await runsOf('coverage')).filter((r) => r.slot !== null);
    expect(runs.map((r) => [r.status, new Date(r.slot!).toISOString()])).toEqual([
      ['ok', '2026-05-20T02:00:00.000Z'],
      ['ok', '2026-05-20T02:00:05.000Z'],
    ]);
    expect(runs[0].holder).toMatch(new RegExp(`:${process.pid}:`));
  });

  it('records a failing source as error with a short reason, retries it at the next slot, and other jobs still run', async () => {
    // inspections is due (synced from the network above); its upstream now answers 404
    expect(await runSlot(server.ctx, 'inspections', new Date('2026-05-25T05:00:00Z'))).toBe('failed');
    expect(await runSlot(server.ctx, 'coverage', new Date('2026-05-25T05:00:00Z'))).toBe('ran');
    files.files.set('/smilefjes-tilsyn.csv', 'tilsynsobjektid;orgnummer\n');
    expect(await runSlot(server.ctx, 'inspections', new Date('2026-06-01T05:00:00Z'))).toBe('failed');
    const runs = (await runsOf('inspections')).filter((r) => r.slot !== null);
    expect(runs).toHaveLength(2);
    for (const r of runs) {
      expect(r.status).toBe('error');
      expect(r.message!.length).toBeGreaterThan(0);
      expect(r.message!.length).toBeLessThanOrEqual(200);
      expect(r.message).not.toContain('\n');
    }
    expect(runs[0].message).toMatch(/404/);
    const health = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SYNC_SECRET } });
    expect(health.body.dataSources.inspections).toMatchObject({ status: 'error', message: runs[1].message });
    expect(health.body.dataSources.coverage).toMatchObject({ status: 'ok' });
  });

  it('keeps reasons short and free of URL credentials and query strings', () => {
    expect(shortReason(new Error('GET https://user:pa55@example.org/file.csv?token=abc answered 500\nstack…'))).toBe(
      'GET https://example.org/file.csv answered 500',
    );
    expect(shortReason(new Error('x'.repeat(600)))).toHaveLength(200);
  });

  it('never runs a job whose previous run is still going (in this process or holding the lease elsewhere)', async () => {
    const leases = server.ctx.repos.jobLeases;
    // another process holds the groups lease, mid-run
    expect(await leases.claim({ job: 'groups', holder: 'other-host:1:abc', ttlMs: 3_600_000 })).toBe(true);
    if (serverMode) {
      await expect(runJob(server.ctx, 'groups', {}, quiet)).rejects.toThrow(/already running in another process/);
      await leases.release('groups', 'other-host:1:abc');
    } else {
      // embedded: one process owns the store, so that holder is dead
      await expect(runJob(server.ctx, 'groups', {}, quiet)).resolves.toMatchObject({ status: 'ok' });
    }
    // in this process: a second run while the first is going is refused
    const first = runJob(server.ctx, 'groups', {}, quiet);
    await expect(runJob(server.ctx, 'groups', {}, quiet)).rejects.toThrow(/already running/);
    await first;
  });
});

describe('health dataSources', () => {
  it('has one entry per source name, folding the jobs that feed each', async () => {
    const r = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SYNC_SECRET } });
    expect(Object.keys(r.body.dataSources).sort()).toEqual(
      [
        'bolagsverket',
        'bolagsverket-financials',
        'brreg-snapshot',
        'brreg-updates',
        'coverage',
        'cvr',
        'cvr-financials',
        'domains',
        'doffin',
        'inspections',
        'licenses',
        'prh',
        'prh-financials',
        'regnskap',
        'sanctions',
        'shareholders',
        'statistics:DK',
        'statistics:FI',
        'statistics:NO',
        'statistics:SE',
        'ted',
      ].sort(),
    );
    expect(Object.keys(DATA_SOURCES).sort()).toEqual(Object.keys(r.body.dataSources).sort());
    expect(r.body.dataSources.bolagsverket).toEqual({
      lastSync: null,
      status: 'never',
      recordsProcessed: 0,
      lastSuccess: null,
      message: null,
    });
    expect(Object.keys(r.body.records).sort()).toEqual([
      'companies',
      'financials',
      'inspections',
      'licenses',
      'procurementNotices',
      'roles',
    ]);
    // the full brreg load is three jobs, one source; prh-updates feeds prh
    expect(['brreg', 'brreg-subunits', 'brreg-roles'].map(sourceOfJob)).toEqual([
      'brreg-snapshot',
      'brreg-snapshot',
      'brreg-snapshot',
    ]);
    expect(sourceOfJob('prh-updates')).toBe('prh');
    const runs = server.ctx.repos.syncRuns;
    await runs.finish(await runs.start('brreg', 'file'), 'ok', 50, null);
    await runs.finish(await runs.start('brreg-roles', 'file'), 'error', 7, 'line 9: bad role');
    const after = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SYNC_SECRET } });
    expect(after.body.dataSources['brreg-snapshot']).toMatchObject({
      status: 'error',
      recordsProcessed: 7,
      message: 'line 9: bad role',
      lastSuccess: expect.any(String),
    });
  });
});

describe('ncd jobs', () => {
  it('lists every job with its schedule, last run and next run, and runs one now through the same lease', async () => {
    const listed = (await runOperatorCommand(server.ctx, server.services, { command: 'jobs' }, quiet)) as {
      jobs: {
        name: string;
        schedule: string | null;
        nextRun: string | null;
        scheduled: boolean;
        lastRun: { status: string } | null;
        source: string | null;
      }[];
    };
    expect(listed.jobs.map((j) => j.name)).toEqual(jobNames());
    const coverage = listed.jobs.find((j) => j.name === 'coverage')!;
    expect(coverage).toMatchObject({ schedule: '*/5 * * * * *', source: 'coverage', lastRun: { status: 'ok' } });
    expect(new Date(coverage.nextRun!).getTime()).toBeGreaterThan(Date.now() - 1000);
    expect(listed.jobs.find((j) => j.name === 'prh-updates')).toMatchObject({ schedule: null, nextRun: null });
    // Bolagsverket has a schedule but is never run by the scheduler before a first sync from the
    // network: no next run is shown for it.
    expect(listed.jobs.find((j) => j.name === 'bolagsverket')).toMatchObject({
      schedule: '0 5 * * *',
      scheduled: false,
      lastRun: null,
      nextRun: null,
    });

    const before = (await runsOf('coverage')).length;
    const ran = (await runOperatorCommand(
      server.ctx,
      server.services,
      { command: 'jobs run', name: 'coverage' },
      quiet,
    )) as {
      status: string;
    };
    expect(ran.status).toBe('ok');
    const runs = await runsOf('coverage');
    expect(runs).toHaveLength(before + 1);
    expect(runs.at(-1)).toMatchObject({ status: 'ok', slot: null });
    await expect(
      runOperatorCommand(server.ctx, server.services, { command: 'jobs run', name: 'nope' }, quiet),
    ).rejects.toThrow(/Unknown source "nope"/);
  });
});
