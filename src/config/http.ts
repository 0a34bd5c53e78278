// The HTTP server's section: its limits against abuse and which proxies it trusts.
import { ConfigError, int, shown, str, type Env } from './env.ts';

export type TrustProxy = boolean | number | string;

/** HTTP server limits against abuse (slow-loris, oversized requests); see README "Reliability". */
export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxHeaderBytes: number;
  maxUrlLength: number;
  bodyLimitBytes: number;
}

/**
 * How long a SIGTERM'd server may take to finish in-flight requests, stop its workers and
 * checkpoint and close the store before it exits anyway (src/main.ts). A supervisor must wait
 * longer before it kills: compose.yaml's stop_grace_period is checked against this.
 */
export const SHUTDOWN_DEADLINE_MS = 25_000;

export function trustProxy(env: Env): TrustProxy {
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

export function httpLimits(env: Env): HttpLimits {
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
