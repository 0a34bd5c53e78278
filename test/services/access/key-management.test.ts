// Key management on fakes: registration (setup e-mail, name uniqueness, reclaiming a lost
// registration, prefix collisions), rotation, deactivation, the operator's tier and limit changes,
// and the per-network window that registration and access requests share.
import { describe, expect, it } from 'vitest';
import { isWellFormedKey, keyPrefixOf } from '../../../src/domain/api-key.ts';
import { KeyPrefixCollisionError } from '../../../src/store/access/api-keys.ts';
import { accessServicesWithFakes, BASE } from '../fakes/access-services.ts';
import { apiError, rejection } from '../fakes/errors.ts';

const acme = { projectName: '  Acme Analytics ', email: ' ops@acme.example ', description: 'CRM sync' };

describe('key management: register', () => {
  it('creates a free project whose key works, mails the setup link and stores only a hash', async () => {
    const { keys, keyAuth, mailer, apiKeys } = accessServicesWithFakes();
    const created = await keys.register(acme);
    expect(isWellFormedKey(created.raw)).toBe(true);
    expect(created).toMatchObject({
      keyPrefix: keyPrefixOf(created.raw),
      projectName: 'Acme Analytics',
      tier: 'free',
      limits: { rateLimitPerMinute: 20, dailyLimit: 500, monthlyLimit: 5000, maxPageSize: 20 },
      setupUrl: `${BASE}/setup?key=${created.raw}`,
    });
    expect(mailer.sent).toEqual([
      {
        to: 'ops@acme.example',
        projectName: 'Acme Analytics',
        setupUrl: created.setupUrl,
        keyPrefix: created.keyPrefix,
      },
    ]);
    expect(apiKeys.storedHashes()).not.toContain(created.raw);
    expect((await keyAuth.authenticate(created.raw))?.projectName).toBe('Acme Analytics');
  });

  it('the setup link uses the public base URL the request came in on, when given', async () => {
    const { keys } = accessServicesWithFakes();
    const created = await keys.register(acme, 'https://proxy.example');
    expect(created.setupUrl.startsWith('https://proxy.example/setup?key=ncd_')).toBe(true);
  });

  it('a name taken under another e-mail is 409 project_name_taken, whatever its case or spacing', async () => {
    const { keys } = accessServicesWithFakes();
    await keys.register(acme);
    const err = await apiError(keys.register({ projectName: 'ACME analytics', email: 'other@x.example' }));
    expect(err.code).toBe('project_name_taken');
    expect(err.status).toBe(409);
    expect(err.opts.details).toEqual([
      {
        path: 'body.projectName',
        message:
          'is already taken (if it is your project and it was never used, a new setup link was sent to its e-mail address)',
      },
    ]);
  });

  it('a taken name never hands a key to the caller: a never-used project is recovered by e-mail only', async () => {
    const { keys, keyAuth, mailer, log } = accessServicesWithFakes();
    const lost = await keys.register(acme);
    const again = await apiError(keys.register({ projectName: 'acme analytics', email: 'OPS@acme.example' }));
    // The same 409 as for anyone, no key in it.
    expect(again.code).toBe('project_name_taken');
    expect(JSON.stringify(again)).not.toMatch(/ncd_/);
    // The new key went to the project's stored address only.
    const mail = mailer.sent.at(-1)!;
    expect(mailer.sent).toHaveLength(2);
    expect(mail.to).toBe('ops@acme.example');
    const recovered = new URL(mail.setupUrl).searchParams.get('key')!;
    expect(await keyAuth.authenticate(lost.raw)).toBeUndefined();
    expect((await keyAuth.authenticate(recovered))?.projectName).toBe('Acme Analytics');
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'info', obj: { deactivated: lost.keyPrefix } }));
  });

  it('a taken name with another e-mail changes nothing and answers the same', async () => {
    const { keys, keyAuth, mailer } = accessServicesWithFakes();
    const first = await keys.register(acme);
    const other = await apiError(keys.register({ projectName: 'Acme Analytics', email: 'attacker@evil.example' }));
    const same = await apiError(keys.register({ projectName: 'Acme Analytics', email: 'ops@acme.example' }));
    expect(other.opts.details).toEqual(same.opts.details);
    expect(mailer.sent.filter((m) => m.to !== 'ops@acme.example')).toEqual([]);
    expect(await keyAuth.authenticate(first.raw)).toBeUndefined(); // recovered by its owner's address
  });

  it('a project whose tier or limits the operator changed is never recovered', async () => {
    for (const change of ['tier', 'limits'] as const) {
      const { keys, keyAuth, mailer } = accessServicesWithFakes();
      const first = await keys.register(acme);
      if (change === 'tier') await keys.setTier(first.keyPrefix, 'pro');
      else await keys.setLimits(first.keyPrefix, { dailyLimit: 100000 });
      expect((await apiError(keys.register(acme))).code).toBe('project_name_taken');
      expect(await keyAuth.authenticate(first.raw)).toBeDefined();
      expect(mailer.sent).toHaveLength(1);
    }
  });

  it('without SMTP (mail only logged) nothing is recovered', async () => {
    const { keys, keyAuth, mailer } = accessServicesWithFakes();
    const first = await keys.register(acme);
    (mailer as { delivers?: boolean }).delivers = false;
    expect((await apiError(keys.register(acme))).code).toBe('project_name_taken');
    expect(await keyAuth.authenticate(first.raw)).toBeDefined();
    expect(mailer.sent).toHaveLength(1);
  });

  it('a registration that was used is not reclaimed', async () => {
    const { keys, keyAuth } = accessServicesWithFakes();
    const first = await keys.register(acme);
    await keyAuth.chargeQuota((await keyAuth.authenticate(first.raw))!);
    expect((await apiError(keys.register(acme))).code).toBe('project_name_taken');
    expect(await keyAuth.authenticate(first.raw)).toBeDefined();
  });

  it('a failed setup e-mail does not lose the key; the warning names only its prefix', async () => {
    const { keys, keyAuth, mailer, log } = accessServicesWithFakes();
    mailer.failing = true;
    const created = await keys.register(acme);
    expect(await keyAuth.authenticate(created.raw)).toBeDefined();
    const warning = log.lines.find((l) => l.level === 'warn')!;
    expect(warning.obj.keyPrefix).toBe(created.keyPrefix);
    expect(JSON.stringify(warning)).not.toContain(created.raw);
  });

  it('a key-prefix collision is retried with a fresh key, up to six attempts', async () => {
    const { keys, keyAuth, apiKeys } = accessServicesWithFakes();
    apiKeys.collisions = 5;
    const created = await keys.register(acme);
    expect(await keyAuth.authenticate(created.raw)).toBeDefined();
    apiKeys.collisions = 6;
    expect(await rejection(keys.register({ projectName: 'Beta', email: 'b@x.example' }))).toBeInstanceOf(
      KeyPrefixCollisionError,
    );
  });
});

