// DATABASE_READ_URL and READ_REPLICA_MAX_LAG_MS: parsed once at boot, refused with the variable's
// name, never echoing the connection string (it may hold a password).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

const PRIMARY = 'postgres://ncd:pw@primary:5432/ncd';

describe('read-replica configuration', () => {
  it('has no replicas and a 5000 ms lag bound by default', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/x' }).readReplicas).toEqual({ urls: [], maxLagMs: 5000 });
  });

  it('takes several comma-separated replica URLs and the lag bound', () => {
    const c = loadConfig({
      DATABASE_URL: PRIMARY,
      DATABASE_READ_URL: ' postgres://ncd:pw@replica-a:5432/ncd , postgresql://ncd@replica-b/ncd,',
      READ_REPLICA_MAX_LAG_MS: '1500',
    });
    expect(c.readReplicas).toEqual({
      urls: ['postgres://ncd:pw@replica-a:5432/ncd', 'postgresql://ncd@replica-b/ncd'],
      maxLagMs: 1500,
    });
  });

  it('refuses a replica that is not a PostgreSQL URL, without echoing it', () => {
    let err: unknown;
    try {
      loadConfig({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'mysql://ncd:secretpw@replica/ncd' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe('DATABASE_READ_URL');
    expect((err as Error).message).not.toContain('secretpw');
  });

  it('refuses replicas without a primary (the embedded engine has nothing to replicate)', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/ncd' })).toThrow(
      /DATABASE_READ_URL needs DATABASE_URL/,
    );
  });

  it('refuses a lag bound that is not a whole number of milliseconds', () => {
    expect(() => loadConfig({ DATABASE_URL: PRIMARY, READ_REPLICA_MAX_LAG_MS: '5s' })).toThrow(
      /READ_REPLICA_MAX_LAG_MS/,
    );
  });
});
