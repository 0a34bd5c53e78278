// Every environment variable, parsed and validated once at boot, one section per file beside
// this one. A bad value stops start-up with a message that names the variable; secrets are never
// echoed.
import path from 'node:path';
import { crm } from './crm.ts';
import { ConfigError, bool, int, oneOf, str, url, type Env } from './env.ts';
import { evidence } from './evidence.ts';
import { httpLimits, trustProxy } from './http.ts';
import { monitoring } from './monitoring.ts';
import { readReplicas } from './read-replicas.ts';
import { secretKey } from './secret-key.ts';
import { sync } from './sync.ts';
import type { Config } from './types.ts';
import { liveFetch, upstreams, webProfile } from './upstreams.ts';

export { ConfigError } from './env.ts';
export type { TrustProxy } from './http.ts';
export type { MonitoringConfig } from './monitoring.ts';
export type { ReadReplicaConfig } from './read-replicas.ts';
export type { Config } from './types.ts';
export type { EvidenceConfig } from './evidence.ts';
export type { CrmConfig } from './crm.ts';
export type { LiveFetchConfig } from './upstreams.ts';
export { configWarnings } from './warnings.ts';

/** `auto`: readable lines for a person at a terminal, JSON for log collectors and files. */
const logFormat = (given: 'auto' | 'json' | 'pretty') =>
  given === 'auto' ? (process.stdout.isTTY ? 'pretty' : 'json') : given;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const baseUrl = url(env, 'BASE_URL', `http://localhost:${port}`, ['http', 'https'])!;
  const dataDir = path.resolve(str(env, 'DATA_DIR') ?? './data');
  const databaseUrl = url(env, 'DATABASE_URL', undefined, ['postgres', 'postgresql']);
  const redisUrl = url(env, 'REDIS_URL', undefined, ['redis', 'rediss']);
  const logLevel = oneOf(env, 'LOG_LEVEL', 'info', LOG_LEVELS);
  const syncSecret = str(env, 'SYNC_SECRET');
  if (syncSecret !== undefined && syncSecret.length < 16) {
    throw new ConfigError('SYNC_SECRET', 'must be at least 16 characters long');
  }
  // In the order the variables were always read, so the first bad one is the one reported.
  return {
    port,
    host,
    baseUrl,
    baseUrlConfigured: str(env, 'BASE_URL') !== undefined,
    databaseUrl,
    readReplicas: readReplicas(env, databaseUrl),
    dataDir,
    redisUrl,
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'ncd',
    syncSecret,
    secretKey: secretKey(env, dataDir),
    ...upstreams(env),
    smtpUrl: url(env, 'SMTP_URL', undefined, ['smtp', 'smtps']),
    mailFrom: str(env, 'MAIL_FROM') ?? 'Nordic Company Data <no-reply@localhost>',
    ...sync(env),
    trustProxy: trustProxy(env),
    allowPrivateDestinations: bool(env, 'ALLOW_PRIVATE_DESTINATIONS', false),
    trialDays: int(env, 'TRIAL_DAYS', 0, 0, 36500),
    logLevel,
    logFormat: logFormat(oneOf(env, 'LOG_FORMAT', 'auto', ['auto', 'json', 'pretty'] as const)),
    nodeEnv: str(env, 'NODE_ENV'),
    upgradeUrl: `${baseUrl}/activate`,
    statementTimeoutMs: int(env, 'STATEMENT_TIMEOUT_MS', 30000, 100, 3600000),
    http: httpLimits(env),
    liveFetch: liveFetch(env),
    monitoring: monitoring(env),
    evidence: evidence(env, dataDir),
    crm: crm(env),
    webProfile: webProfile(env),
    recordCache: {
      maxEntries: int(env, 'RECORD_CACHE_ENTRIES', 20000, 0, 1000000),
      maxBytes: int(env, 'RECORD_CACHE_MB', 64, 1, 4096) * 1024 * 1024,
      pollMs: int(env, 'RECORD_CACHE_POLL_MS', 250, 20, 900),
    },
  };
}
