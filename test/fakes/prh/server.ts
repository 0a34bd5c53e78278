// A local fake of PRH's YTJ open-data API v3 on 127.0.0.1: `/all_companies` (a ZIP of one JSON
// array), the paged `/companies?registrationDateStart=…&page=N` search, plus any static file
// (the Bolagsverket bulk ZIP), with a request log so tests can assert who was asked what.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import yazl from 'yazl';

export interface FakeRequest {
  path: string;
  query: string;
  accept: string | undefined;
}

export class FakePrh {
  /** Raw PRH v3 company objects, served by both endpoints. */
  companies: Record<string, unknown>[] = [];
  /** Companies per `/companies` page. */
  pageSize = 100;
  /** The next N requests answer 429 with `retry-after: 0`. */
  rateLimitNext = 0;
  /** Other files by path (e.g. `/bolagsverket/bolagsverket_bulkfil.zip`). */
  files = new Map<string, { body: Buffer; contentType: string }>();
  requests: FakeRequest[] = [];
  private server = createServer((req, res) => void this.handle(req, res));

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The PRH_BASE_URL to configure (the real API lives under this path too). */
  get baseUrl(): string {
    return `${this.url}/opendata-ytj-api/v3`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  resetCounters(): void {
    this.requests = [];
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ path: url.pathname, query: url.search, accept: req.headers.accept });
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'text/plain' }).end('Too Many Requests');
      return;
    }
    const file = this.files.get(url.pathname);
    if (file) {
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.body.length }).end(file.body);
      return;
    }
    if (url.pathname.endsWith('/all_companies')) {
      const zip = await zipOf('all_companies.json', JSON.stringify(this.companies));
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length }).end(zip);
      return;
    }
    if (url.pathname.endsWith('/companies')) {
      const start = url.searchParams.get('registrationDateStart') ?? '';
      const page = Number(url.searchParams.get('page') ?? '1');
      const matching = this.companies
        .filter((c) => String(c.registrationDate ?? '') >= start)
        .sort((a, b) => businessId(a).localeCompare(businessId(b)));
      const companies = matching.slice((page - 1) * this.pageSize, page * this.pageSize);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ totalResults: matching.length, companies }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
  }
}

const businessId = (c: Record<string, unknown>) =>
  String((c.businessId as { value?: string } | undefined)?.value ?? '');

export async function zipOf(name: string, data: string | Buffer): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8'), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakePrh(): Promise<FakePrh> {
  return new FakePrh().start();
}
