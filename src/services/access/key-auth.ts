// API-key authentication on the request path: verify a raw key (with a short per-process
// cache), the trial check, the per-minute rate window and the daily/monthly quota.
import type { Logger } from 'pino';
import type { Config } from '../../config/index.ts';
import { hashApiKey } from '../../domain/api-key.ts';
import type { Clock } from '../../domain/clock.ts';
import {
  effectiveLimits,
  firstOfNextMonthUtc,
  nextUtcMidnight,
  secondsUntil,
  utcDay,
  utcMonthStart,
  type EffectiveLimits,
} from '../../domain/limits.ts';
import { deriveKey } from '../../domain/secrets.ts';
import { makeServiceToken, serviceTokenKeyPrefix, verifyServiceToken } from '../../domain/service-token.ts';
import { ApiError } from '../../errors.ts';
import type { ApiKeyRepository, KeyRecord } from '../../store/access/api-keys.ts';
import type { RateWindows } from '../../store/access/rate-windows.ts';
import type { UsageRepository } from '../../store/access/usage.ts';
import { createUsageCounter } from '../support/usage-counter.ts';

/** The caller of a keyed route, as the auth hook resolved it. */
export interface AuthContext {
  keyId: number;
  keyPrefix: string;
  projectId: number;
  projectName: string;
  tier: string;
  limits: EffectiveLimits;
  projectCreatedAt: Date;
  /** Set for an OAuth access token: what it may do (an API key may do everything). */
  scopes?: readonly string[];
}

export function toAuthContext(r: KeyRecord): AuthContext {
  return {
    keyId: r.keyId,
    keyPrefix: r.keyPrefix,
    projectId: r.projectId,
    projectName: r.projectName,
    tier: r.tier,
    limits: effectiveLimits(r.tierDefaults, r.overrides),
    projectCreatedAt: new Date(r.projectCreatedAt),
  };
}

/**
 * Verified keys are cached this long per process (hash -> caller), so the hot path does not
 * query the key, project and tier rows on every request. A change made through this process's
 * key services (rotate, set-tier, set-limits) clears the cache at once; a change made by another
 * process (the CLI in server mode, another replica) takes effect here within this bound.
 * Unknown keys are never cached: a key registered elsewhere works on its first request.
 */
export const KEY_CACHE_TTL_MS = 1000;
const KEY_CACHE_MAX = 10_000;

/** The per-minute window after one request: what the RateLimit-* headers report. */
interface RateWindowState {
  limit: number;
  remaining: number;
  resetSec: number;
  allowed: boolean;
}

export interface KeyAuthServiceDeps {
  apiKeys: ApiKeyRepository;
  usage: UsageRepository;
  rateWindows: RateWindows;
  clock: Clock;
  log: Pick<Logger, 'warn'>;
  /** Peppers the stored key hashes. */
  secretKey: string;
  /** Read per call: the test harness points upgradeUrl at its port after the app is built. */
  config: Pick<Config, 'trialDays' | 'upgradeUrl'>;
}

