import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDue } from '../../src/jobs/scheduler.ts';
import { UPDATES_STATE } from '../../src/jobs/brreg.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('scheduler', () => {
  it('schedules nothing on a fresh install (demo data and file imports download nothing)', async () => {
    for (const name of ['brreg', 'brreg-updates', 'regnskap', 'inspections', 'licenses', 'prh', 'bolagsverket', 'domains', 'sanctions']) {
      expect(await isDue(server.ctx, name), name).toBe(false);
    }
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
  });
});
