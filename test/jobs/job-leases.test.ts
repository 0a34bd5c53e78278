// The job lease row on both engines: one holder at a time, a slot is claimed once, a lease the
// holder stops renewing can be taken over, and release keeps the claimed slot.
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderIsDeadHere, runJob } from '../../src/jobs/runner.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const leases = () => server.ctx.repos.jobLeases;
const T0 = new Date('2026-05-20T02:00:00Z');
const later = (s: number) => new Date(T0.getTime() + s * 1000);
const HOUR = 3_600_000;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('job leases', () => {
  it('lets one holder claim a slot, and nobody claim that slot (or an earlier one) again', async () => {
    expect(await leases().claim({ job: 'a', holder: 'p1', ttlMs: HOUR, slot: T0 })).toBe(true);
    // held: neither another process nor a later slot gets it
    expect(await leases().claim({ job: 'a', holder: 'p2', ttlMs: HOUR, slot: T0 })).toBe(false);
    expect(await leases().claim({ job: 'a', holder: 'p2', ttlMs: HOUR, slot: later(2) })).toBe(false);
    expect(await leases().claim({ job: 'a', holder: 'p2', ttlMs: HOUR })).toBe(false);
    await leases().release('a', 'p1');
    // free, but the slot was run: not again, nor an older one; the next one is fine
    expect(await leases().claim({ job: 'a', holder: 'p2', ttlMs: HOUR, slot: T0 })).toBe(false);
    expect(await leases().claim({ job: 'a', holder: 'p3', ttlMs: HOUR, slot: later(-2) })).toBe(false);
    expect(await leases().claim({ job: 'a', holder: 'p2', ttlMs: HOUR, slot: later(2) })).toBe(true);
    expect((await leases().list()).find((l) => l.job === 'a')).toMatchObject({
      holder: 'p2',
      slot: later(2).toISOString(),
    });
  });

  it('keeps the claimed slot when a run by hand takes the lease, and jobs do not block each other', async () => {
    await leases().release('a', 'p2');
    expect(await leases().claim({ job: 'a', holder: 'cli', ttlMs: HOUR })).toBe(true);
    expect(await leases().claim({ job: 'b', holder: 'p1', ttlMs: HOUR, slot: T0 })).toBe(true);
    await leases().release('a', 'cli');
    expect((await leases().list()).find((l) => l.job === 'a')).toMatchObject({
      holder: null,
      slot: later(2).toISOString(),
      expiresAt: null,
    });
    expect(await leases().claim({ job: 'a', holder: 'p1', ttlMs: HOUR, slot: later(2) })).toBe(false);
  });

  it('frees an expired lease (a crashed holder) for another process, and the old holder cannot renew it', async () => {
    // ttl 0: expired as soon as it was taken, as a holder that died without renewing
    expect(await leases().claim({ job: 'c', holder: 'dead', ttlMs: 0, slot: T0 })).toBe(true);
    expect(await leases().claim({ job: 'c', holder: 'p2', ttlMs: HOUR, slot: T0 })).toBe(false); // that slot was claimed
    expect(await leases().claim({ job: 'c', holder: 'p2', ttlMs: HOUR, slot: later(2) })).toBe(true);
    expect(await leases().renew('c', 'dead', HOUR)).toBe(false);
    expect(await leases().renew('c', 'p2', HOUR)).toBe(true);
    await leases().release('c', 'dead'); // a late release by the old holder changes nothing
    expect((await leases().list()).find((l) => l.job === 'c')).toMatchObject({ holder: 'p2' });
  });

  it('lets exactly one of many concurrent claims of a slot win', async () => {
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => leases().claim({ job: 'd', holder: `p${i}`, ttlMs: HOUR, slot: T0 })),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('treats another holder as dead when told to (embedded mode: one process owns the store)', async () => {
    expect(await leases().claim({ job: 'e', holder: 'old-process', ttlMs: HOUR, slot: T0 })).toBe(true);
    expect(
      await leases().claim({ job: 'e', holder: 'me', ttlMs: HOUR, slot: later(2), ignoreOtherHolders: true }),
    ).toBe(true);
    expect(
      await leases().claim({ job: 'e', holder: 'me', ttlMs: HOUR, slot: later(2), ignoreOtherHolders: true }),
    ).toBe(false);
  });

  it('lets a re-run take the lease of a process of this host that died (Ctrl-C or SIGKILL of `ncd sync`)', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid; // exited: its pid names no process
    expect(await leases().claim({ job: 'coverage', holder: `${hostname()}:${gone}:aaaaaa`, ttlMs: HOUR })).toBe(true);
    const r = await runJob(server.ctx, 'coverage', {}, () => undefined);
    expect(r.status).toBe('ok');
    // A live process of this host keeps its lease (pid 1 always exists); embedded mode owns the
    // store alone and takes it anyway, as the test above shows.
    expect(holderIsDeadHere(`${hostname()}:1:aaaaaa`)).toBe(false);
    expect(holderIsDeadHere(`${hostname()}:${gone}:aaaaaa`)).toBe(true);
    expect(holderIsDeadHere(`another-host:${gone}:aaaaaa`)).toBe(false);
  });
});
