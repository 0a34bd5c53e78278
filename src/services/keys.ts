// API-key use cases: register, rotate, usage, and the operator's tier and limit changes.
import type { AppContext } from '../context.ts';
import { generateRawKey, hashApiKey, keyPrefixOf } from '../domain/api-key.ts';
import {
  effectiveLimits,
  firstOfNextMonthUtc,
  lastUtcDays,
  nextUtcMidnight,
  secondsUntil,
  TIER_NAMES,
  utcDay,
  utcMonthStart,
  type EffectiveLimits,
} from '../domain/limits.ts';
import { deriveKey } from '../domain/secrets.ts';
import { ApiError } from '../errors.ts';
import { KeyPrefixCollisionError, ProjectNameTakenError, type KeyRecord } from '../store/api-keys.ts';
import { createUsageCounter } from './usage-counter.ts';

/** Days of history the setup page charts. */
export const USAGE_HISTORY_DAYS = 30;

/** Registrations and access requests share this per-IP window. */
export const SIGNUP_WINDOW = { name: 'signup-ip', points: 3, durationSec: 3600 };

export class UnknownKeyError extends Error {}
export class UnknownTierError extends Error {}

/** The caller of a keyed route, as the auth hook resolved it. */
export interface AuthContext {
  keyId: number;
  keyPrefix: string;
  projectId: number;
  projectName: string;
  tier: string;
  limits: EffectiveLimits;
  projectCreatedAt: Date;
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

export function publicLimits(l: EffectiveLimits) {
  return {
    rateLimitPerMinute: l.rateLimitPerMinute,
    dailyLimit: l.dailyLimit,
    monthlyLimit: l.monthlyLimit,
    maxPageSize: l.maxPageSize,
  };
}

/** Unicode-aware case folding for uniqueness of project names. */
export function projectNameKey(name: string): string {
  return name.trim().normalize('NFC').toLocaleLowerCase('und');
}

/**
 * Verified keys are cached this long per process (hash -> caller), so the hot path does not
 * query the key, project and tier rows on every request. A change made through this process's
 * key service (rotate, set-tier, set-limits) clears the cache at once; a change made by another
 * process (the CLI in server mode, another replica) takes effect here within this bound.
 * Unknown keys are never cached: a key registered elsewhere works on its first request.
 */
export const KEY_CACHE_TTL_MS = 1000;
const KEY_CACHE_MAX = 10_000;

export function createKeyService(ctx: AppContext) {
  const pepper = deriveKey(ctx.config.secretKey, 'api-key-hash');
  const hash = (raw: string) => hashApiKey(pepper, raw);
  const verified = new Map<string, { at: number; caller: AuthContext }>();
  const unmetered = createUsageCounter(ctx.repos.usage, ctx.log);
  // Bumped by every change: a read that began before it must not cache what it read.
  let generation = 0;
  const forgetVerified = () => {
    generation++;
    verified.clear();
  };

  /** Retries the rare prefix collision with a fresh key. */
  async function withFreshKey<T>(fn: (raw: string) => Promise<T>): Promise<{ raw: string; result: T }> {
    for (let attempt = 0; ; attempt++) {
      const raw = generateRawKey();
      try {
        return { raw, result: await fn(raw) };
      } catch (err) {
        if (!(err instanceof KeyPrefixCollisionError) || attempt >= 5) throw err;
      }
    }
  }

  async function guardSignupRate(clientIp: string) {
    const w = await ctx.rateWindows.consume(
      SIGNUP_WINDOW.name,
      clientIp,
      SIGNUP_WINDOW.points,
      SIGNUP_WINDOW.durationSec,
    );
    if (!w.allowed) {
      const retryAfter = Math.max(1, Math.ceil(w.resetMs / 1000));
      throw new ApiError('registration_limited', { headers: { 'Retry-After': retryAfter }, extra: { retryAfter } });
    }
  }

  async function authenticate(raw: string): Promise<AuthContext | undefined> {
    const h = hash(raw);
    // Monotonic time: a test clock or a wall-clock step must not stretch an entry's life.
    const now = performance.now();
    const hit = verified.get(h);
    if (hit && now - hit.at < KEY_CACHE_TTL_MS) return hit.caller;
    const gen = generation;
    const record = await ctx.repos.apiKeys.findActiveByHash(h);
    verified.delete(h);
    if (!record) return undefined;
    const caller = toAuthContext(record);
    if (gen === generation) {
      if (verified.size >= KEY_CACHE_MAX) verified.clear();
      verified.set(h, { at: now, caller });
    }
    return caller;
  }

  async function usage(caller: AuthContext) {
    await unmetered.flush();
    const now = ctx.clock.now();
    const counts = await ctx.repos.usage.read(caller.projectId, utcDay(now), utcMonthStart(now));
    const l = caller.limits;
    return {
      projectName: caller.projectName,
      tier: caller.tier,
      keyPrefix: caller.keyPrefix,
      limits: { ...publicLimits(l), canPush: l.canPush, requireFilterOnSearch: l.requireFilterOnSearch },
      usage: {
        today: counts.today,
        thisMonth: counts.thisMonth,
        total: counts.total,
        dailyRemaining: l.dailyLimit === null ? null : Math.max(0, l.dailyLimit - counts.today),
        monthlyRemaining: l.monthlyLimit === null ? null : Math.max(0, l.monthlyLimit - counts.thisMonth),
      },
      resets: { daily: nextUtcMidnight(now).toISOString(), monthly: firstOfNextMonthUtc(now).toISOString() },
    };
  }

  /** Requests counted per UTC day over the last `days` days (today last), 0 for quiet days. */
  async function usageHistory(caller: AuthContext, days = USAGE_HISTORY_DAYS) {
    await unmetered.flush();
    const now = ctx.clock.now();
    const series = lastUtcDays(now, days);
    const rows = await ctx.repos.usage.history(caller.projectId, series[0], series[series.length - 1]);
    const counted = new Map(rows.map((r) => [r.day, r.count]));
    return series.map((day) => ({ day, count: counted.get(day) ?? 0 }));
  }

  return {
    hash,
    guardSignupRate,
    authenticate,
    usage,
    usageHistory,

    /** `publicBaseUrl`: where the caller reached us (the setup link points there); default BASE_URL. */
    async register(input: { projectName: string; email: string; description?: string }, publicBaseUrl?: string) {
      const now = ctx.clock.now();
      const projectName = input.projectName.trim();
      const { raw } = await withFreshKey((raw) =>
        ctx.repos.apiKeys.createProject({
          name: projectName,
          nameKey: projectNameKey(projectName),
          email: input.email.trim(),
          description: input.description?.trim() || null,
          tier: 'free',
          keyHash: hash(raw),
          keyPrefix: keyPrefixOf(raw),
          today: utcDay(now),
          monthStart: utcMonthStart(now),
        }),
      ).catch((err) => {
        if (err instanceof ProjectNameTakenError)
          throw new ApiError('project_name_taken', {
            details: [{ path: 'body.projectName', message: 'is already taken' }],
          });
        throw err;
      });
      const record = (await ctx.repos.apiKeys.findActiveByHash(hash(raw)))!;
      const auth = toAuthContext(record);
      const setupUrl = `${publicBaseUrl ?? ctx.config.baseUrl}/setup?key=${encodeURIComponent(raw)}`;
      try {
        await ctx.mailer.sendSetupLink({ to: input.email.trim(), projectName, setupUrl, keyPrefix: auth.keyPrefix });
      } catch (err) {
        // The key exists and is returned now; a mail failure must not lose it.
        ctx.log.warn({ err: (err as Error).message, keyPrefix: auth.keyPrefix }, 'setup e-mail could not be sent');
      }
      return {
        raw,
        keyPrefix: auth.keyPrefix,
        projectName,
        tier: auth.tier,
        setupUrl,
        limits: publicLimits(auth.limits),
      };
    },

    async rotate(caller: AuthContext) {
      const { raw, result } = await withFreshKey((raw) =>
        ctx.repos.apiKeys.rotate(caller.keyId, hash(raw), keyPrefixOf(raw)),
      ).finally(forgetVerified);
      if (!result) throw new ApiError('key_not_found');
      return {
        raw,
        keyPrefix: keyPrefixOf(raw),
        projectName: caller.projectName,
        tier: caller.tier,
        rotatedFrom: result.rotatedFrom,
      };
    },

    /**
     * What the setup page shows for a raw key (its route refuses malformed ones first): usage,
     * limits and history, or undefined when the key is unknown or rotated away. Reading it is
     * not counted as usage.
     */
    async setupOverview(raw: string) {
      const caller = await authenticate(raw);
      if (!caller) return undefined;
      const [current, history] = await Promise.all([usage(caller), usageHistory(caller)]);
      return { ...current, history };
    },

    /** Counts one request against the daily and monthly quotas, or throws a 429. */
    async chargeQuota(caller: AuthContext): Promise<void> {
      const now = ctx.clock.now();
      if (!caller.limits.dailyLimit && !caller.limits.monthlyLimit) {
        unmetered.count(caller.projectId, utcDay(now), utcMonthStart(now));
        return;
      }
      const r = await ctx.repos.usage.consume(
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

    /** Writes usage still counted in memory (the server calls it when it stops). */
    flushUsage: () => unmetered.flush(),

    isTrialExpired(caller: AuthContext): boolean {
      const days = ctx.config.trialDays;
      if (days <= 0 || caller.tier !== 'free') return false;
      return ctx.clock.now().getTime() - caller.projectCreatedAt.getTime() > days * 86_400_000;
    },

    async setTier(keyPrefix: string, tier: string) {
      if (!(TIER_NAMES as readonly string[]).includes(tier) && !(await ctx.repos.apiKeys.tierExists(tier)))
        throw new UnknownTierError(`Unknown tier "${tier}" (known: ${TIER_NAMES.join(', ')})`);
      const record = await ctx.repos.apiKeys.findActiveByPrefix(keyPrefix);
      if (!record) throw new UnknownKeyError(`No active key with prefix ${keyPrefix}`);
      await ctx.repos.apiKeys.setTier(record.projectId, tier).finally(forgetVerified);
      return toAuthContext((await ctx.repos.apiKeys.findActiveByPrefix(keyPrefix))!);
    },

    async setLimits(
      keyPrefix: string,
      limits: {
        rateLimitPerMinute?: number | null;
        dailyLimit?: number | null;
        monthlyLimit?: number | null;
        maxPageSize?: number | null;
      },
    ) {
      const record = await ctx.repos.apiKeys.findActiveByPrefix(keyPrefix);
      if (!record) throw new UnknownKeyError(`No active key with prefix ${keyPrefix}`);
      await ctx.repos.apiKeys.setLimits(record.projectId, limits).finally(forgetVerified);
      return toAuthContext((await ctx.repos.apiKeys.findActiveByPrefix(keyPrefix))!);
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
