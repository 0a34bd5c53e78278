// The one outbound HTTP client for destinations a user (webhook) or a web page (crawler)
// chose. Every hop is vetted (scheme, port, resolved addresses), the connection is pinned to
// the vetted address, redirects are followed by hand and re-vetted, the whole exchange has
// one deadline, and the body is read only up to a cap.
//
// undici.fetch with an Agent from the same undici copy: Node's global fetch bundles another
// undici and rejects an npm-undici dispatcher (STACK.md §7).
import { fetch, type Agent } from 'undici';
import { resolvePolicy, vetUrl, type DestinationOptions } from './destination.ts';
import {
  BlockedDestinationError,
  FetchTimeoutError,
  InvalidRequestError,
  NetworkError,
  SafeFetchError,
  TooManyRedirectsError,
} from './errors.ts';
import { createGuardedAgent, type Connector } from './guarded-agent.ts';

export interface SafeFetchOptions extends DestinationOptions {
  /** Redirects followed, each re-vetted. Default 0: a 3xx is returned as the response. */
  maxRedirects?: number;
  /** Deadline for the whole exchange: DNS, connect, every hop, body. Default 10 000. */
  timeoutMs?: number;
  /** Body bytes read at most; the rest is dropped and `truncated` set. Default 1 MiB. */
  maxBodyBytes?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Test seam: the raw dialler behind the guard (sees only vetted addresses). */
  dial?: Connector;
}

export interface SafeResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (see setCookie for cookies). */
  headers: Record<string, string>;
  setCookie: string[];
  body: Uint8Array;
  truncated: boolean;
  /** The URL of the final hop. */
  url: string;
  /** The URLs redirected to, in order (the initial URL not included). */
  redirects: string[];
  /** The address the final hop's connection went to. */
  remoteAddress: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY = 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export async function safeFetch(url: string, opts: SafeFetchOptions = {}): Promise<SafeResponse> {
  const policy = resolvePolicy(opts);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? 0;
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;

  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new FetchTimeoutError(timeoutMs)), timeoutMs);
  const pins = new Map<string, string[]>();
  const connected = new Map<string, string>();
  const agent = createGuardedAgent({
    policy: policy.address,
    pins,
    onConnected: (host, address) => connected.set(host, address),
    connectTimeoutMs: Math.min(timeoutMs, 10_000),
    timeoutMs,
    dial: opts.dial,
  });

  let method = (opts.method ?? 'GET').toUpperCase();
  let body = opts.body;
  let headers: Record<string, string> = {
    'user-agent': 'nordic-company-data (+safe-fetch)',
    ...lowerKeys(opts.headers),
  };
  const redirects: string[] = [];
  let current: string | URL = url;
  try {
    for (;;) {
      const hop = await vetUrl(current, policy, ac.signal, timeoutMs);
      pins.set(hop.hostname, hop.addresses);
      const res = await send(agent, hop.url, method, headers, body, ac.signal);
      const location = res.headers.get('location');
      if (maxRedirects > 0 && REDIRECT_STATUSES.has(res.status) && location) {
        await res.body?.cancel().catch(() => {});
        if (redirects.length >= maxRedirects) throw new TooManyRedirectsError(maxRedirects);
        let next: URL;
        try {
          next = new URL(location, hop.url);
        } catch {
          throw new BlockedDestinationError('invalid-url', 'redirect to an invalid URL');
        }
        // Fetch-standard method rewrite: 303 (and 301/302 after POST) continue as GET.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          if (method !== 'HEAD') method = 'GET';
          body = undefined;
          headers = withoutKeys(headers, ['content-type', 'content-length']);
        }
        if (next.origin !== hop.url.origin) headers = withoutKeys(headers, CREDENTIAL_HEADERS);
        redirects.push(next.href);
        current = next;
        continue;
      }
      const { bytes, truncated } = await readCapped(res.body, maxBody);
      return {
        status: res.status,
        headers: headersRecord(res.headers),
        setCookie: res.headers.getSetCookie(),
        body: bytes,
        truncated,
        url: hop.url.href,
        redirects,
        remoteAddress: connected.get(hop.hostname) ?? hop.addresses[0],
      };
    }
  } catch (err) {
    throw classify(err, ac.signal, timeoutMs);
  } finally {
    clearTimeout(timer);
    await agent.destroy().catch(() => {});
  }
}

async function send(
  agent: Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal,
) {
  try {
    return await fetch(url, { method, headers, body, redirect: 'manual', dispatcher: agent, signal });
  } catch (err) {
    // fetch throws a plain TypeError synchronously-ish for a bad header or method, and
    // TypeError('fetch failed', { cause }) for everything that happened on the wire.
    if (err instanceof TypeError && err.message !== 'fetch failed') throw new InvalidRequestError(err.message);
    throw err;
  }
}

async function readCapped(
  stream: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!stream) return { bytes: new Uint8Array(0), truncated: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > max) {
      chunks.push(value.subarray(0, max - total));
      total = max;
      truncated = true;
      // Stop reading: cancelling drops the connection instead of draining the rest.
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return { bytes, truncated };
}

/** Maps anything thrown during the exchange onto one of the typed errors. */
function classify(err: unknown, signal: AbortSignal, timeoutMs: number): SafeFetchError {
  // Our own error may sit in a cause chain (the connector's callback error is wrapped).
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof SafeFetchError) return e;
  }
  if (signal.aborted) return new FetchTimeoutError(timeoutMs);
  let code: string | undefined;
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string') code = c;
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new FetchTimeoutError(timeoutMs);
  }
  return new NetworkError(code, code ? `network failure (${code})` : 'network failure');
}

function lowerKeys(h: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function withoutKeys(h: Record<string, string>, drop: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter(([k]) => !drop.includes(k)));
}

function headersRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}
