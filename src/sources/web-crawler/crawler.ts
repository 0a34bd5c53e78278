// The web-profile crawler: every request goes through safeFetch (public addresses only, the
// vetted address pinned, body capped, one deadline). Redirects are followed here, one hop at
// a time, so each new origin's robots.txt is read and its pacing kept before we ask it for
// anything; safeFetch re-vets every hop's address. At most `concurrency` requests are in
// flight, and results are cached for the run so a host shared by many companies is asked once.
import pLimit from 'p-limit';
import {
  BlockedDestinationError,
  checkDestination,
  NetworkError,
  safeFetch,
  SafeFetchError,
  type Resolver,
  type ResolvedAddress,
  type SafeFetchOptions,
  type SafeResponse,
} from '../../net/index.ts';
import { decodeHtml, isHtmlType } from './decode.ts';
import { createHostPacer, type HostPacer } from './pacer.ts';
import { allowsUrl, robotsState, type RobotsState } from './robots.ts';
import type { ProbeError } from './types.ts';

export interface CrawlerOptions {
  resolver: Resolver;
  /** Exact addresses allowed although not public (tests: the fake sites' loopback addresses). */
  allowedAddresses?: string[];
  dial?: SafeFetchOptions['dial'];
  concurrency: number;
  hostDelayMs: number;
  timeoutMs: number;
  /** Full User-Agent header; its product token is what robots.txt groups are matched on. */
  userAgent: string;
  maxRedirects?: number;
  maxBodyBytes?: number;
  pacer?: HostPacer;
}

/** A page before its first request: nothing answered yet (each fetcher fills it in hop by hop). */
export const unfetchedPage = (url: string): PageResult => ({
  url,
  finalUrl: url,
  status: 0,
  headers: {},
  setCookie: [],
  html: '',
  redirects: [],
  error: null,
  errorCode: null,
});

export interface PageResult {
  /** The URL asked for. */
  url: string;
  /** The URL of the last answer (the last hop reached). */
  finalUrl: string;
  /** Status of the last answer; 0 when nothing answered. */
  status: number;
  headers: Record<string, string>;
  setCookie: string[];
  /** Decoded HTML; '' when the answer is not a web page or there was none. */
  html: string;
  redirects: string[];
  error: ProbeError | null;
  errorCode: string | null;
}

export interface Crawler {
  /** DNS probe: does the host resolve, to allowed addresses only. Never connects. */
  checkHost(host: string): Promise<{ ok: true } | { ok: false; error: ProbeError }>;
  fetchPage(url: string): Promise<PageResult>;
  /** Requests attempted (robots.txt included; vetting may refuse one before it is sent). */
  readonly requests: number;
}

const MAX_CRAWL_DELAY_MS = 30_000;
const ROBOTS_MAX_BYTES = 256 * 1024;
const CACHE_ENTRIES = 64;
const DNS_CACHE_ENTRIES = 10_000;

/** A resolver that answers each name once per run (both the DNS probe and safeFetch ask). */
function cachingResolver(inner: Resolver): Resolver {
  const cache = new Map<string, Promise<ResolvedAddress[]>>();
  return {
    lookup(hostname) {
      let hit = cache.get(hostname);
      if (!hit) {
        if (cache.size >= DNS_CACHE_ENTRIES) cache.clear();
        hit = inner.lookup(hostname);
        cache.set(hostname, hit);
      }
      return hit;
    },
  };
}

/** Small insertion-ordered cache of promises (oldest dropped first). */
function promiseCache<T>(max: number) {
  const m = new Map<string, Promise<T>>();
  return (key: string, make: () => Promise<T>): Promise<T> => {
    const hit = m.get(key);
    if (hit) return hit;
    if (m.size >= max) m.delete(m.keys().next().value!);
    const p = make();
    m.set(key, p);
    return p;
  };
}