describe('key management: rotate and deactivate', () => {
  it('rotation hands out a new key for the same project; the old one stops working at once', async () => {
    const { keys, keyAuth } = accessServicesWithFakes();
    const created = await keys.register(acme);
    const caller = (await keyAuth.authenticate(created.raw))!; // now cached
    const rotated = await keys.rotate(caller);
    expect(rotated.rotatedFrom).toBe(created.keyPrefix);
    expect(rotated.setupUrl).toBe(`${BASE}/setup?key=${rotated.raw}`);
    expect(await keyAuth.authenticate(created.raw)).toBeUndefined();
    const next = (await keyAuth.authenticate(rotated.raw))!;
    expect(next.projectId).toBe(caller.projectId);
    expect(next.keyPrefix).toBe(rotated.keyPrefix);
  });

  it('rotating a key that is no longer active is 404 key_not_found', async () => {
    const { keys, keyAuth } = accessServicesWithFakes();
    const caller = (await keyAuth.authenticate((await keys.register(acme)).raw))!;
    await keys.rotate(caller);
    const err = await apiError(keys.rotate(caller));
    expect(err.code).toBe('key_not_found');
    expect(err.status).toBe(404);
  });

  it('a deactivated key stops working at once; its project stays listed', async () => {
    const { keys, keyAuth, clock } = accessServicesWithFakes();
    const created = await keys.register(acme);
    await keyAuth.authenticate(created.raw); // cached
    clock.advance(60_000);
    expect(await keys.deactivate(created.keyPrefix)).toEqual({ keyPrefix: created.keyPrefix, active: false });
    expect(await keyAuth.authenticate(created.raw)).toBeUndefined();
    await expect(keys.deactivate(created.keyPrefix)).rejects.toThrow(/^No active key with prefix ncd_/);
    expect(await keys.listKeys()).toEqual([]);
    expect(await keys.listKeys({ all: true, project: 'ACME ANALYTICS' })).toEqual([
      expect.objectContaining({
        keyPrefix: created.keyPrefix,
        active: false,
        deactivatedAt: '2026-03-02T10:01:00.000Z',
      }),
    ]);
  });
});

