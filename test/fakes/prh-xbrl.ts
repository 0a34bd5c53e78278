// A local fake of PRH's open XBRL API v3 on 127.0.0.1: the registration listing
// `/all_financial_statements?registeredDateStart=&registeredDateEnd=&page=N` (pageSize filings a
// page, 404 when the window holds none, as PRH answers) and `/financial?businessId=&financialDate=`
// (the XBRL, 404 when unknown). Test seams: 429s with a Retry-After, a failure from the Nth
// document on (a run dying mid-way), and a log of every request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeFiling {
  businessId: string;
  financialDate: string;
  registrationDate: string;
  xml: string;
}

export class FakePrhXbrl {
  filings: FakeFiling[] = [];
  pageSize = 2;
  /** The next N requests answer 429 with `retry-after: retryAfter`. */
  rateLimitNext = 0;
  retryAfter = '1';
  /** Document requests from this count on answer 500 (null: never). */
  failDocumentsFrom: number | null = null;
  documentRequests = 0;
  requests: { path: string; query: Record<string, string>; status: number; at: number }[] = [];
  private server = createServer((req, res) => this.handle(req, res));

  get baseUrl() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/opendata-xbrl-api/v3`;
  }
  get env() {
    return { PRH_XBRL_BASE_URL: this.baseUrl, PRH_XBRL_REQUESTS_PER_MINUTE: '60000' };
  }
  /** The statement documents fetched, as businessId:financialDate. */
  get documentsFetched() {
    return this.requests
      .filter((r) => r.path.endsWith('/financial') && r.status === 200)
      .map((r) => `${r.query.businessId}:${r.query.financialDate}`);
  }

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }
  async close() {
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const query = Object.fromEntries(url.searchParams);
    const send = (status: number, body: string, type = 'application/json', headers: Record<string, string> = {}) => {
      this.requests.push({ path: url.pathname, query, status, at: Date.now() });
      res.writeHead(status, { 'content-type': type, ...headers }).end(body);
    };
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return send(429, JSON.stringify({ message: 'Too Many Requests' }), 'application/json', {
        'retry-after': this.retryAfter,
      });
    }
    if (url.pathname === '/opendata-xbrl-api/v3/all_financial_statements') {
      const { registeredDateStart: start, registeredDateEnd: end } = query;
      if (!start || !end || start < '2023-07-01')
        return send(400, JSON.stringify({ message: 'registeredDateStart must be 2023-07-01 or later' }));
      const page = Number(query.page ?? '1');
      const all = this.filings.filter((f) => f.registrationDate >= start && f.registrationDate <= end);
      if (!all.length) return send(404, JSON.stringify({ message: 'No financial statements found' }));
      const slice = all.slice((page - 1) * this.pageSize, page * this.pageSize);
      return send(
        200,
        JSON.stringify({
          totalResults: all.length,
          financials: slice.map(({ businessId, financialDate, registrationDate }) => ({
            businessId,
            financialDate,
            registrationDate,
          })),
        }),
      );
    }
    if (url.pathname === '/opendata-xbrl-api/v3/financial') {
      this.documentRequests++;
      if (this.failDocumentsFrom !== null && this.documentRequests >= this.failDocumentsFrom)
        return send(500, JSON.stringify({ message: 'Internal Server Error' }));
      const f = [...this.filings]
        .reverse()
        .find((x) => x.businessId === query.businessId && x.financialDate === query.financialDate);
      if (!f) return send(404, JSON.stringify({ message: 'Financial statement not found' }));
      return send(200, f.xml, 'application/xml');
    }
    send(404, JSON.stringify({ message: 'not found' }));
  }
}

export const startFakePrhXbrl = () => new FakePrhXbrl().start();
