// Protection of a registry behind live fetches: a request budget per upstream host,
// shared by every process through the rate windows (Redis or PostgreSQL), and a circuit breaker
// (opossum) that stops sending after repeated 5xx answers or timeouts and answers at once until
// a half-open probe succeeds. Only the JSON reads of live fetches go through it; bulk downloads
// of the sync jobs have their own pace.
import CircuitBreaker from 'opossum';
import type { Config, LiveFetchConfig } from '../config/index.ts';
import type { RateWindows } from '../store/access/rate-windows.ts';
import { createUpstreamClient, UpstreamError, type JsonResponse, type UpstreamClient } from './upstream-http.ts';

export interface UpstreamGuardDeps {
  windows: RateWindows;
  /** The upstream host, the key of its shared budget (e.g. `data.brreg.no`). */
  host: string;
  limits: Pick<LiveFetchConfig, 'ratePerSecond' | 'rateWaitMs' | 'breakerFailures' | 'breakerResetMs'>;
  onStateChange?: (state: BreakerState) => void;
}

type BreakerState = 'closed' | 'open' | 'half-open';

export interface UpstreamGuardState {
  host: string;
  breaker: BreakerState;
  ratePerSecond: number;
  /** Requests refused at once by the open breaker, and for want of budget, since start. */
  shortCircuited: number;
  throttled: number;
  failures: number;
}

type GetJson = UpstreamClient['getJson'];

/** 5xx answers, timeouts and network failures count against the upstream; 404s and the like do not. */
function isUpstreamFault(err: unknown): boolean {
  if (!(err instanceof UpstreamError)) return false;
  if (err.kind === 'timeout' || err.kind === 'network') return true;
  return err.kind === 'status' && (err.status ?? 0) >= 500;
}

export function guardUpstream(client: UpstreamClient, deps: UpstreamGuardDeps) {
  const { windows, host, limits } = deps;
  let throttled = 0;
  let shortCircuited = 0;
  const breaker = new CircuitBreaker(
    (path: string, options?: Parameters<GetJson>[1]) => client.getJson(path, options),
    {
      timeout: false, // the client has its own deadline (BRREG_TIMEOUT_MS), reported as a timeout fault
      resetTimeout: limits.breakerResetMs,
      volumeThreshold: limits.breakerFailures,
      errorThresholdPercentage: 50,
      rollingCountTimeout: Math.max(10_000, limits.breakerResetMs),
      errorFilter: (err: unknown) => !isUpstreamFault(err),
    },
  );
  const state = (): BreakerState => (breaker.opened ? 'open' : breaker.halfOpen ? 'half-open' : 'closed');
  const changed = () => deps.onStateChange?.(state());
  breaker.on('open', changed);
  breaker.on('halfOpen', changed);
  breaker.on('close', changed);

  /** One request's worth of the host's shared budget, waiting for the next window when short. */
  async function acquire(): Promise<void> {
    const deadline = Date.now() + limits.rateWaitMs;
    for (;;) {
      const w = await windows.consume('upstream', host, limits.ratePerSecond, 1);
      if (w.allowed) return;
      const wait = Math.max(10, w.resetMs);
      if (Date.now() + wait > deadline) {
        throttled++;
        throw new UpstreamError('throttled', `${host}: shared request budget spent (${limits.ratePerSecond}/s)`);
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  const getJson: GetJson = async (path, options) => {
    if (breaker.opened) {
      shortCircuited++;
      throw new UpstreamError('circuit-open', `${host}: circuit open after repeated failures`);
    }
    await acquire();
    try {
      return (await breaker.fire(path, options)) as JsonResponse;
    } catch (err) {
      if ((err as { code?: string }).code === 'EOPENBREAKER') {
        shortCircuited++;
        throw new UpstreamError('circuit-open', `${host}: circuit open after repeated failures`);
      }
      throw err;
    }
  };

  return {
    client: { ...client, getJson } satisfies UpstreamClient,
    state(): UpstreamGuardState {
      return {
        host,
        breaker: state(),
        ratePerSecond: limits.ratePerSecond,
        shortCircuited,
        throttled,
        failures: breaker.stats.failures,
      };
    },
    shutdown() {
      breaker.shutdown();
    },
  };
}

/** The guarded client of CVR's Elasticsearch for DK live fetches; null without credentials. */
export function createCvrGuard(
  config: Pick<Config, 'cvr' | 'brregTimeoutMs' | 'liveFetch'>,
  windows: RateWindows,
  log: { warn(o: object, msg: string): void },
) {
  const { username, password, baseUrl } = config.cvr;
  if (!username || !password) return null;
  const authorization = 'Basic ' + Buffer.from(`${username}:${password}`).toString('base64');
  return guardUpstream(
    createUpstreamClient({ baseUrl, timeoutMs: config.brregTimeoutMs, headers: { authorization } }),
    {
      windows,
      host: new URL(baseUrl).host,
      limits: config.liveFetch,
      onStateChange: (breaker) => log.warn({ upstream: 'cvr', breaker }, 'upstream circuit breaker changed'),
    },
  );
}
