// One HTTP exchange with the API, with the retry policy:
// - 429: wait `Retry-After` seconds (the server always sends it) and retry, up to maxRetries;
// - 502/503/504 and network failures: back off exponentially and retry, but only for requests
//   that are safe to repeat (a repeated key rotation would lose the new key);
// - any other 4xx: never retried, thrown as NcdApiError at once.
import { apiErrorFrom, NcdNetworkError } from './errors.ts';

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;
export type QueryValue = string | number | boolean | null | undefined;

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  fetch?: Fetch;
  /** Retries after the first attempt (429, and 5xx/network for repeatable requests). Default 3. */
  maxRetries?: number;
  /** A 429 asking to wait longer than this is thrown instead of waited out (a daily quota resets
   *  hours later). Default 120 000 ms. */
  maxRetryDelayMs?: number;
  /** How waiting is done; tests pass a recorder. Default: setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Called before each wait, e.g. to tell a user why a run pauses. */
  onRetry?: (info: {
    attempt: number;
    delayMs: number;
    status?: number;
    code?: string;
    method: string;
    path: string;
  }) => void;
  userAgent?: string;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with parameters already substituted, e.g. /api/companies/923609016. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Repeat on 5xx/network errors. Defaults to true for GET, PUT and DELETE. */
  repeatable?: boolean;
}

const RETRYABLE_5XX = new Set([502, 503, 504]);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const t = header.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export class Transport {
  readonly baseUrl: string;
  // A private field, so that logging the client object never shows the key.
  readonly #apiKey: string | undefined;
  readonly #fetch: Fetch;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #opts: TransportOptions;
  readonly maxRetries: number;

  constructor(opts: TransportOptions) {
    if (!opts.baseUrl || !/^https?:\/\//i.test(opts.baseUrl))
      throw new TypeError('baseUrl must be an http(s) URL, e.g. http://localhost:3000');
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.#apiKey = opts.apiKey;
    const f = opts.fetch ?? (globalThis.fetch as Fetch | undefined);
    if (!f) throw new TypeError('No fetch available: use Node 18 or newer, or pass { fetch }');
    // Browsers refuse a fetch called with another `this` ("Illegal invocation"): the global one is
    // called as a plain function, bound to its own global object.
    this.#fetch = opts.fetch ?? f.bind(globalThis);
    this.#sleep = opts.sleep ?? defaultSleep;
    this.#opts = opts;
    this.maxRetries = opts.maxRetries ?? 3;
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0)
      throw new TypeError('maxRetries must be a non-negative integer');
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) qs.append(k, String(v));
    const s = qs.toString();
    return `${this.baseUrl}${path}${s ? `?${s}` : ''}`;
  }

  #headers(spec: RequestSpec, accept: string): Record<string, string> {
    const headers: Record<string, string> = { accept, ...(spec.headers ?? {}) };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    if (this.#opts.userAgent) headers['user-agent'] = this.#opts.userAgent;
    return headers;
  }

  /**
   * Opens a long-lived response (an event stream) and hands it over unread: one attempt, no
   * retries (the caller owns reconnecting). A non-2xx answer is thrown as NcdApiError.
   */
  async open(spec: RequestSpec & { accept: string; signal?: AbortSignal }): Promise<Response> {
    const headers = this.#headers(spec, spec.accept);
    let res: Response;
    try {
      res = await this.#fetch(this.url(spec.path, spec.query), { method: spec.method, headers, signal: spec.signal });
    } catch (err) {
      if (spec.signal?.aborted) throw err;
      throw new NcdNetworkError(
        `Could not reach ${this.baseUrl} (${spec.method} ${spec.path}): ${reasonOf(err)}`,
        spec.method,
        spec.path,
        { cause: err },
      );
    }
    if (res.ok) return res;
    const waitMs = retryAfterMs(res.headers.get('retry-after'));
    throw apiErrorFrom(res.status, await readBody(res).catch(() => undefined), {
      method: spec.method,
      path: spec.path,
      requestId: res.headers.get('x-request-id') ?? undefined,
      retryAfter: waitMs === undefined ? undefined : Math.ceil(waitMs / 1000),
    });
  }

  async request<T>(spec: RequestSpec): Promise<T> {
    const repeatable = spec.repeatable ?? spec.method !== 'POST';
    const headers = this.#headers(spec, 'application/json');
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    const url = this.url(spec.path, spec.query);
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.#fetch(url, { method: spec.method, headers, body });
      } catch (err) {
        if (repeatable && attempt < this.maxRetries) {
          await this.#wait(attempt, this.#backoff(attempt), spec);
          continue;
        }
        throw new NcdNetworkError(
          `Could not reach ${this.baseUrl} (${spec.method} ${spec.path}): ${reasonOf(err)}`,
          spec.method,
          spec.path,
          { cause: err },
        );
      }
      if (res.ok) return (await readBody(res)) as T;
      const waitMs = retryAfterMs(res.headers.get('retry-after'));
      const errorBody = await readBody(res).catch(() => undefined);
      const error = apiErrorFrom(res.status, errorBody, {
        method: spec.method,
        path: spec.path,
        requestId: res.headers.get('x-request-id') ?? undefined,
        retryAfter: waitMs === undefined ? undefined : Math.ceil(waitMs / 1000),
      });
      if (attempt < this.maxRetries) {
        if (res.status === 429) {
          const delay = waitMs ?? this.#backoff(attempt);
          if (delay <= (this.#opts.maxRetryDelayMs ?? 120_000)) {
            await this.#wait(attempt, delay, spec, res.status, error.code);
            continue;
          }
        } else if (repeatable && RETRYABLE_5XX.has(res.status)) {
          await this.#wait(attempt, waitMs ?? this.#backoff(attempt), spec, res.status, error.code);
          continue;
        }
      }
      throw error;
    }
  }

  #backoff(attempt: number): number {
    return Math.min(500 * 2 ** attempt, 30_000);
  }

  async #wait(attempt: number, delayMs: number, spec: RequestSpec, status?: number, code?: string) {
    this.#opts.onRetry?.({ attempt: attempt + 1, delayMs, status, code, method: spec.method, path: spec.path });
    await this.#sleep(delayMs);
  }
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  return JSON.parse(text);
}
