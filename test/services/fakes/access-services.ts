// The access use cases (key auth, key management, OAuth and its consent step) composed as
// runtime/services.ts composes them, over the in-memory access store, rate windows and mailer.
import { createKeyAuthService } from '../../../src/services/access/key-auth.ts';
import { createKeyManagementService } from '../../../src/services/access/key-management.ts';
import { createOAuthAuthorizeService } from '../../../src/services/access/oauth-authorize.ts';
import { createOAuthService } from '../../../src/services/access/oauth.ts';
import { FakeClock } from '../../helpers/fake-clock.ts';
import { FakeAccessRequests, FakeApiKeys } from './access-store.ts';
import { FakeMailer, fakeLog } from './ports.ts';
import { FakeUsage } from './usage-store.ts';
import { FakeOAuthStore } from './oauth-store.ts';
import { FakeRateWindows } from './rate-windows.ts';

export const BASE = 'https://ncd.example';
const SECRET = 'service-tests-secret-0123456789abcdef';

export function accessServicesWithFakes(opts: { trialDays?: number } = {}) {
  const clock = new FakeClock(new Date('2026-03-02T10:00:00Z'));
  const rateWindows = new FakeRateWindows(clock);
  const usage = new FakeUsage();
  const apiKeys = new FakeApiKeys(clock, usage);
  const accessRequests = new FakeAccessRequests(clock);
  const mailer = new FakeMailer();
  const oauthStore = new FakeOAuthStore(apiKeys);
  const log = fakeLog();
  const config = { baseUrl: BASE, trialDays: opts.trialDays ?? 0, upgradeUrl: `${BASE}/pricing` };
  const keyAuth = createKeyAuthService({ apiKeys, usage, rateWindows, clock, log, secretKey: SECRET, config });
  const keys = createKeyManagementService({
    apiKeys,
    usage,
    accessRequests,
    auth: keyAuth,
    rateWindows,
    clock,
    mailer,
    log,
    config,
  });
  const oauth = createOAuthService({ oauth: oauthStore, apiKeys, rateWindows, clock, secretKey: SECRET });
  const oauthAuthorize = createOAuthAuthorizeService({
    oauth: oauthStore,
    tokens: oauth,
    keyAuth,
    keys,
    rateWindows,
    clock,
  });
  return {
    clock,
    rateWindows,
    usage,
    apiKeys,
    accessRequests,
    mailer,
    oauthStore,
    log,
    config,
    keyAuth,
    keys,
    oauth,
    oauthAuthorize,
  };
}
