// API-key management: register (with the setup e-mail), rotate, usage and its history, requests
// for a higher tier, and the operator's tier and limit changes. Verification on the request
// path lives in key-auth.ts.
import type { Logger } from 'pino';
import type { Config } from '../../config/index.ts';
import { generateRawKey, keyPrefixOf } from '../../domain/api-key.ts';
import { signupNetworkOf } from '../../domain/client-network.ts';
import type { Clock } from '../../domain/clock.ts';
import {
  firstOfNextMonthUtc,
  lastUtcDays,
  nextUtcMidnight,
  TIER_NAMES,
  utcDay,
  utcMonthStart,
  type EffectiveLimits,
} from '../../domain/limits.ts';
import { ApiError } from '../../errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { KeyPrefixCollisionError, ProjectNameTakenError, type ApiKeyRepository } from '../../store/access/api-keys.ts';
import type { RateWindows } from '../../store/access/rate-windows.ts';
import type { Repositories } from '../../store/repositories.ts';
import type { UsageRepository } from '../../store/access/usage.ts';
import { toAuthContext, type AuthContext, type KeyAuthService } from './key-auth.ts';

/** Days of history the setup page charts. */
const USAGE_HISTORY_DAYS = 30;

/** Registrations and access requests share this per-IP window. */
const SIGNUP_WINDOW = { name: 'signup-ip', points: 3, durationSec: 3600 };

class UnknownKeyError extends Error {}
class UnknownTierError extends Error {}

function publicLimits(l: EffectiveLimits) {
  return {
    rateLimitPerMinute: l.rateLimitPerMinute,
    dailyLimit: l.dailyLimit,
    monthlyLimit: l.monthlyLimit,
    maxPageSize: l.maxPageSize,
  };
}

/** Unicode-aware case folding for uniqueness of project names. */
function projectNameKey(name: string): string {
  return name.trim().normalize('NFC').toLocaleLowerCase('und');
}

interface AccessRequestInput {
  projectName: string;
  email: string;
  organisation?: string;
  requestedTier: string;
  message?: string;
}

export interface KeyManagementServiceDeps {
  apiKeys: ApiKeyRepository;
  usage: UsageRepository;
  accessRequests: Repositories['accessRequests'];
  /** Hashes keys, and forgets cached verifications after a change. */
  auth: KeyAuthService;
  rateWindows: RateWindows;
  clock: Clock;
  mailer: Mailer;
  log: Pick<Logger, 'warn' | 'info'>;
  /** Read per call: the test harness points baseUrl at its port after the app is built. */
  config: Pick<Config, 'baseUrl'>;
}