describe('key management: tiers and limits', () => {
  it('set-tier moves the project and the change is seen at once by a cached key', async () => {
    const { keys, keyAuth } = accessServicesWithFakes();
    const created = await keys.register(acme);
    expect((await keyAuth.authenticate(created.raw))!.tier).toBe('free');
    const moved = await keys.setTier(created.keyPrefix, 'pro');
    expect(moved.tier).toBe('pro');
    expect(moved.limits).toMatchObject({ rateLimitPerMinute: 60, dailyLimit: 5000, canPush: true });
    expect((await keyAuth.authenticate(created.raw))!.tier).toBe('pro');
  });

  it('set-tier refuses an unknown tier and an unknown key; a tier added to the store is accepted', async () => {
    const { keys, apiKeys } = accessServicesWithFakes();
    const created = await keys.register(acme);
    await expect(keys.setTier(created.keyPrefix, 'platinum')).rejects.toThrow('Unknown tier "platinum"');
    await expect(keys.setTier('ncd_00000000', 'pro')).rejects.toThrow(/^No active key with prefix ncd_/);
    apiKeys.tiers.set('partner', { ...apiKeys.tiers.get('pro')!, dailyLimit: 7 });
    expect((await keys.setTier(created.keyPrefix, 'partner')).limits.dailyLimit).toBe(7);
  });

  it('set-limits overrides per key: 0 is unlimited, null returns to the tier, omitted stays', async () => {
    const { keys, keyAuth } = accessServicesWithFakes();
    const created = await keys.register(acme);
    let l = (await keys.setLimits(created.keyPrefix, { dailyLimit: 0, rateLimitPerMinute: 5, maxPageSize: 500 }))
      .limits;
    expect(l).toMatchObject({ dailyLimit: null, rateLimitPerMinute: 5, monthlyLimit: 5000, maxPageSize: 100 });
    l = (await keys.setLimits(created.keyPrefix, { dailyLimit: null })).limits;
    expect(l).toMatchObject({ dailyLimit: 500, rateLimitPerMinute: 5 });
    expect((await keyAuth.authenticate(created.raw))!.limits.rateLimitPerMinute).toBe(5);
    await expect(keys.setLimits('ncd_00000000', { dailyLimit: 1 })).rejects.toThrow(/^No active key with prefix ncd_/);
  });
});

describe('key management: the registration window', () => {
  const request = { projectName: 'Acme', email: 'a@acme.example', requestedTier: 'pro' };

  it('three registrations or access requests per network per hour; the fourth is 429 with Retry-After', async () => {
    const { keys, accessRequests, clock } = accessServicesWithFakes();
    await keys.guardSignupRate('203.0.113.9');
    await keys.requestAccess('203.0.113.9', request);
    clock.advance(10 * 60_000);
    await keys.requestAccess('203.0.113.9', request);
    const err = await apiError(keys.requestAccess('203.0.113.9', request));
    expect(err.code).toBe('registration_limited');
    expect(err.opts.headers?.['Retry-After']).toBe(50 * 60);
    expect(err.opts.extra).toEqual({ retryAfter: 50 * 60 });
    expect(accessRequests.rows).toHaveLength(2);
    // Another address has its own window; this one opens again after the hour.
    await keys.requestAccess('198.51.100.1', request);
    clock.advance(50 * 60_000);
    expect((await keys.requestAccess('203.0.113.9', request)).status).toBe('pending');
  });

  it('IPv6 clients are counted per /64', async () => {
    const { keys } = accessServicesWithFakes();
    for (const host of ['1', '2', '3']) await keys.guardSignupRate(`2001:db8:1:2::${host}`);
    expect((await apiError(keys.guardSignupRate('2001:db8:1:2:ffff::9'))).code).toBe('registration_limited');
    await keys.guardSignupRate('2001:db8:1:3::1');
  });

  it('an access request is stored trimmed, with its id, status and time', async () => {
    const { keys, accessRequests } = accessServicesWithFakes();
    const r = await keys.requestAccess('192.0.2.1', {
      ...request,
      projectName: ' Acme ',
      organisation: ' ',
      message: ' hi ',
    });
    expect(r).toEqual({ id: '1', status: 'pending', createdAt: '2026-03-02T10:00:00.000Z' });
    expect(accessRequests.rows[0]).toMatchObject({ projectName: 'Acme', organisation: null, message: 'hi' });
  });
});
