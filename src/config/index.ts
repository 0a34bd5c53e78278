// Every environment variable, parsed and validated once at boot.
// A bad value stops start-up with a message that names the variable; secrets are never echoed.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Cron } from 'croner';

export type TrustProxy = boolean | number | string;

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  /** False when BASE_URL is left at its default: public links then use the request's own host. */
  baseUrlConfigured: boolean;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so deployments (or test databases) can share one Redis. */
  redisPrefix: string;
  syncSecret: string | undefined;
  secretKey: string;
  brregBaseUrl: string;
  /** Deadline of one live request to brreg (headers and body), in ms. */
  brregTimeoutMs: number;
  prhBaseUrl: string;
  /** Denmark: CVR's system-til-system Elasticsearch; the jobs run only with both credentials set. */
  cvr: { baseUrl: string; username: string | undefined; password: string | undefined };
  bolagsverketBulkUrl: string;
  inspectionsUrl: string;
  licensesUrl: string | undefined;
  sanctionsUrl: string;
  /** Statistics bureaus' API roots (market context): SSB, SCB, Statistics Finland, Statistics Denmark. */
  statistics: { NO: string; SE: string; FI: string; DK: string };
  /** Procurement notices: Doffin's public API (key optional) and TED's search API. */
  procurement: { doffinBaseUrl: string; doffinApiKey: string | undefined; tedBaseUrl: string };
  smtpUrl: string | undefined;
  mailFrom: string;
  syncSchedule: boolean;
  /** Per-job cron overrides from SYNC_CRON_<JOB> (job name upper-cased, `-` as `_`); 'off' disables one. */
  syncCron: Record<string, string>;
  /** How long a job's lease lasts without renewal (a crashed holder's job is free after this). */
  syncLeaseMs: number;
  demoData: 'auto' | 'off';
  trustProxy: TrustProxy;
  allowPrivateDestinations: boolean;
  trialDays: number;
  logLevel: string;
  /** json, or pretty (pino-pretty): LOG_FORMAT, default pretty when stdout is a terminal. */
  logFormat: 'json' | 'pretty';
  nodeEnv: string | undefined;
  upgradeUrl: string;
  /** Per-statement timeout on request paths, in ms. */
  statementTimeoutMs: number;
  /** HTTP server limits against abuse (slow-loris, oversized requests); see README "Reliability". */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    maxHeaderBytes: number;
    maxUrlLength: number;
    bodyLimitBytes: number;
  };
  /** Protection of the registries behind live fetches (lookups, enrich); see README "Upstream protection". */
  liveFetch: LiveFetchConfig;
  /** Web-profile crawler (ENRICHMENT_* env names kept for existing deployments): fetches in flight, pause between
   * requests to one host, deadline per fetch. */
  webProfile: { concurrency: number; hostDelayMs: number; timeoutMs: number };
  /** Per-process cache of serialised company records (README "Record cache"); maxEntries 0 = off. */
  recordCache: { maxEntries: number; maxBytes: number; pollMs: number };
  /** Event log, event stream and watchlists; see README "Monitoring". */
  monitoring: MonitoringConfig;
}

export interface MonitoringConfig {
  retentionDays: number;
  heartbeatMs: number;
  deliveryIntervalMs: number;
  /** Companies per watchlist, by tier. */
  watchlistCompanies: Record<'free' | 'pro' | 'enterprise' | 'internal', number>;
}

