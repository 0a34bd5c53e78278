// Effective limits of a project (tier defaults with per-project overrides) and the UTC
// calendar periods that daily and monthly quotas reset on.

interface TierDefaults {
  rateLimitPerMinute: number;
  dailyLimit: number;
  monthlyLimit: number;
  maxPageSize: number;
  canPush: boolean;
  requireFilterOnSearch: boolean;
}

interface LimitOverrides {
  rateLimitPerMinute?: number | null;
  dailyLimit?: number | null;
  monthlyLimit?: number | null;
  maxPageSize?: number | null;
}

/** Limits as served: `null` means unlimited (stored as 0). */
export interface EffectiveLimits {
  rateLimitPerMinute: number | null;
  dailyLimit: number | null;
  monthlyLimit: number | null;
  maxPageSize: number;
  canPush: boolean;
  requireFilterOnSearch: boolean;
}

const unlimitedAsNull = (n: number): number | null => (n === 0 ? null : n);

export function effectiveLimits(tier: TierDefaults, o: LimitOverrides): EffectiveLimits {
  return {
    rateLimitPerMinute: unlimitedAsNull(o.rateLimitPerMinute ?? tier.rateLimitPerMinute),
    dailyLimit: unlimitedAsNull(o.dailyLimit ?? tier.dailyLimit),
    monthlyLimit: unlimitedAsNull(o.monthlyLimit ?? tier.monthlyLimit),
    // Page size 0 ("unlimited") still means the API's own ceiling of 100.
    maxPageSize: Math.min(100, (o.maxPageSize ?? tier.maxPageSize) || 100),
    canPush: tier.canPush,
    requireFilterOnSearch: tier.requireFilterOnSearch,
  };
}

export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function utcMonthStart(now: Date): string {
  return now.toISOString().slice(0, 7) + '-01';
}

export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The last `days` UTC calendar days up to and including today's, oldest first. */
export function lastUtcDays(now: Date, days: number): string[] {
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) {
    out.push(utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - i))));
  }
  return out;
}

export function firstOfNextMonthUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Whole seconds from now until `at`, at least 1 (a Retry-After of 0 invites a hot loop). */
export function secondsUntil(now: Date, at: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
}

export const TIER_NAMES = ['free', 'pro', 'enterprise', 'internal'] as const;
