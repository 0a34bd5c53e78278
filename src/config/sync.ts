// The sync section: whether the scheduler runs, per-job cron overrides, the job lease and the
// demo data of an empty store.
import { Cron } from 'croner';
import { ConfigError, bool, int, oneOf, shown, str, type Env } from './env.ts';

export interface SyncConfig {
  syncSchedule: boolean;
  /** Per-job cron overrides from SYNC_CRON_<JOB> (job name upper-cased, `-` as `_`); 'off' disables one. */
  syncCron: Record<string, string>;
  /** How long a job's lease lasts without renewal (a crashed holder's job is free after this). */
  syncLeaseMs: number;
  demoData: 'auto' | 'off';
}

/** SYNC_CRON_<JOB>=<cron (5 or 6 fields, UTC)|off>, keyed by job name (`SYNC_CRON_BRREG_UPDATES` -> brreg-updates). */
function syncCron(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(env)) {
    if (!name.startsWith('SYNC_CRON_')) continue;
    const raw = str(env, name);
    if (raw === undefined) continue;
    const job = name.slice('SYNC_CRON_'.length).toLowerCase().replace(/_/g, '-');
    if (raw.toLowerCase() === 'off') {
      out[job] = 'off';
      continue;
    }
    try {
      new Cron(raw, { paused: true, timezone: 'UTC' }).stop();
    } catch (err) {
      throw new ConfigError(
        name,
        `must be a cron expression (5 fields, or 6 with seconds) or off${shown(name, raw)}: ${(err as Error).message}`,
      );
    }
    out[job] = raw;
  }
  return out;
}

export function sync(env: Env): SyncConfig {
  return {
    syncSchedule: bool(env, 'SYNC_SCHEDULE', true),
    syncCron: syncCron(env),
    syncLeaseMs: int(env, 'SYNC_LEASE_SECONDS', 60, 2, 3600) * 1000,
    demoData: oneOf(env, 'DEMO_DATA', 'auto', ['auto', 'off'] as const),
  };
}
