// The machinery the CRM fakes share: a loopback HTTP server that records every request and
// answers from a handler, with scripted failures (a status with headers for the next n requests,
// or down: 503 for everything) put in front of it.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeHandler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export class CrmFakeServer {
  requests: FakeRequest[] = [];
  /** Answers used, in order, before the handler (each for one request matching its path). */
  scripted: (FakeAnswer & { match?: RegExp })[] = [];
  down = false;
  url = '';
  private sockets = new Set<Socket>();
  private server;

  constructor(private handler: FakeHandler) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const u = new URL(req.url ?? '/', 'http://fake');
        const r: FakeRequest = {
          method: req.method ?? '',
          path: u.pathname,
          query: u.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.requests.push(r);
        let a: FakeAnswer;
        const i = this.scripted.findIndex((s) => !s.match || s.match.test(r.path));
        if (this.down) a = { status: 503, body: { message: 'Service Unavailable' } };
        else if (i >= 0) a = this.scripted.splice(i, 1)[0];
        else {
          try {
            a = await this.handler(r);
          } catch (err) {
            a = { status: 500, body: { message: (err as Error).message } };
          }
        }
        const payload = a.body === undefined ? '' : JSON.stringify(a.body);
        res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) }).end(payload);
      });
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Requests to paths matching `re` (and the method, when given). */
  calls(re: RegExp, method?: string): FakeRequest[] {
    return this.requests.filter((r) => re.test(r.path) && (!method || r.method === method));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const bearer = (r: FakeRequest) => (r.headers.authorization ?? '').replace(/^Bearer /, '');
export const json = (r: FakeRequest): any => (r.body ? JSON.parse(r.body) : undefined);
