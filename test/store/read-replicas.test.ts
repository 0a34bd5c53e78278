// The read router's pure parts: LSN order, which errors send a read to the primary, what health
// may show of a connection string; and the record cache's second report of a change.
import { describe, expect, it } from 'vitest';
import { hostOf, isConnectionError, parseLsn } from '../../src/store/engine/read-replicas.ts';
import { repeatedAfter, type CompanyChanges } from '../../src/store/company-changes.ts';

describe('read router helpers', () => {
  it('orders LSNs by both halves', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).toBe(true);
    expect(parseLsn(null)).toBeNull();
  });

  it('counts a lost connection, a shutdown and a standby conflict as connection errors, not a bad query', () => {
    expect(isConnectionError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('x'), { code: '40001' }))).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('syntax'), { code: '42601' }))).toBe(false);
    expect(isConnectionError(Object.assign(new Error('timeout'), { code: '57014' }))).toBe(false);
  });

  it('shows host:port only, never the user or password', () => {
    expect(hostOf('postgres://ncd:secret@replica-a:6543/ncd')).toBe('replica-a:6543');
    expect(hostOf('postgresql://replica-b/ncd')).toBe('replica-b:5432');
  });
});

describe('repeatedAfter', () => {
  it('reports each change again once the delay has passed, and only once', async () => {
    const polls: CompanyChanges[] = [{ keys: ['NO:1'] }, { keys: [] }, { keys: ['NO:2'] }, { keys: [] }, { keys: [] }];
    let t = 0;
    const follower = repeatedAfter({ poll: async () => polls.shift()! }, 1000, () => t);
    expect(await follower.poll()).toEqual({ keys: ['NO:1'] });
    t = 500;
    expect(await follower.poll()).toEqual({ keys: [] });
    t = 1000;
    expect(await follower.poll()).toEqual({ keys: ['NO:2', 'NO:1'] });
    t = 2100;
    expect(await follower.poll()).toEqual({ keys: ['NO:2'] });
    t = 5000;
    expect(await follower.poll()).toEqual({ keys: [] });
  });

  it('repeats a change of everything as a change of everything', async () => {
    const polls: CompanyChanges[] = [{ all: true }, { keys: ['NO:3'] }];
    let t = 0;
    const follower = repeatedAfter({ poll: async () => polls.shift()! }, 100, () => t);
    expect(await follower.poll()).toEqual({ all: true });
    t = 200;
    expect(await follower.poll()).toEqual({ all: true });
  });
});