export function createKeyAuthService(deps: KeyAuthServiceDeps) {
  const { apiKeys, clock, config } = deps;
  const pepper = deriveKey(deps.secretKey, 'api-key-hash');
  const hash = (raw: string) => hashApiKey(pepper, raw);
  const tokenKey = deriveKey(deps.secretKey, 'service-token');
  const verified = new Map<string, { at: number; caller: AuthContext }>();
  const unmetered = createUsageCounter(deps.usage, deps.log);
  // Bumped by every change: a read that began before it must not cache what it read.
  let generation = 0;

  return {
    hash,

    async authenticate(raw: string): Promise<AuthContext | undefined> {
      const h = hash(raw);
      // Monotonic time: a test clock or a wall-clock step must not stretch an entry's life.
      const now = performance.now();
      const hit = verified.get(h);
      if (hit && now - hit.at < KEY_CACHE_TTL_MS) return hit.caller;
      const gen = generation;
      const record = await apiKeys.findActiveByHash(h);
      verified.delete(h);
      if (!record) return undefined;
      const caller = toAuthContext(record);
      if (gen === generation) {
        if (verified.size >= KEY_CACHE_MAX) verified.clear();
        verified.set(h, { at: now, caller });
      }
      return caller;
    },

    /** The key's service token (the reconciliation service URL carries it instead of a header). */
    serviceToken: (caller: Pick<AuthContext, 'keyId' | 'keyPrefix'>) =>
      makeServiceToken(tokenKey, caller.keyId, caller.keyPrefix),

    /** The caller a service token belongs to; undefined for a forged, rotated or deactivated one. */
    async authenticateServiceToken(token: string): Promise<AuthContext | undefined> {
      const prefix = serviceTokenKeyPrefix(token);
      if (!prefix) return undefined;
      const record = await apiKeys.findActiveByPrefix(prefix);
      if (!record || !verifyServiceToken(tokenKey, token, record.keyId, record.keyPrefix)) return undefined;
      return toAuthContext(record);
    },

    /** Drops every cached verification (after a key, tier or limit change in this process). */
    forgetVerified() {
      generation++;
      verified.clear();
    },

    /**
     * Whether a caller authenticated earlier still holds: its key is active (not rotated away,
     * not deactivated) and its trial has not run out. Read from the store, not the verified-key
     * cache, so a long-lived connection (the event stream) sees a change within one check.
     */
    async stillValid(caller: AuthContext): Promise<boolean> {
      const record = await apiKeys.findActiveById(caller.keyId);
      if (!record) return false;
      const days = config.trialDays;
      return !(
        days > 0 &&
        record.tier === 'free' &&
        clock.now().getTime() - record.projectCreatedAt.getTime() > days * 86_400_000
      );
    },

    /** 402 `trial_expired` for a free key older than TRIAL_DAYS (0 = no trial). */
    guardTrial(caller: AuthContext): void {
      const days = config.trialDays;
      if (days <= 0 || caller.tier !== 'free') return;
      if (clock.now().getTime() - caller.projectCreatedAt.getTime() > days * 86_400_000)
        throw new ApiError('trial_expired', { extra: { upgradeUrl: config.upgradeUrl } });
    },

    /** Counts one request in the key's per-minute window; undefined when the key has no such limit. */
    async consumeRate(caller: AuthContext): Promise<RateWindowState | undefined> {
      const rpm = caller.limits.rateLimitPerMinute;
      if (rpm === null) return undefined;
      const w = await deps.rateWindows.consume('rpm', String(caller.projectId), rpm, 60);
      return {
        limit: rpm,
        remaining: w.remaining,
        resetSec: Math.max(1, Math.ceil(w.resetMs / 1000)),
        allowed: w.allowed,
      };
    },

    /** Counts one request against the daily and monthly quotas, or throws a 429. */
    async chargeQuota(caller: AuthContext): Promise<void> {
      const now = clock.now();
      if (!caller.limits.dailyLimit && !caller.limits.monthlyLimit) {
        unmetered.count(caller.projectId, utcDay(now), utcMonthStart(now));
        return;
      }
      const r = await deps.usage.consume(
        caller.projectId,
        utcDay(now),
        utcMonthStart(now),
        caller.limits.dailyLimit ?? 0,
        caller.limits.monthlyLimit ?? 0,
      );
      if (r.ok) return;
      const resetAt = r.exhausted === 'daily' ? nextUtcMidnight(now) : firstOfNextMonthUtc(now);
      const retryAfter = secondsUntil(now, resetAt);
      throw new ApiError(r.exhausted === 'daily' ? 'daily_quota_exceeded' : 'monthly_quota_exceeded', {
        headers: { 'Retry-After': retryAfter },
        extra: { retryAfter },
      });
    },

    /** Writes usage still counted in memory (before a usage read, and when the server stops). */
    flushUsage: () => unmetered.flush(),
  };
}

export type KeyAuthService = ReturnType<typeof createKeyAuthService>;