function classifyFetchError(err: unknown): { error: ProbeError; code: string | null } {
  if (err instanceof BlockedDestinationError) {
    if (err.reason === 'dns') return { error: 'dns', code: null };
    if (err.reason === 'private-address') return { error: 'private-address', code: null };
    return { error: 'blocked', code: err.reason };
  }
  if (err instanceof NetworkError) return { error: 'network', code: err.code ?? null };
  if (err instanceof SafeFetchError) {
    if (err.kind === 'timeout') return { error: 'timeout', code: null };
    if (err.kind === 'too-many-redirects') return { error: 'too-many-redirects', code: null };
    return { error: 'blocked', code: err.kind };
  }
  throw err;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createCrawler(o: CrawlerOptions): Crawler {
  const resolver = cachingResolver(o.resolver);
  const limit = pLimit(o.concurrency);
  const pacer = o.pacer ?? createHostPacer({ delayMs: o.hostDelayMs });
  const agentToken = o.userAgent.split(/[\s/]/)[0];
  const maxRedirects = o.maxRedirects ?? 4;
  const robotsCache = promiseCache<RobotsState>(5_000);
  // Per hop, not per page: caching whole redirect chains could make two chains wait on each other.
  const hopCache = promiseCache<SafeResponse | { failed: unknown }>(CACHE_ENTRIES);
  const hostCache = promiseCache<{ ok: true } | { ok: false; error: ProbeError }>(DNS_CACHE_ENTRIES);
  let requests = 0;

  const base = (): SafeFetchOptions => ({
    resolver,
    allowedAddresses: o.allowedAddresses,
    dial: o.dial,
    allowPrivate: false,
    timeoutMs: o.timeoutMs,
    headers: { 'user-agent': o.userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
  });

  /** One paced, counted request. */
  function request(url: URL, extra: SafeFetchOptions): Promise<SafeResponse> {
    return limit(async () => {
      await pacer.wait(url.hostname);
      requests++;
      return safeFetch(url.href, { ...base(), ...extra });
    });
  }

  function robotsFor(url: URL): Promise<RobotsState> {
    return robotsCache(url.origin, async () => {
      try {
        // RFC 9309 lets robots.txt redirect (up to five hops); safeFetch re-vets each.
        const res = await request(new URL('/robots.txt', url.origin), {
          maxRedirects: 4,
          maxBodyBytes: ROBOTS_MAX_BYTES,
        });
        const state = robotsState(
          url.origin,
          { status: res.status, body: new TextDecoder().decode(res.body) },
          agentToken,
        );
        if (state.kind === 'rules' && state.crawlDelaySeconds) {
          pacer.setDelay(url.hostname, Math.min(state.crawlDelaySeconds * 1000, MAX_CRAWL_DELAY_MS));
        }
        return state;
      } catch (err) {
        const { error, code } = classifyFetchError(err);
        // RFC 9309 §2.3.1.2: robots.txt behind too many redirects counts as unavailable (4xx).
        if (error === 'too-many-redirects') return { kind: 'allow-all' };
        return { kind: 'unreachable', error, code };
      }
    });
  }

  async function fetchUncached(start: string): Promise<PageResult> {
    const result = unfetchedPage(start);
    let current: URL;
    try {
      current = new URL(start);
    } catch {
      return { ...result, error: 'blocked', errorCode: 'invalid-url' };
    }
    for (let hop = 0; ; hop++) {
      const robots = await robotsFor(current);
      if (robots.kind === 'unreachable') return { ...result, error: robots.error, errorCode: robots.code };
      if (!allowsUrl(robots, current.href)) return { ...result, error: 'robots-disallowed' };
      const url = current;
      const res = await hopCache(url.href, () =>
        request(url, { maxRedirects: 0, maxBodyBytes: o.maxBodyBytes ?? 1024 * 1024 }).catch((failed: unknown) => ({
          failed,
        })),
      );
      if ('failed' in res) {
        const { error, code } = classifyFetchError(res.failed);
        return { ...result, error, errorCode: code };
      }
      result.finalUrl = current.href;
      result.status = res.status;
      result.headers = res.headers;
      result.setCookie = res.setCookie;
      const location = res.headers.location;
      if (REDIRECTS.has(res.status) && location) {
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          return { ...result, error: 'blocked', errorCode: 'invalid-url' };
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:')
          return { ...result, error: 'blocked', errorCode: 'scheme' };
        if (hop >= maxRedirects) return { ...result, error: 'too-many-redirects' };
        result.redirects.push(next.href);
        current = next;
        continue;
      }
      if (res.status < 200 || res.status >= 300) return { ...result, error: 'http-error' };
      if (!isHtmlType(res.headers['content-type'])) return { ...result, error: 'not-html' };
      return { ...result, html: decodeHtml(res.body, res.headers['content-type']) };
    }
  }

  return {
    checkHost(host) {
      return hostCache(host, async () => {
        const check = await checkDestination(`http://${host}/`, {
          resolver,
          allowedAddresses: o.allowedAddresses,
          timeoutMs: o.timeoutMs,
        });
        if (check.ok) return { ok: true } as const;
        if (check.reason === 'dns') return { ok: false, error: 'dns' } as const;
        if (check.reason === 'private-address') return { ok: false, error: 'private-address' } as const;
        if (check.reason === 'timeout') return { ok: false, error: 'timeout' } as const;
        return { ok: false, error: 'blocked' } as const;
      });
    },
    fetchPage: fetchUncached,
    get requests() {
      return requests;
    },
  };
}
