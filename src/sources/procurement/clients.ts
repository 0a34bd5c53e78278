// The two upstreams of procurement notices, each listing the notices published since a date and
// downloading each notice's eForms XML:
// - Doffin's public API (api.doffin.no/public/v2): GET /search?issueDateFrom=YYYY-MM-DD&page=N
//   &numHitsPerPage=100&sortBy=PUBLICATION_DATE_ASC answers {numHitsTotal, hits:[{id}]}; GET
//   /download/{id} answers the notice XML. A subscription key, when configured, travels as
//   Ocp-Apim-Subscription-Key.
// - TED's search API v3 (anonymous): POST /v3/notices/search with an expert query, iterated by
//   iterationNextToken, answers {notices:[{publication-number, links:{xml:{MUL}}}]}; the XML is
//   fetched from the notice's link when it is on TED's own hosts, else from /en/notice/{n}/xml.
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { SYNC_USER_AGENT } from '../sync-input.ts';

export interface NoticeRef {
  /** The source's public id: a Doffin id (2026-107304) or a TED publication number (712345-2026). */
  id: string;
  /** Fetches the notice's XML. */
  open(): Promise<Readable>;
}

export interface NoticeSource {
  name: 'doffin' | 'ted';
  /** Every notice published on or after `since` (YYYY-MM-DD), oldest first where the API sorts. */
  list(since: string): AsyncGenerator<NoticeRef>;
}

const TIMEOUT_MS = 30_000;
const MAX_JSON_BYTES = 20 * 1024 * 1024;
/** An upstream that keeps answering full pages stops here (1000 × 100 notices is years of Doffin). */
const MAX_PAGES = 1000;
/** Where TED serves notice documents besides the API host. */
const TED_HOSTS = new Set(['ted.europa.eu', 'api.ted.europa.eu']);

const agent = new Agent({ connections: 4, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });

async function send(url: URL, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }) {
  const res: Dispatcher.ResponseData = await request(url, {
    method: options.method ?? 'GET',
    dispatcher: agent,
    headers: { 'user-agent': SYNC_USER_AGENT, ...options.headers },
    body: options.body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.statusCode < 200 || res.statusCode >= 300) {
    await res.body.dump().catch(() => undefined);
    throw new Error(`${url.host}${url.pathname} answered ${res.statusCode}`);
  }
  return res;
}

async function json(url: URL, options: Parameters<typeof send>[1] = {}): Promise<unknown> {
  const res = await send(url, { ...options, headers: { accept: 'application/json', ...options.headers } });
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BYTES) {
      res.body.destroy();
      throw new Error(`${url.host}${url.pathname}: answer larger than ${MAX_JSON_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error(`${url.host}${url.pathname}: answer is not JSON`);
  }
}

const at = (base: string, path: string) => new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);

export function createDoffinSource(baseUrl: string, apiKey: string | undefined): NoticeSource {
  const headers: Record<string, string> = apiKey ? { 'ocp-apim-subscription-key': apiKey } : {};
  return {
    name: 'doffin',
    async *list(since) {
      for (let page = 1; page <= MAX_PAGES; page++) {
        const url = at(baseUrl, 'search');
        url.search = new URLSearchParams({
          issueDateFrom: since,
          sortBy: 'PUBLICATION_DATE_ASC',
          numHitsPerPage: '100',
          page: String(page),
        }).toString();
        const body = (await json(url, { headers })) as { hits?: { id?: unknown }[] } | null;
        const hits = Array.isArray(body?.hits) ? body.hits : [];
        for (const hit of hits) {
          if (typeof hit?.id !== 'string' || !/^[0-9]{4}-[0-9]{1,9}$/.test(hit.id)) continue;
          const id = hit.id;
          yield {
            id,
            open: async () =>
              (await send(at(baseUrl, `download/${id}`), { headers: { accept: 'application/xml', ...headers } }))
                .body as unknown as Readable,
          };
        }
        if (hits.length < 100) return;
      }
    },
  };
}

/** The expert query of Nordic buyers' notices published since a date. */
export const tedQuery = (since: string) =>
  `buyer-country IN (NOR SWE DNK FIN ISL) AND publication-date>=${since.replaceAll('-', '')}`;

export function createTedSource(baseUrl: string): NoticeSource {
  const apiHost = new URL(baseUrl).host;
  return {
    name: 'ted',
    async *list(since) {
      let token: string | undefined;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const body = (await json(at(baseUrl, 'v3/notices/search'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query: tedQuery(since),
            fields: ['publication-number', 'publication-date'],
            limit: 100,
            paginationMode: 'ITERATION',
            ...(token ? { iterationNextToken: token } : {}),
          }),
        })) as { notices?: Record<string, unknown>[]; iterationNextToken?: unknown } | null;
        const notices = Array.isArray(body?.notices) ? body.notices : [];
        for (const n of notices) {
          const id = n['publication-number'];
          if (typeof id !== 'string' || !/^[0-9]{1,9}-[0-9]{4}$/.test(id)) continue;
          const link = (n.links as { xml?: { MUL?: unknown } } | undefined)?.xml?.MUL;
          let url = at(baseUrl, `en/notice/${id}/xml`);
          if (typeof link === 'string' && URL.canParse(link)) {
            const candidate = new URL(link);
            if (TED_HOSTS.has(candidate.host) || candidate.host === apiHost) url = candidate;
          }
          yield {
            id,
            open: async () => (await send(url, { headers: { accept: 'application/xml' } })).body as unknown as Readable,
          };
        }
        token = typeof body?.iterationNextToken === 'string' ? body.iterationNextToken : undefined;
        if (!token || notices.length === 0) return;
      }
    },
  };
}
