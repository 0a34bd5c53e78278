// A local fake of CVR's system-til-system Elasticsearch on 127.0.0.1: basic auth, the search and
// scroll API over `cvr-permanent/virksomhed` (match_all, a range on Vrvirksomhed.sidstOpdateret, a
// term on Vrvirksomhed.cvrNummer), the `offentliggoerelser` index, and static files (XBRL
// documents). Documents come from a list or, for scale tests, from a generator by index, so a
// walk of 300k documents never holds them all. Requests are logged for assertions.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCvrRequest {
  method: string;
  path: string;
  authorized: boolean;
}

type Hit = { _source: { Vrvirksomhed: Record<string, unknown> } } & Record<string, unknown>;

interface Scroll {
  next: number;
  matching: number[] | null;
  /** Over the publications index instead of the companies. */
  publications?: boolean;
}

export class FakeCvr {
  username = 'cvr-user';
  password = 'cvr-secret';
  /** Company documents (search hits as CVR returns them). */
  hits: Hit[] = [];
  /** Instead of `hits`: `count` documents made on demand by `generate(i)`. */
  generated: { count: number; generate: (i: number) => Hit } | null = null;
  /** Publication documents of the offentliggoerelser index (`_source` objects). */
  publications: Record<string, unknown>[] = [];
  /** Static files by path (XBRL documents). */
  files = new Map<string, { body: string; contentType: string }>();
  /** The scroll dies after this many continuation pages (404 search_context_missing_exception). */
  expireScrollAfter: number | null = null;
  /** Caps the page size a search asks for (to make small sets span several scroll pages). */
  maxPageSize = Infinity;
  requests: FakeCvrRequest[] = [];
  private scrolls = new Map<string, Scroll>();
  private scrollSeq = 0;
  private server = createServer((req, res) => void this.handle(req, res));

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get env(): Record<string, string> {
    return { CVR_BASE_URL: this.url, CVR_USERNAME: this.username, CVR_PASSWORD: this.password };
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get openScrolls(): number {
    return this.scrolls.size;
  }

  private count(): number {
    return this.generated ? this.generated.count : this.hits.length;
  }

  private hit(i: number): Hit {
    return this.generated ? this.generated.generate(i) : this.hits[i];
  }

  /** Indices of the documents a query matches; null = all (match_all). */
  private match(query: Record<string, unknown> | undefined): number[] | null {
    const range = (query?.range as Record<string, { gte?: string }> | undefined)?.['Vrvirksomhed.sidstOpdateret'];
    const term = (query?.term as Record<string, unknown> | undefined)?.['Vrvirksomhed.cvrNummer'];
    if (!range && term === undefined) return null;
    const out: number[] = [];
    for (let i = 0; i < this.count(); i++) {
      const v = this.hit(i)._source.Vrvirksomhed;
      if (range?.gte && Date.parse(String(v.sidstOpdateret)) < Date.parse(range.gte)) continue;
      if (term !== undefined && String(v.cvrNummer) !== String(term)) continue;
      out.push(i);
    }
    return out;
  }

  private page(scroll: Scroll, size: number) {
    const all = scroll.publications ? this.publications.length : this.count();
    const total = scroll.matching ? scroll.matching.length : all;
    const hits: unknown[] = [];
    for (; hits.length < size && scroll.next < total; scroll.next++) {
      const i = scroll.matching ? scroll.matching[scroll.next] : scroll.next;
      hits.push(scroll.publications ? { _id: `pub-${i}`, _source: this.publications[i] } : this.hit(i));
    }
    return { total, hits };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const expected = 'Basic ' + Buffer.from(`${this.username}:${this.password}`).toString('base64');
    const authorized = req.headers.authorization === expected;
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, authorized });
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const file = this.files.get(url.pathname);
    if (file) return void res.writeHead(200, { 'content-type': file.contentType }).end(file.body);
    if (!authorized) return json(401, { error: 'Unauthorized' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};

    const publications = url.pathname === '/offentliggoerelser/_search' && url.searchParams.has('scroll');
    if (url.pathname === '/cvr-permanent/virksomhed/_search' || publications) {
      const size = Math.min(Number(body.size ?? 10), this.maxPageSize);
      // A URI search (`?q=Vrvirksomhed.cvrNummer:N`, the live fetch) or a query in the body.
      const q = /^Vrvirksomhed\.cvrNummer:(\d+)$/.exec(url.searchParams.get('q') ?? '');
      const query = q ? { term: { 'Vrvirksomhed.cvrNummer': q[1] } } : (body.query as Record<string, unknown>);
      const scroll: Scroll = publications
        ? { next: 0, matching: null, publications: true }
        : { next: 0, matching: this.match(query) };
      const { total, hits } = this.page(scroll, size);
      if (!url.searchParams.has('scroll')) return json(200, { hits: { total, hits } });
      const id = `scroll-${++this.scrollSeq}`;
      this.scrolls.set(id, { ...scroll, size, pages: 0 } as Scroll);
      return json(200, { _scroll_id: id, took: 1, hits: { total, max_score: null, hits } });
    }
    if (url.pathname === '/_search/scroll' && req.method === 'DELETE') {
      for (const id of [body.scroll_id].flat()) this.scrolls.delete(String(id));
      return json(200, { succeeded: true });
    }
    if (url.pathname === '/_search/scroll') {
      const s = this.scrolls.get(String(body.scroll_id)) as (Scroll & { size: number; pages: number }) | undefined;
      if (s && this.expireScrollAfter !== null && ++s.pages > this.expireScrollAfter)
        this.scrolls.delete(String(body.scroll_id));
      const live = this.scrolls.get(String(body.scroll_id)) as (Scroll & { size: number }) | undefined;
      if (!live)
        return json(404, {
          error: {
            root_cause: [{ type: 'search_context_missing_exception', reason: 'No search context found for id' }],
          },
          status: 404,
        });
      const { total, hits } = this.page(live, live.size);
      return json(200, { _scroll_id: body.scroll_id, hits: { total, hits } });
    }
    if (url.pathname === '/offentliggoerelser/_search') {
      const term = ((body.query as Record<string, Record<string, unknown>> | undefined)?.term ?? {}).cvrNummer;
      const hits = this.publications
        .filter((p) => term === undefined || String(p.cvrNummer) === String(term))
        .map((p, i) => ({ _id: String(i), _source: p }));
      return json(200, { hits: { total: hits.length, hits: hits.slice(0, Number(body.size ?? 10)) } });
    }
    json(404, { error: 'not found' });
  }
}

export async function startFakeCvr(): Promise<FakeCvr> {
  return new FakeCvr().start();
}
