// The read-replica section: PostgreSQL streaming replicas that take the reads (README "Scaling out").
import { ConfigError, int, str, url, type Env } from './env.ts';

export interface ReadReplicaConfig {
  /** Replica connection strings (DATABASE_READ_URL, comma-separated); empty: every read on the primary. */
  urls: string[];
  /** A replica whose replay is further behind than this leaves the rotation until it catches up. */
  maxLagMs: number;
}

export function readReplicas(env: Env, databaseUrl: string | undefined): ReadReplicaConfig {
  const raw = str(env, 'DATABASE_READ_URL');
  const urls = (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => url({ DATABASE_READ_URL: part }, 'DATABASE_READ_URL', undefined, ['postgres', 'postgresql'])!);
  // Replicas copy a server's primary: the embedded engine has none to copy.
  if (urls.length && !databaseUrl) {
    throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL (the primary the replicas follow)');
  }
  return { urls, maxLagMs: int(env, 'READ_REPLICA_MAX_LAG_MS', 5000, 0, 3_600_000) };
}
