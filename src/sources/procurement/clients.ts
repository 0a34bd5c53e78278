// The two upstreams of procurement notices, each listing the notices published since a date and
// downloading each notice's eForms XML (shapes checked against the publishers' documentation and
// reports of the live APIs, 2026-11-27):
// - Doffin's public API (api.doffin.no/public/v2, subscription key as Ocp-Apim-Subscription-Key):
//   GET /search?issueDateFrom=&issueDateTo=(YYYY-MM-DD)&page=(1-based)&numHitsPerPage=&sortBy=
//   answers {numHitsTotal, numHitsAccessible, hits:[{id, ...}]}; GET /download/{id} answers the
//   notice XML. Only the top 1000 hits of a query can be read (page × numHitsPerPage ≤ 1000, else
//   400), so the days since `since` are read in windows, halved while a window holds more. The
//   gateway answers 429 with Retry-After (about 30 requests per 10 s); that wait is honoured.
// - TED's search API v3 (anonymous): POST /v3/notices/search {query, fields, limit ≤ 250, scope,
//   paginationMode: ITERATION, iterationNextToken} answers {notices:[{publication-number,
//   links:{xml:{MUL}}}], totalNoticeCount, iterationNextToken}; scope ALL, since the default
//   leaves out notices no longer active (results, closed competitions). The XML is fetched from
//   the notice's link when it is on TED's own hosts, else from /en/notice/{number}/xml.
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** Retries after a 429 or 503, waiting what Retry-After asks (capped), a few times. */
const MAX_RETRIES = 4;
const MAX_RETRY_WAIT_MS = 30_000;

function retryWait(header: string | string[] | undefined, attempt: number): number {
  const value = Array.isArray(header) ? header[0] : header;
  const seconds = value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : 2 ** attempt;
  return Math.min(seconds * 1000, MAX_RETRY_WAIT_MS);
}

async function send(url: URL, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }) {
  for (let attempt = 0; ; attempt++) {
    const res: Dispatcher.ResponseData = await request(url, {
      method: options.method ?? 'GET',
      dispatcher: agent,
      headers: { 'user-agent': SYNC_USER_AGENT, ...options.headers },
      body: options.body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.statusCode >= 200 && res.statusCode < 300) return res;
    await res.body.dump().catch(() => undefined);
    if ((res.statusCode === 429 || res.statusCode === 503) && attempt < MAX_RETRIES) {
      await sleep(retryWait(res.headers['retry-after'], attempt));
      continue;
    }
    throw new Error(`${url.host}${url.pathname} answered ${res.statusCode}`);
  }
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

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY_MS);
/** Doffin's ceiling on the hits one query can page through. */
const DOFFIN_ACCESSIBLE = 1000;
const DOFFIN_PAGE = 100;
/** A window of a week stays under the ceiling (about 30 notices a day, at most 99 seen). */
const DOFFIN_WINDOW_DAYS = 7;

export function createDoffinSource(
  baseUrl: string,
  apiKey: string | undefined,
  today: () => Date = () => new Date(),
): NoticeSource {
  const headers: Record<string, string> = apiKey ? { 'ocp-apim-subscription-key': apiKey } : {};
  const search = async (from: string, to: string | null, page: number) => {
    const url = at(baseUrl, 'search');
    url.search = new URLSearchParams({
      issueDateFrom: from,
      ...(to ? { issueDateTo: to } : {}),
      sortBy: 'PUBLICATION_DATE_ASC',
      numHitsPerPage: String(DOFFIN_PAGE),
      page: String(page),
    }).toString();
    const body = (await json(url, { headers })) as { numHitsTotal?: unknown; hits?: { id?: unknown }[] } | null;
    const hits = Array.isArray(body?.hits) ? body.hits : [];
    const total = typeof body?.numHitsTotal === 'number' ? body.numHitsTotal : hits.length;
    return { total, ids: hits.map((h) => h?.id).filter((id): id is string => typeof id === 'string') };
  };
  /** The ids issued from `from` to `to` (open-ended when null): halved while over the ceiling. */
  async function* window(from: string, to: string | null, end: string): AsyncGenerator<string> {
    const first = await search(from, to, 1);
    const span = daysBetween(from, to ?? end);
    if (first.total > DOFFIN_ACCESSIBLE && span > 1) {
      // The halves share a day (whether issueDateTo is inclusive is not documented); the caller
      // drops ids it has seen.
      const mid = addDays(from, Math.floor(span / 2));
      yield* window(from, mid, end);
      yield* window(mid, to, end);
      return;
    }
    yield* first.ids;
    const pages = Math.ceil(Math.min(first.total, DOFFIN_ACCESSIBLE) / DOFFIN_PAGE);
    for (let page = 2; page <= pages && page <= MAX_PAGES; page++) {
      const next = await search(from, to, page);
      yield* next.ids;
      if (next.ids.length < DOFFIN_PAGE) return;
    }
  }
  return {
    name: 'doffin',
    async *list(since) {
      const seen = new Set<string>();
      // Weekly windows up to today; the last one has no upper bound, so neither an exclusive
      // issueDateTo nor a clock behind Doffin's loses the newest notices.
      const end = addDays(today().toISOString().slice(0, 10), 1);
      for (let from = since; ; from = addDays(from, DOFFIN_WINDOW_DAYS)) {
        const next = addDays(from, DOFFIN_WINDOW_DAYS);
        const last = next >= end;
        for await (const id of window(from, last ? null : next, end)) {
          if (!/^[0-9]{4}-[0-9]{1,9}$/.test(id) || seen.has(id)) continue;
          seen.add(id);
          yield {
            id,
            open: async () =>
              (
                await send(at(baseUrl, `download/${id}`), {
                  // The download answers application/octet-stream.
                  headers: { accept: 'application/xml, application/octet-stream', ...headers },
                })
              ).body as unknown as Readable,
          };
        }
        if (last) return;
      }
    },
  };
}

/** The expert query of Nordic buyers' notices published since a date. */
const tedQuery = (since: string) =>
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
            fields: ['publication-number', 'publication-date', 'links'],
            limit: 100,
            scope: 'ALL',
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
