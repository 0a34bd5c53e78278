// The request path of a key on fakes: the trial, the per-minute window, the daily and monthly
// quotas (exact for keys with a quota, counted in memory and flushed for keys without), the usage
// a caller reads, and service tokens.
import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../../../src/services/access/key-auth.ts';
import { accessServicesWithFakes } from '../fakes/access-services.ts';
import { apiError } from '../fakes/errors.ts';

const DAY = 86_400_000;

async function withKey(opts: { trialDays?: number } = {}) {
  const s = accessServicesWithFakes(opts);
  const created = await s.keys.register({ projectName: 'Acme', email: 'ops@acme.example' });
  const caller = async () => (await s.keyAuth.authenticate(created.raw))!;
  return { ...s, created, caller };
}

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('key auth: trial', () => {
  it('a free key older than TRIAL_DAYS is 402 trial_expired with the upgrade URL; a paid one is not', async () => {
    const { keyAuth, keys, clock, caller, created, config } = await withKey({ trialDays: 14 });
    keyAuth.guardTrial(await caller());
    clock.advance(14 * DAY + 1);
    const free: AuthContext = await caller();
    expect(thrown(() => keyAuth.guardTrial(free))).toMatchObject({
      code: 'trial_expired',
      status: 402,
      opts: { extra: { upgradeUrl: config.upgradeUrl } },
    });
    await keys.setTier(created.keyPrefix, 'pro');
    keyAuth.guardTrial(await caller());
  });

  it('TRIAL_DAYS=0 is no trial', async () => {
    const { keyAuth, clock, caller } = await withKey({ trialDays: 0 });
    clock.advance(3650 * DAY);
    keyAuth.guardTrial(await caller());
  });
});

describe('key auth: the per-minute window', () => {
  it('counts requests against the tier rate; past it the window says no, and it opens again after a minute', async () => {
    const { keyAuth, caller, clock } = await withKey();
    const c = await caller();
    for (let i = 0; i < 20; i++) expect((await keyAuth.consumeRate(c))!.allowed).toBe(true);
    const over = (await keyAuth.consumeRate(c))!;
    expect(over).toMatchObject({ limit: 20, remaining: 0, allowed: false });
    expect(over.resetSec).toBeGreaterThanOrEqual(1);
    expect(over.resetSec).toBeLessThanOrEqual(60);
    clock.advance(60_000);
    expect((await keyAuth.consumeRate(c))!).toMatchObject({ allowed: true, remaining: 19 });
  });

  it('a key without a rate limit has no window', async () => {
    const { keyAuth, keys, created, caller } = await withKey();
    await keys.setLimits(created.keyPrefix, { rateLimitPerMinute: 0 });
    expect(await keyAuth.consumeRate(await caller())).toBeUndefined();
  });
});

describe('key auth: quotas', () => {
  it('the daily quota refuses with 429 and Retry-After until UTC midnight, and resets the next day', async () => {
    const { keyAuth, keys, created, caller, clock } = await withKey();
    await keys.setLimits(created.keyPrefix, { dailyLimit: 2 });
    const c = await caller();
    await keyAuth.chargeQuota(c);
    await keyAuth.chargeQuota(c);
    const err = await apiError(keyAuth.chargeQuota(c));
    expect(err.code).toBe('daily_quota_exceeded');
    expect(err.opts.headers?.['Retry-After']).toBe(14 * 3600);
    clock.set('2026-03-03T00:00:00Z');
    await keyAuth.chargeQuota(c);
    expect((await keys.usage(c)).usage).toMatchObject({ today: 1, thisMonth: 3, dailyRemaining: 1 });
  });

  it('the monthly quota waits for the first of next month', async () => {
    const { keyAuth, keys, created, caller } = await withKey();
    await keys.setLimits(created.keyPrefix, { dailyLimit: 0, monthlyLimit: 2 });
    const c = await caller();
    await keyAuth.chargeQuota(c);
    await keyAuth.chargeQuota(c);
    const err = await apiError(keyAuth.chargeQuota(c));
    expect(err.code).toBe('monthly_quota_exceeded');
    expect(err.opts.extra).toEqual({ retryAfter: (29 * 24 + 14) * 3600 }); // 2026-03-02T10:00 -> 04-01
  });

  it('a key without quotas is counted in memory and written in one batch before its usage is read', async () => {
    const { keyAuth, keys, usage, created, caller } = await withKey();
    await keys.setTier(created.keyPrefix, 'enterprise');
    const c = await caller();
    for (let i = 0; i < 5; i++) await keyAuth.chargeQuota(c);
    expect(usage.writes).toEqual([]);
    const read = await keys.usage(c);
    expect(usage.writes).toEqual([{ op: 'add', projectId: c.projectId, n: 5 }]);
    expect(read.usage).toEqual({ today: 5, thisMonth: 5, total: 5, dailyRemaining: null, monthlyRemaining: null });
    expect(read.resets).toEqual({ daily: '2026-03-03T00:00:00.000Z', monthly: '2026-04-01T00:00:00.000Z' });
  });

  it('the history has one entry per day for 30 days, today last, quiet days 0', async () => {
    const { keyAuth, keys, caller, clock } = await withKey();
    const c = await caller();
    await keyAuth.chargeQuota(c);
    clock.advance(DAY);
    await keyAuth.chargeQuota(c);
    await keyAuth.chargeQuota(c);
    const history = await keys.usageHistory(c);
    expect(history).toHaveLength(30);
    expect(history.slice(-3)).toEqual([
      { day: '2026-03-01', count: 0 },
      { day: '2026-03-02', count: 1 },
      { day: '2026-03-03', count: 2 },
    ]);
  });

  it('the setup overview answers for a live key only, and reading it is not usage', async () => {
    const { keys, usage, created, caller } = await withKey();
    const overview = (await keys.setupOverview(created.raw))!;
    expect(overview.keyPrefix).toBe(created.keyPrefix);
    expect(overview.history).toHaveLength(30);
    expect(usage.total((await caller()).projectId)).toBe(0);
    await keys.rotate(await caller());
    expect(await keys.setupOverview(created.raw)).toBeUndefined();
  });
});

describe('key auth: service tokens', () => {
  it('a service token acts as its key until the key rotates; a forged one is refused', async () => {
    const { keyAuth, keys, caller } = await withKey();
    const c = await caller();
    const token = keyAuth.serviceToken(c);
    expect((await keyAuth.authenticateServiceToken(token))?.keyId).toBe(c.keyId);
    expect(
      await keyAuth.authenticateServiceToken(token.slice(0, -2) + (token.endsWith('a') ? 'bb' : 'aa')),
    ).toBeUndefined();
    await keys.rotate(c);
    expect(await keyAuth.authenticateServiceToken(token)).toBeUndefined();
  });
});
