// Fake Doffin public API and TED search API on 127.0.0.1, serving eForms notices (the recorded
// fixtures or generated ones), with the limits the live APIs have: Doffin GET /search filters by
// issueDateFrom/issueDateTo (inclusive), pages from 1, and refuses with 400 to page past the top
// 1000 hits (page × numHitsPerPage), as api.doffin.no does; GET /download/{id}. TED POST
// /v3/notices/search (iterated by token) with each notice's XML link, and /en/notice/{n}/xml.
// `throttle` answers the next N requests with 429 and Retry-After: 0, as Doffin's gateway does.
// Requests are logged with the Doffin subscription key header they carried.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeProcurement {
  url: string;
  /** Doffin id -> { issueDate (YYYY-MM-DD), xml }. */
  doffin: Map<string, { issueDate: string; xml: string }>;
  /** TED publication number -> { publicationDate, xml }. */
  ted: Map<string, { publicationDate: string; xml: string }>;
  requests: { path: string; query: string; body: string; apiKey: string | undefined }[];
  /** How many of the next requests are answered 429 (counted down). */
  throttle: number;
  close(): Promise<void>;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

export async function startFakeProcurement(): Promise<FakeProcurement> {
  const doffin = new Map<string, { issueDate: string; xml: string }>();
  const ted = new Map<string, { publicationDate: string; xml: string }>();
  const requests: FakeProcurement['requests'] = [];
  let url = '';
  const state = { throttle: 0 };
  const server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://fake');
      const text = await body(req);
      const key = req.headers['ocp-apim-subscription-key'];
      requests.push({
        path: u.pathname,
        query: u.search,
        body: text,
        apiKey: typeof key === 'string' ? key : undefined,
      });
      if (state.throttle > 0) {
        state.throttle--;
        return res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' })
          .end(JSON.stringify({ statusCode: 429, message: 'Rate limit is exceeded. Try again in 0 seconds.' }));
      }
      const json = (v: unknown, status = 200) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      const xml = (v: string | undefined) =>
        v === undefined
          ? res.writeHead(404).end('not found')
          : res.writeHead(200, { 'content-type': 'application/xml' }).end(v);
      if (u.pathname === '/doffin/search') {
        const from = u.searchParams.get('issueDateFrom') ?? '0000-00-00';
        const to = u.searchParams.get('issueDateTo') ?? '9999-99-99';
        const size = Number(u.searchParams.get('numHitsPerPage') ?? 100);
        const page = Number(u.searchParams.get('page') ?? 1);
        if (page < 1) return json({ reason: 'Parameter page must be >= 1' }, 400);
        if (page * size > 1000)
          return json(
            {
              reason:
                'Unable to access more than the top 1000 hits, please lower either the page or numHitsPerPage parameters.',
            },
            400,
          );
        const hits = [...doffin]
          .filter(([, n]) => n.issueDate >= from && n.issueDate <= to)
          .sort(([ia, a], [ib, b]) => a.issueDate.localeCompare(b.issueDate) || ia.localeCompare(ib))
          .map(([id, n]) => ({ id, issueDate: n.issueDate, heading: 'x' }));
        return json({
          numHitsTotal: hits.length,
          numHitsAccessible: Math.min(hits.length, 1000),
          hits: hits.slice((page - 1) * size, page * size),
        });
      }
      const download = /^\/doffin\/download\/(.+)$/.exec(u.pathname);
      if (download) return xml(doffin.get(download[1])?.xml);
      if (u.pathname === '/ted/v3/notices/search' && req.method === 'POST') {
        const q = JSON.parse(text) as { query: string; limit: number; iterationNextToken?: string };
        const from = /publication-date>=(\d{8})/.exec(q.query)?.[1] ?? '00000000';
        const all = [...ted]
          .filter(([, n]) => n.publicationDate.replaceAll('-', '') >= from)
          .map(([id]) => ({ 'publication-number': id, links: { xml: { MUL: `${url}/ted/en/notice/${id}/xml` } } }));
        const start = Number(q.iterationNextToken ?? 0);
        const notices = all.slice(start, start + q.limit);
        const next = start + q.limit < all.length ? String(start + q.limit) : null;
        return json({ notices, totalNoticeCount: all.length, iterationNextToken: next });
      }
      const tedXml = /^\/ted\/en\/notice\/(.+)\/xml$/.exec(u.pathname);
      if (tedXml) return xml(ted.get(tedXml[1])?.xml);
      res.writeHead(404).end('not found');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    doffin,
    ted,
    requests,
    get throttle() {
      return state.throttle;
    },
    set throttle(n: number) {
      state.throttle = n;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
