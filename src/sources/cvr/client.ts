// Client of CVR's "system-til-system" Elasticsearch (distribution.virk.dk): HTTP basic auth,
// searches as POST with a JSON body, and the scroll API for walks over a whole index
// (`POST /<index>/_search?scroll=…`, then `POST /_search/scroll` with the scroll id until a page
// comes back empty). Pages are yielded one at a time, so a walk of millions holds one page.
import { Agent, request } from 'undici';
import { SYNC_USER_AGENT } from '../sync-input.ts';

export const CVR_DEFAULT_BASE_URL = 'https://distribution.virk.dk';
export const CVR_COMPANY_INDEX = 'cvr-permanent/virksomhed';
export const CVR_PUBLICATION_INDEX = 'offentliggoerelser';

type CvrFailure = 'credentials' | 'auth' | 'scroll-expired' | 'status' | 'network' | 'timeout' | 'malformed';

export class CvrError extends Error {
  constructor(
    readonly kind: CvrFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

interface CvrClientOptions {
  baseUrl: string;
  username: string | undefined;
  password: string | undefined;
  /** Deadline of one request (headers and body). */
  timeoutMs?: number;
  /** How long the server keeps a scroll between two pages ("2m"). */
  keepAlive?: string;
  /** Documents per scroll page. */
  pageSize?: number;
}

export interface CvrPage {
  hits: unknown[];
  total: number | null;
}

/** Both credentials, or an error saying what is missing (never their values). */
export function requireCredentials(o: Pick<CvrClientOptions, 'username' | 'password'>): string {
  if (!o.username || !o.password)
    throw new CvrError(
      'credentials',
      'CVR credentials are not set: CVR_USERNAME and CVR_PASSWORD (free registration with Erhvervsstyrelsen) are needed for the CVR Elasticsearch; `ncd sync cvr --file X.ndjson` loads a file without them',
    );
  return 'Basic ' + Buffer.from(`${o.username}:${o.password}`).toString('base64');
}

function hitsOf(body: unknown, what: string): CvrPage & { scrollId: string | null } {
  const b = body as { _scroll_id?: unknown; hits?: { hits?: unknown; total?: unknown } } | null;
  if (!b || typeof b !== 'object' || !b.hits || !Array.isArray(b.hits.hits))
    throw new CvrError('malformed', `${what}: the answer is not a search result`);
  const t = b.hits.total as number | { value?: number } | undefined;
  const total = typeof t === 'number' ? t : typeof t?.value === 'number' ? t.value : null;
  return { hits: b.hits.hits, total, scrollId: typeof b._scroll_id === 'string' ? b._scroll_id : null };
}

export function createCvrClient(opts: CvrClientOptions) {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const keepAlive = opts.keepAlive ?? '5m';
  const pageSize = opts.pageSize ?? 1000;
  const agent = new Agent({ connections: 4, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });

  async function post(path: string, body: unknown, method: 'POST' | 'DELETE' = 'POST'): Promise<unknown> {
    const authorization = requireCredentials(opts);
    const what = path.split('?')[0];
    let res;
    try {
      res = await request(`${base}${path}`, {
        method,
        dispatcher: agent,
        headers: {
          authorization,
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': SYNC_USER_AGENT,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timeout = (err as Error).name === 'TimeoutError' || (err as { code?: string }).code?.includes('TIMEOUT');
      throw new CvrError(
        timeout ? 'timeout' : 'network',
        `CVR ${what}: ${timeout ? `no answer within ${timeoutMs} ms` : (err as Error).message}`,
      );
    }
    const text = await res.body.text();
    if (res.statusCode === 401 || res.statusCode === 403)
      throw new CvrError(
        'auth',
        `CVR ${what} answered ${res.statusCode}: the credentials were refused (check CVR_USERNAME / CVR_PASSWORD)`,
        res.statusCode,
      );
    // An expired or unknown scroll: 404 with search_context_missing_exception.
    if (res.statusCode === 404 && /search_context_missing|No search context found/i.test(text))
      throw new CvrError('scroll-expired', `CVR ${what}: the scroll expired on the server`, 404);
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw new CvrError('status', `CVR ${what} answered ${res.statusCode}`, res.statusCode);
    try {
      return JSON.parse(text);
    } catch {
      throw new CvrError('malformed', `CVR ${what}: the answer is not JSON`);
    }
  }

  return {
    baseUrl: base,

    /** One search (no scroll): the hits of the first `size` matches. */
    async search(index: string, query: unknown, size = 10): Promise<CvrPage> {
      return hitsOf(await post(`/${index}/_search`, { query, size }), `/${index}/_search`);
    },

    /** Every page of a query over an index; the scroll is cleared when the walk ends or breaks off. */
    async *scroll(index: string, query: unknown): AsyncGenerator<CvrPage> {
      let page = hitsOf(
        await post(`/${index}/_search?scroll=${keepAlive}`, { query, size: pageSize, sort: ['_doc'] }),
        `/${index}/_search`,
      );
      let scrollId = page.scrollId;
      try {
        while (page.hits.length > 0) {
          yield { hits: page.hits, total: page.total };
          if (!scrollId) return;
          page = hitsOf(await post('/_search/scroll', { scroll: keepAlive, scroll_id: scrollId }), '/_search/scroll');
          scrollId = page.scrollId ?? scrollId;
        }
      } finally {
        if (scrollId) await post('/_search/scroll', { scroll_id: [scrollId] }, 'DELETE').catch(() => undefined);
      }
    },

    async close(): Promise<void> {
      await agent.close();
    },
  };
}

export type CvrClient = ReturnType<typeof createCvrClient>;