export function createKeyManagementService(deps: KeyManagementServiceDeps) {
  const { apiKeys, auth, clock } = deps;
  // The raw key rides in the link's query: the setup page moves it out of the address bar.
  const setupUrlOf = (raw: string, publicBaseUrl?: string) =>
    `${publicBaseUrl ?? deps.config.baseUrl}/setup?key=${encodeURIComponent(raw)}`;

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
    const w = await deps.rateWindows.consume(
      SIGNUP_WINDOW.name,
      signupNetworkOf(clientIp),
      SIGNUP_WINDOW.points,
      SIGNUP_WINDOW.durationSec,
    );
    if (!w.allowed) {
      const retryAfter = Math.max(1, Math.ceil(w.resetMs / 1000));
      throw new ApiError('registration_limited', { headers: { 'Retry-After': retryAfter }, extra: { retryAfter } });
    }
  }

  async function usage(caller: AuthContext) {
    await auth.flushUsage();
    const now = clock.now();
    const counts = await deps.usage.read(caller.projectId, utcDay(now), utcMonthStart(now));
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
    await auth.flushUsage();
    const now = clock.now();
    const series = lastUtcDays(now, days);
    const rows = await deps.usage.history(caller.projectId, series[0], series[series.length - 1]);
    const counted = new Map(rows.map((r) => [r.day, r.count]));
    return series.map((day) => ({ day, count: counted.get(day) ?? 0 }));
  }

  /** GET /api/keys/usage and the setup page: usage with the last 30 days. */
  async function usageWithHistory(caller: AuthContext) {
    const [current, history] = await Promise.all([usage(caller), usageHistory(caller)]);
    return { ...current, history };
  }

  /** Replaces the unknown key of a never-used project and mails the new one to its address. */
  async function recoverByMail(nameKey: string, email: string, publicBaseUrl?: string) {
    const { raw, result } = await withFreshKey((raw) =>
      apiKeys.reclaimUnused({ nameKey, email, keyHash: auth.hash(raw), keyPrefix: keyPrefixOf(raw) }),
    ).finally(auth.forgetVerified);
    if (!result) return;
    deps.log.info({ deactivated: result.deactivated }, 'unused registration recovered: new key sent by e-mail');
    try {
      await deps.mailer.sendSetupLink({
        to: result.email,
        projectName: result.projectName,
        setupUrl: setupUrlOf(raw, publicBaseUrl),
        keyPrefix: keyPrefixOf(raw),
      });
    } catch (err) {
      deps.log.warn({ err: (err as Error).message, keyPrefix: keyPrefixOf(raw) }, 'recovery e-mail could not be sent');
    }
  }

  return {
    guardSignupRate,
    usage,
    usageHistory,
    usageWithHistory,

    /**
     * Creates a free project and its key. A taken name is a 409 for every caller, with the same
     * body whatever the e-mail sent. Crash-safe recovery proves possession of the project's
     * address: when the name and e-mail match a project that was never used (no request, no
     * destination, never rotated) and never moved off the free tier or given limits, its unknown
     * key is replaced and the new one goes by e-mail to that address only, never in an answer.
     * Without SMTP nothing is recovered (the mail would reach nobody).
     */
    async register(input: { projectName: string; email: string; description?: string }, publicBaseUrl?: string) {
      const now = clock.now();
      const projectName = input.projectName.trim();
      const email = input.email.trim();
      const nameKey = projectNameKey(projectName);
      const taken = () =>
        new ApiError('project_name_taken', {
          details: [
            {
              path: 'body.projectName',
              message:
                'is already taken (if it is your project and it was never used, a new setup link was sent to its e-mail address)',
            },
          ],
        });
      let made;
      try {
        made = await withFreshKey(async (raw) => {
          const key = { keyHash: auth.hash(raw), keyPrefix: keyPrefixOf(raw) };
          return apiKeys.createProject({
            name: projectName,
            nameKey,
            email,
            description: input.description?.trim() || null,
            tier: 'free',
            ...key,
            today: utcDay(now),
            monthStart: utcMonthStart(now),
          });
        });
      } catch (err) {
        if (!(err instanceof ProjectNameTakenError)) throw err;
        if (deps.mailer.delivers !== false) await recoverByMail(nameKey, email, publicBaseUrl);
        throw taken();
      }
      const { raw } = made;
      const record = (await apiKeys.findActiveByHash(auth.hash(raw)))!;
      const created = toAuthContext(record);
      const setupUrl = setupUrlOf(raw, publicBaseUrl);
      try {
        await deps.mailer.sendSetupLink({
          to: email,
          projectName,
          setupUrl,
          keyPrefix: created.keyPrefix,
        });
      } catch (err) {
        // The key exists and is returned now; a mail failure must not lose it.
        deps.log.warn({ err: (err as Error).message, keyPrefix: created.keyPrefix }, 'setup e-mail could not be sent');
      }
      return {
        raw,
        keyPrefix: created.keyPrefix,
        projectName,
        tier: created.tier,
        setupUrl,
        limits: publicLimits(created.limits),
      };
    },

    /** The new key's setup link comes back too, so a rotated key is as easy to hand over as a new one. */
    async rotate(caller: AuthContext, publicBaseUrl?: string) {
      const { raw, result } = await withFreshKey((raw) =>
        apiKeys.rotate(caller.keyId, auth.hash(raw), keyPrefixOf(raw)),
      ).finally(auth.forgetVerified);
      if (!result) throw new ApiError('key_not_found');
      return {
        raw,
        keyPrefix: keyPrefixOf(raw),
        projectName: caller.projectName,
        tier: caller.tier,
        setupUrl: setupUrlOf(raw, publicBaseUrl),
        rotatedFrom: result.rotatedFrom,
      };
    },

    /**
     * What the setup page shows for a raw key (its route refuses malformed ones first): usage,
     * limits and history, or undefined when the key is unknown or rotated away. Reading it is
     * not counted as usage.
     */
    async setupOverview(raw: string) {
      const caller = await auth.authenticate(raw);
      if (!caller) return undefined;
      return usageWithHistory(caller);
    },

    /** A request for a higher tier, under the per-IP window that registration uses. */
    async requestAccess(clientIp: string, input: AccessRequestInput) {
      await guardSignupRate(clientIp);
      const row = await deps.accessRequests.create({
        projectName: input.projectName.trim(),
        email: input.email.trim(),
        organisation: input.organisation?.trim() || null,
        requestedTier: input.requestedTier,
        message: input.message?.trim() || null,
      });
      return { id: String(row.id), status: row.status, createdAt: new Date(row.created_at).toISOString() };
    },

    async setTier(keyPrefix: string, tier: string) {
      if (!(TIER_NAMES as readonly string[]).includes(tier) && !(await apiKeys.tierExists(tier)))
        throw new UnknownTierError(`Unknown tier "${tier}" (known: ${TIER_NAMES.join(', ')})`);
      const record = await apiKeys.findActiveByPrefix(keyPrefix);
      if (!record) throw new UnknownKeyError(`No active key with prefix ${keyPrefix}`);
      await apiKeys.setTier(record.projectId, tier).finally(auth.forgetVerified);
      return toAuthContext((await apiKeys.findActiveByPrefix(keyPrefix))!);
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
      const record = await apiKeys.findActiveByPrefix(keyPrefix);
      if (!record) throw new UnknownKeyError(`No active key with prefix ${keyPrefix}`);
      await apiKeys.setLimits(record.projectId, limits).finally(auth.forgetVerified);
      return toAuthContext((await apiKeys.findActiveByPrefix(keyPrefix))!);
    },

    /** `ncd keys list`: keys with their project, tier, state and counted requests (no hashes). */
    async listKeys(opts: { project?: string; all?: boolean } = {}) {
      const keys = await apiKeys.listKeys({
        project: opts.project === undefined ? undefined : projectNameKey(opts.project),
        includeInactive: opts.all,
      });
      return keys.map((k) => ({
        ...k,
        createdAt: new Date(k.createdAt).toISOString(),
        deactivatedAt: k.deactivatedAt ? new Date(k.deactivatedAt).toISOString() : null,
      }));
    },

    /**
     * `ncd keys deactivate`: the key stops working at once here and within the key cache's
     * second on other processes. Its project (name, usage, destinations) stays.
     */
    async deactivate(keyPrefix: string) {
      const done = await apiKeys.deactivateByPrefix(keyPrefix).finally(auth.forgetVerified);
      if (!done) throw new UnknownKeyError(`No active key with prefix ${keyPrefix}`);
      return { keyPrefix, active: false };
    },
  };
}

export type KeyManagementService = ReturnType<typeof createKeyManagementService>;
