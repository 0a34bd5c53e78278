// Requests to a registry API that publishes a request budget (Bolagsverket: 60 a minute per client)
// or answers 429 when pressed (PRH): every request waits for its slot in an even pace, and a 429 is
// waited out for as long as its Retry-After says (seconds or an HTTP date), up to a ceiling; past
// the ceiling, or after too many 429s in a row, the request fails with kind `throttled`. Bodies are
// read whole with a size cap (documents are small: a filing is tens to hundreds of KB).
import { request } from 'undici';
import { UpstreamError } from './upstream-http.ts';
import { SYNC_USER_AGENT } from './sync-input.ts';

export interface PacedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PacedClientOptions {
  requestsPerMinute: number;
  /** Deadline of one request (headers and body), ms. */
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** The longest Retry-After waited out; a longer one fails the request. Default 120 s. */
  maxRetryAfterMs?: number;
  /** 429s in a row for one request before it fails. Default 5. */
  max429?: number;
  /** Test seam. */
  sleep?: (ms: number) => Promise<void>;
}

export interface PacedRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Milliseconds a Retry-After header asks for (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

export function createPacedClient(opts: PacedClientOptions) {
  const interval = 60_000 / opts.requestsPerMinute;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxBody = opts.maxBodyBytes ?? 50 * 1024 * 1024;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 120_000;
  const max429 = opts.max429 ?? 5;
  const sleep = opts.sleep ?? defaultSleep;
  let nextSlot = 0;
  const stats = { requests: 0, waited429: 0, waitedMs: 0 };

  /** Waits for this request's slot; slots are handed out in order, `interval` apart. */
  async function slot() {
    const now = Date.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + interval;
    if (at > now) await sleep(at - now);
  }

  async function once(url: URL, req: PacedRequest): Promise<PacedResponse> {
    await slot();
    stats.requests++;
    let res;
    try {
      res = await request(url, {
        method: req.method ?? 'GET',
        headers: { 'user-agent': SYNC_USER_AGENT, ...req.headers },
        body: req.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError' || (err as { code?: string }).code?.includes('TIMEOUT');
      throw new UpstreamError(timedOut ? 'timeout' : 'network', `${url.pathname}: ${(err as Error).message}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const c of res.body) {
        size += (c as Buffer).length;
        if (size > maxBody) {
          res.body.destroy();
          throw new UpstreamError('too-large', `${url.pathname}: response larger than ${maxBody} bytes`);
        }
        chunks.push(c as Buffer);
      }
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      throw new UpstreamError('network', `${url.pathname}: ${(err as Error).message}`);
    }
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) };
  }

  return {
    stats,
    /** Sends one request in its slot; a 429 is waited out (Retry-After, else one minute) and sent again. */
    async send(url: URL, req: PacedRequest = {}): Promise<PacedResponse> {
      for (let attempt = 1; ; attempt++) {
        const res = await once(url, req);
        if (res.status !== 429) return res;
        const wait = retryAfterMs(res.headers['retry-after']) ?? 60_000;
        if (wait > maxRetryAfter || attempt >= max429)
          throw new UpstreamError(
            'throttled',
            `${url.pathname} answered 429 ${attempt} time(s); Retry-After ${Math.ceil(wait / 1000)} s is over the ${Math.ceil(maxRetryAfter / 1000)} s waited out`,
            429,
          );
        stats.waited429++;
        stats.waitedMs += wait;
        // The whole pace moves: no other request of this client may go out before the wait is over.
        nextSlot = Math.max(nextSlot, Date.now() + wait);
      }
    },
  };
}

export type PacedClient = ReturnType<typeof createPacedClient>;