export interface LiveFetchConfig {
  /** How long a number the registry does not know (404/410) is not asked for again. */
  negativeTtlMs: number;
  /** Requests per second to one upstream host, shared by every process (Redis or PostgreSQL). */
  ratePerSecond: number;
  /** How long a request may wait for the shared budget before it is answered `unavailable`. */
  rateWaitMs: number;
  /** Consecutive 5xx answers or timeouts that open the circuit breaker. */
  breakerFailures: number;
  /** How long an open breaker answers at once before one half-open probe is let through. */
  breakerResetMs: number;
  /** Upstream requests per key and UTC day by tier for live fetches (null: unlimited). */
  dailyBudget: Record<'free' | 'pro' | 'enterprise' | 'internal', number | null>;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

type Env = Record<string, string | undefined>;

const SECRET_VARIABLES = new Set(['SECRET_KEY', 'SYNC_SECRET', 'DATABASE_URL', 'REDIS_URL', 'SMTP_URL']);

function shown(name: string, value: string): string {
  return SECRET_VARIABLES.has(name) ? '' : ` (got "${value.slice(0, 80)}")`;
}

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}${shown(name, raw)}`);
  }
  return Number(raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  const v = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `must be true or false${shown(name, raw)}`);
}

function url(env: Env, name: string, fallback: string | undefined, schemes: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL${shown(name, raw)}`);
  }
  if (!schemes.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(name, `must use ${schemes.join(' or ')}${shown(name, raw)}`);
  }
  return raw.replace(/\/+$/, '');
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, values: readonly T[]): T {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(', ')}${shown(name, raw)}`);
  }
  return raw as T;
}

function trustProxy(env: Env): TrustProxy {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  if (/^\d+$/.test(raw)) return Number(raw);
  const parts = raw.split(',').map((p) => p.trim());
  const cidr = /^([0-9.]+|[0-9a-f:]+)(\/\d{1,3})?$/i;
  if (parts.every((p) => cidr.test(p))) return parts.join(',');
  throw new ConfigError(
    'TRUST_PROXY',
    `must be true, false, a hop count or a comma-separated CIDR list${shown('TRUST_PROXY', raw)}`,
  );
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

/** Reads SECRET_KEY, or the one generated earlier into DATA_DIR, or generates it (file mode 0600). */
/** `auto`: readable lines for a person at a terminal, JSON for log collectors and files. */
const logFormat = (given: 'auto' | 'json' | 'pretty') =>
  given === 'auto' ? (process.stdout.isTTY ? 'pretty' : 'json') : given;

function secretKey(env: Env, dataDir: string): string {
  const given = str(env, 'SECRET_KEY');
  if (given !== undefined) {
    if (given.length < 32) throw new ConfigError('SECRET_KEY', 'must be at least 32 characters long');
    return given;
  }
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length < 32)
      throw new ConfigError('SECRET_KEY', `stored in ${file} is too short; delete the file or set SECRET_KEY`);
    return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(32).toString('hex');
  writeFileSync(file, generated + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return generated;
}

function httpLimits(env: Env): Config['http'] {
  const headersTimeoutMs = int(env, 'HTTP_HEADERS_TIMEOUT_MS', 10000, 100, 600000);
  const requestTimeoutMs = int(env, 'HTTP_REQUEST_TIMEOUT_MS', 60000, 100, 3600000);
  // Node refuses a headers timeout longer than the whole-request timeout.
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', 'must not exceed HTTP_REQUEST_TIMEOUT_MS');
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72000, 100, 600000),
    maxHeaderBytes: int(env, 'HTTP_MAX_HEADER_BYTES', 16384, 1024, 1048576),
    maxUrlLength: int(env, 'HTTP_MAX_URL_LENGTH', 8192, 256, 1048576),
    bodyLimitBytes: int(env, 'HTTP_BODY_LIMIT_BYTES', 1048576, 1024, 104857600),
  };
}

function liveFetch(env: Env): LiveFetchConfig {
  const budget = (name: string, fallback: number) => int(env, name, fallback, 0, 100_000_000) || null;
  return {
    negativeTtlMs: int(env, 'LIVE_FETCH_NEGATIVE_TTL_HOURS', 24, 0, 24 * 365) * 3_600_000,
    ratePerSecond: int(env, 'UPSTREAM_RATE_PER_SECOND', 50, 1, 100_000),
    rateWaitMs: int(env, 'UPSTREAM_RATE_WAIT_MS', 3000, 0, 60_000),
    breakerFailures: int(env, 'UPSTREAM_BREAKER_FAILURES', 5, 1, 1000),
    breakerResetMs: int(env, 'UPSTREAM_BREAKER_RESET_MS', 30_000, 100, 3_600_000),
    dailyBudget: {
      free: budget('LIVE_FETCH_BUDGET_FREE', 400),
      pro: budget('LIVE_FETCH_BUDGET_PRO', 20_000),
      enterprise: budget('LIVE_FETCH_BUDGET_ENTERPRISE', 200_000),
      internal: budget('LIVE_FETCH_BUDGET_INTERNAL', 0),
    },
  };
}

function monitoring(env: Env): MonitoringConfig {
  return {
    retentionDays: int(env, 'EVENT_RETENTION_DAYS', 400, 1, 36500),
    heartbeatMs: int(env, 'EVENT_STREAM_HEARTBEAT_MS', 15_000, 100, 300_000),
    deliveryIntervalMs: int(env, 'WATCHLIST_DELIVERY_INTERVAL_MS', 5000, 0, 3_600_000),
    watchlistCompanies: {
      free: 25,
      pro: 5000,
      enterprise: int(env, 'WATCHLIST_MAX_COMPANIES_ENTERPRISE', 50_000, 1, 10_000_000),
      internal: int(env, 'WATCHLIST_MAX_COMPANIES_INTERNAL', 50_000, 1, 10_000_000),
    },
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const baseUrl = url(env, 'BASE_URL', `http://localhost:${port}`, ['http', 'https'])!;
  const dataDir = path.resolve(str(env, 'DATA_DIR') ?? './data');
  const databaseUrl = url(env, 'DATABASE_URL', undefined, ['postgres', 'postgresql']);
  const redisUrl = url(env, 'REDIS_URL', undefined, ['redis', 'rediss']);
  const logLevel = oneOf(env, 'LOG_LEVEL', 'info', [
    'fatal',
    'error',
    'warn',
    'info',
    'debug',
    'trace',
    'silent',
  ] as const);
  const syncSecret = str(env, 'SYNC_SECRET');
  if (syncSecret !== undefined && syncSecret.length < 16) {
    throw new ConfigError('SYNC_SECRET', 'must be at least 16 characters long');
  }
  return {
    port,
    host,
    baseUrl,
    baseUrlConfigured: str(env, 'BASE_URL') !== undefined,
    databaseUrl,
    dataDir,
    redisUrl,
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'ncd',
    syncSecret,
    secretKey: secretKey(env, dataDir),
    brregBaseUrl: url(env, 'BRREG_BASE_URL', 'https://data.brreg.no', ['http', 'https'])!,
    brregTimeoutMs: int(env, 'BRREG_TIMEOUT_MS', 10000, 100, 120000),
    prhBaseUrl: url(env, 'PRH_BASE_URL', 'https://avoindata.prh.fi/opendata-ytj-api/v3', ['http', 'https'])!,
    cvr: {
      baseUrl: url(env, 'CVR_BASE_URL', 'http://distribution.virk.dk', ['http', 'https'])!,
      username: str(env, 'CVR_USERNAME'),
      password: str(env, 'CVR_PASSWORD'),
    },
    bolagsverketBulkUrl: url(
      env,
      'BOLAGSVERKET_BULK_URL',
      'https://vardefulla-datamangder.bolagsverket.se/bolagsverket/bolagsverket_bulkfil.zip',
      ['http', 'https'],
    )!,
    inspectionsUrl: url(env, 'INSPECTIONS_URL', 'https://data.mattilsynet.no/smilefjes-tilsyn.csv', ['http', 'https'])!,
    licensesUrl: url(env, 'LICENSES_URL', undefined, ['http', 'https']),
    sanctionsUrl: url(
      env,
      'SANCTIONS_URL',
      'https://data.opensanctions.org/datasets/latest/default/entities.ftm.json',
      ['http', 'https'],
    )!,
    statistics: {
      NO: url(env, 'SSB_BASE_URL', 'https://data.ssb.no/api/v0', ['http', 'https'])!,
      SE: url(env, 'SCB_BASE_URL', 'https://api.scb.se/OV0104/v1/doris', ['http', 'https'])!,
      FI: url(env, 'STATFI_BASE_URL', 'https://pxdata.stat.fi/PxWeb/api/v1', ['http', 'https'])!,
      DK: url(env, 'DST_BASE_URL', 'https://api.statbank.dk/v1', ['http', 'https'])!,
    },
    procurement: {
      doffinBaseUrl: url(env, 'DOFFIN_BASE_URL', 'https://api.doffin.no/public/v2', ['http', 'https'])!,
      doffinApiKey: str(env, 'DOFFIN_API_KEY'),
      tedBaseUrl: url(env, 'TED_BASE_URL', 'https://api.ted.europa.eu', ['http', 'https'])!,
    },
    smtpUrl: url(env, 'SMTP_URL', undefined, ['smtp', 'smtps']),
    mailFrom: str(env, 'MAIL_FROM') ?? 'Nordic Company Data <no-reply@localhost>',
    syncSchedule: bool(env, 'SYNC_SCHEDULE', true),
    syncCron: syncCron(env),
    syncLeaseMs: int(env, 'SYNC_LEASE_SECONDS', 60, 2, 3600) * 1000,
    demoData: oneOf(env, 'DEMO_DATA', 'auto', ['auto', 'off'] as const),
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
    webProfile: {
      concurrency: int(env, 'ENRICHMENT_CONCURRENCY', 8, 1, 64),
      hostDelayMs: int(env, 'ENRICHMENT_HOST_DELAY_MS', 1000, 0, 60000),
      timeoutMs: int(env, 'ENRICHMENT_TIMEOUT_MS', 8000, 500, 60000),
    },
    recordCache: {
      maxEntries: int(env, 'RECORD_CACHE_ENTRIES', 20000, 0, 1000000),
      maxBytes: int(env, 'RECORD_CACHE_MB', 64, 1, 4096) * 1024 * 1024,
      pollMs: int(env, 'RECORD_CACHE_POLL_MS', 250, 20, 900),
    },
  };
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * Settings that start fine but probably do not do what the operator wants; main.ts prints them.
 * Listening beyond loopback with BASE_URL on localhost: links in e-mails and the OpenAPI
 * document would point at the reader's own machine.
 */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  const baseHost = new URL(config.baseUrl).hostname;
  if (!LOOPBACK_HOST.test(config.host) && LOOPBACK_HOST.test(baseHost)) {
    warnings.push(
      config.baseUrlConfigured
        ? `HOST is ${config.host} (reachable from other machines) but BASE_URL is ${config.baseUrl}: ` +
            'setup links and the OpenAPI document point at localhost. Set BASE_URL to the public URL.'
        : `HOST is ${config.host} (reachable from other machines) and BASE_URL is not set: setup links and the ` +
            "OpenAPI document use each request's Host header. Set BASE_URL to the public URL.",
    );
  }
  return warnings;
}
