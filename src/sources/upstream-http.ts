// HTTP client for registry upstreams (brreg, PRH, …): per-request deadline, response size cap,
// redirects followed only within the configured origin, typed failures. Registry base URLs
// are operator configuration, so this is not the SSRF-guarded client used for user URLs.
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';

export type UpstreamFailure =
  | 'timeout'
  | 'network'
  | 'status'
  | 'too-large'
  | 'malformed'
  | 'redirect'
  /** Not sent: the circuit breaker is open after repeated failures of this upstream. */
  | 'circuit-open'
  /** Not sent: the shared request budget of this upstream host is spent for now. */
  | 'throttled';

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

interface UpstreamClientOptions {
  baseUrl: string;
  timeoutMs?: number;
  maxBodyBytes?: number;
  connections?: number;
  userAgent?: string;
  /** Sent with every request (CVR: its basic-auth `authorization`). */
  headers?: Record<string, string>;
}

export interface JsonResponse {
  status: number;
  body: unknown;
}

const MAX_REDIRECTS = 3;

export function createUpstreamClient(opts: UpstreamClientOptions) {
  const base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : opts.baseUrl + '/');
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBodyBytes = opts.maxBodyBytes ?? 20 * 1024 * 1024;
  const agent = new Agent({ connections: opts.connections ?? 32, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const userAgent = opts.userAgent ?? 'nordic-company-data (+https://github.com/)';

  function resolve(path: string): URL {
    return new URL(path.replace(/^\//, ''), base);
  }

  async function send(url: URL, accept: string, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    let current = url;
    for (let hop = 0; ; hop++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(current, {
          method: 'GET',
          dispatcher: agent,
          headers: { ...opts.headers, accept, 'user-agent': userAgent },
          signal,
        });
      } catch (err) {
        if (signal.aborted || (err as { code?: string }).code?.includes('TIMEOUT'))
          throw new UpstreamError('timeout', `${current.pathname} timed out after ${timeoutMs} ms`);
        throw new UpstreamError('network', `${current.pathname}: ${(err as Error).message}`);
      }
      if (res.statusCode < 300 || res.statusCode >= 400) return res;
      await res.body.dump().catch(() => undefined);
      const location = res.headers.location;
      if (typeof location !== 'string' || hop >= MAX_REDIRECTS)
        throw new UpstreamError('redirect', `${current.pathname}: too many or broken redirects`, res.statusCode);
      const next = new URL(location, current);
      // Never follow a redirect off the configured host.
      if (next.origin !== base.origin)
        throw new UpstreamError('redirect', `${current.pathname}: redirect to another host refused`, res.statusCode);
      current = next;
    }
  }

  async function readCapped(body: Readable & { dump?: () => Promise<void> }, path: string): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxBodyBytes) {
        body.destroy();
        throw new UpstreamError('too-large', `${path}: response larger than ${maxBodyBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  return {
    baseUrl: base.toString(),

    /** GETs JSON. Statuses listed in `pass` are returned; other non-2xx throw UpstreamError. */
    async getJson(path: string, options: { accept?: string; pass?: number[] } = {}): Promise<JsonResponse> {
      const signal = AbortSignal.timeout(timeoutMs);
      const url = resolve(path);
      const res = await send(url, options.accept ?? 'application/json', signal);
      let text: string;
      try {
        text = await readCapped(res.body as unknown as Readable, url.pathname);
      } catch (err) {
        if (err instanceof UpstreamError) throw err;
        throw new UpstreamError(signal.aborted ? 'timeout' : 'network', `${url.pathname}: ${(err as Error).message}`);
      }
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      if (!ok && !(options.pass ?? []).includes(res.statusCode)) {
        throw new UpstreamError('status', `${url.pathname} answered ${res.statusCode}`, res.statusCode);
      }
      if (text.trim() === '') return { status: res.statusCode, body: null };
      try {
        return { status: res.statusCode, body: JSON.parse(text) };
      } catch {
        if (!ok) return { status: res.statusCode, body: null };
        throw new UpstreamError('malformed', `${url.pathname}: response is not JSON`, res.statusCode);
      }
    },

    /** Streams a large download (bulk files): headers within the deadline, then no size cap. */
    async getStream(path: string, accept = '*/*'): Promise<Readable> {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      const url = resolve(path);
      const res = await send(url, accept, controller.signal).finally(() => clearTimeout(timer));
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump().catch(() => undefined);
        throw new UpstreamError('status', `${url.pathname} answered ${res.statusCode}`, res.statusCode);
      }
      return res.body as unknown as Readable;
    },

    async close() {
      await agent.close();
    },
  };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;
