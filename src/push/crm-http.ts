// JSON requests to a CRM's API (HubSpot, Attio): paced under the vendor's documented rate, a 429
// waited out for as long as its Retry-After says (seconds or an HTTP date), a 5xx or network
// failure tried again twice, a 401 handed once to the caller (to refresh an OAuth token). The
// API host is the operator's configuration (HUBSPOT_BASE_URL, ATTIO_BASE_URL), not a user's URL,
// so the plain fetch is used; the token is only ever put in the Authorization header.

export type CrmErrorKind = 'auth' | 'unavailable' | 'rate_limited' | 'rejected' | 'not_found';

/** A CRM call that did not succeed. `message` names the CRM and its reason, never the token. */
export class CrmError extends Error {
  constructor(
    readonly kind: CrmErrorKind,
    message: string,
    readonly status?: number,
    /** The CRM's own error body (parsed JSON), for callers that read per-item errors. */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'CrmError';
  }
}

/** A sliding-window pacer: at most `limit` requests start in any `windowMs`. */
export function createPacer(limit: number, windowMs: number, sleep: (ms: number) => Promise<void> = delay) {
  const starts: number[] = [];
  let chain: Promise<void> = Promise.resolve();
  return {
    /** Resolves when one more request may start. Calls are served in order. */
    take(): Promise<void> {
      const next = chain.then(async () => {
        for (;;) {
          const now = Date.now();
          while (starts.length && starts[0] <= now - windowMs) starts.shift();
          if (starts.length < limit) {
            starts.push(now);
            return;
          }
          await sleep(starts[0] + windowMs - now);
        }
      });
      chain = next.catch(() => undefined);
      return next;
    },
  };
}
export type Pacer = ReturnType<typeof createPacer>;

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Retry-After as seconds ("3") or an HTTP date (Attio), in ms from now; undefined when absent. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const s = value.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface CrmHttpOptions {
  /** e.g. "HubSpot": named in every error message. */
  vendor: string;
  baseUrl: string;
  token(): string;
  /** Called once after a 401; true when a new token was obtained and the request may be tried again. */
  refresh?(): Promise<boolean>;
  /** Paces every request; writes and reads may share one. */
  pacer(method: string, path: string): Pacer;
  timeoutMs?: number;
  /** A Retry-After longer than this fails the call instead of holding the push. */
  maxRetryWaitMs?: number;
  /** How many 429s in a row are waited out. */
  max429?: number;
  sleep?: (ms: number) => Promise<void>;
}

const TRANSIENT_TRIES = 3;
const BACKOFF_MS = [300, 1000];

/** The CRM's reason, shortened: its `message` field (both vendors use one) or the status. */
export function vendorReason(body: unknown, status: number): string {
  const m = (body as { message?: unknown } | null)?.message;
  const text = typeof m === 'string' && m.trim() ? m.trim() : `HTTP ${status}`;
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

export function createCrmHttp(o: CrmHttpOptions) {
  const sleep = o.sleep ?? delay;
  const base = o.baseUrl.replace(/\/$/, '');

  async function once(method: string, path: string, body: unknown) {
    await o.pacer(method, path).take();
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${o.token()}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(o.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, retryAfter: res.headers.get('retry-after') };
  }

  return {
    /** The parsed JSON answer of a 2xx; a CrmError otherwise. */
    async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
      let refreshed = false;
      let limited = 0;
      let transient = 0;
      for (;;) {
        let r: Awaited<ReturnType<typeof once>>;
        try {
          r = await once(method, path, body);
        } catch (err) {
          transient++;
          if (transient < TRANSIENT_TRIES) {
            await sleep(BACKOFF_MS[transient - 1]);
            continue;
          }
          const why = (err as Error).name === 'TimeoutError' ? 'did not answer in time' : 'could not be reached';
          throw new CrmError('unavailable', `${o.vendor} ${why} (${TRANSIENT_TRIES} attempts)`);
        }
        if (r.status >= 200 && r.status < 300) return r.json as T;
        if (r.status === 429) {
          limited++;
          const wait = retryAfterMs(r.retryAfter) ?? 1000 * limited;
          if (limited <= (o.max429 ?? 5) && wait <= (o.maxRetryWaitMs ?? 30_000)) {
            await sleep(wait);
            continue;
          }
          throw new CrmError('rate_limited', `${o.vendor} kept answering 429 (rate limited); try again later`, 429);
        }
        if (r.status === 401) {
          if (!refreshed && o.refresh) {
            refreshed = true;
            if (await o.refresh()) continue;
          }
          throw new CrmError('auth', `${o.vendor} refused the access token (401); reconnect the destination`, 401);
        }
        if (r.status === 403)
          throw new CrmError(
            'auth',
            `${o.vendor} refused the request (403): ${vendorReason(r.json, 403)}`,
            403,
            r.json,
          );
        if (r.status >= 500) {
          transient++;
          if (transient < TRANSIENT_TRIES) {
            await sleep(BACKOFF_MS[transient - 1]);
            continue;
          }
          throw new CrmError(
            'unavailable',
            `${o.vendor} answered ${r.status} (${TRANSIENT_TRIES} attempts); nothing more was sent`,
            r.status,
          );
        }
        if (r.status === 404) throw new CrmError('not_found', `${o.vendor}: ${vendorReason(r.json, 404)}`, 404, r.json);
        throw new CrmError('rejected', `${o.vendor}: ${vendorReason(r.json, r.status)}`, r.status, r.json);
      }
    },
  };
}

export type CrmHttp = ReturnType<typeof createCrmHttp>;
