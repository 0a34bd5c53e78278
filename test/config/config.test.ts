import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

const dir = () => mkdtempSync(path.join(tmpdir(), 'ncd-config-'));

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      baseUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      redisUrl: undefined,
      brregBaseUrl: 'https://data.brreg.no',
      syncSchedule: true,
      demoData: 'auto',
      trustProxy: false,
      allowPrivateDestinations: false,
      trialDays: 0,
      logLevel: 'info',
    });
  });

  it('defaults every upstream to https (the CVR default sent basic-auth credentials over http)', () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c.cvr.baseUrl).toBe('https://distribution.virk.dk');
    const urls: [string, string][] = [];
    const walk = (v: unknown, at: string): void => {
      if (typeof v === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(v)) urls.push([at, v]);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, at ? `${at}.${k}` : k);
    };
    walk(c, '');
    // Our own public address is not an upstream: it is http on localhost until BASE_URL says otherwise.
    const upstream = urls.filter(([, u]) => !/^http:\/\/localhost[:/]/.test(u));
    expect(upstream.length).toBeGreaterThan(10);
    expect(upstream.filter(([, u]) => !u.startsWith('https://'))).toEqual([]);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['BASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['BRREG_BASE_URL', 'ftp://x'],
    ['SYNC_SCHEDULE', 'maybe'],
    ['DEMO_DATA', 'sometimes'],
    ['TRUST_PROXY', 'not;a;cidr'],
    ['ALLOW_PRIVATE_DESTINATIONS', 'yes please'],
    ['TRIAL_DAYS', '-1'],
    ['LOG_LEVEL', 'loud'],
    ['SECRET_KEY', 'short'],
    ['SYNC_SECRET', 'short'],
  ])('stops on a bad %s, naming it', (name, value) => {
    let err: unknown;
    try {
      loadConfig({ DATA_DIR: dir(), [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(name);
    expect((err as Error).message).toContain(name);
  });

  it('never prints the value of a secret variable', () => {
    for (const [name, value] of [
      ['SECRET_KEY', 'tiny-secret'],
      ['DATABASE_URL', 'mysql://user:hunter2@db/x'],
      ['SYNC_SECRET', 'abc'],
    ]) {
      try {
        loadConfig({ DATA_DIR: dir(), [name]: value });
        expect.unreachable();
      } catch (e) {
        expect((e as Error).message).not.toContain(value);
      }
    }
  });

  it('generates SECRET_KEY into DATA_DIR with mode 0600 and reuses it', () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d });
    const file = path.join(d, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secretKey);
    expect(first.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({ DATA_DIR: d }).secretKey).toBe(first.secretKey);
  });

  it('parses TRUST_PROXY forms', () => {
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: '10.0.0.0/8, 192.168.0.1' }).trustProxy).toBe(
      '10.0.0.0/8,192.168.0.1',
    );
  });
});
