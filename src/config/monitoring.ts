// The monitoring section: the event log's retention, the event stream and watchlists.
import { int, type Env } from './env.ts';

export interface MonitoringConfig {
  retentionDays: number;
  heartbeatMs: number;
  /** How often an open event stream re-checks its key (rotated, deactivated, trial over). */
  streamCredentialCheckMs: number;
  deliveryIntervalMs: number;
  /** Companies per watchlist, by tier. */
  watchlistCompanies: Record<'free' | 'pro' | 'enterprise' | 'internal', number>;
}

export function monitoring(env: Env): MonitoringConfig {
  return {
    retentionDays: int(env, 'EVENT_RETENTION_DAYS', 400, 1, 36500),
    heartbeatMs: int(env, 'EVENT_STREAM_HEARTBEAT_MS', 15_000, 100, 300_000),
    streamCredentialCheckMs: int(env, 'EVENT_STREAM_CREDENTIAL_CHECK_MS', 5000, 100, 60_000),
    deliveryIntervalMs: int(env, 'WATCHLIST_DELIVERY_INTERVAL_MS', 5000, 0, 3_600_000),
    watchlistCompanies: {
      free: 25,
      pro: 5000,
      enterprise: int(env, 'WATCHLIST_MAX_COMPANIES_ENTERPRISE', 50_000, 1, 10_000_000),
      internal: int(env, 'WATCHLIST_MAX_COMPANIES_INTERNAL', 50_000, 1, 10_000_000),
    },
  };
}
