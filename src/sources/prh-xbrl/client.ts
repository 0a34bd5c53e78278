// PRH's open XBRL API v3 (avoindata.prh.fi/opendata-xbrl-api/v3, no key, CC BY 4.0):
//   GET /all_financial_statements?registeredDateStart=&registeredDateEnd=&page=N
//     → { totalResults, financials: [{ businessId, financialDate, registrationDate }] }, the filings
//       registered in the window, a page at a time (the API lists registrations from 2023-07-01 on);
//   GET /financial?businessId=&financialDate= → the XBRL instance of one filing.
// Requests are paced (PRH_XBRL_REQUESTS_PER_MINUTE) and a 429 is waited out (paced-http.ts).
import { createPacedClient } from '../paced-http.ts';
import { UpstreamError } from '../upstream-http.ts';

/** The earliest registration date the listing accepts. */
export const PRH_LISTING_START = '2023-07-01';

export interface PrhFiling {
  businessId: string;
  financialDate: string;
  registrationDate: string | null;
}

export interface PrhXbrlClientOptions {
  baseUrl: string;
  requestsPerMinute: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const BUSINESS_ID = /^\d{7}-\d$/;
const DATE = /^\d{4}-\d{2}-\d{2}/;

/** The filings of one listing page that name a business ID and a date; others are dropped. */
export function filingsOf(body: unknown): { total: number | null; filings: PrhFiling[] } {
  const b = body as { totalResults?: unknown; financials?: unknown } | null;
  if (!b || typeof b !== 'object' || !Array.isArray(b.financials))
    throw new UpstreamError('malformed', 'all_financial_statements: no financials[] in the answer');
  const filings: PrhFiling[] = [];
  for (const f of b.financials as Record<string, unknown>[]) {
    const id = typeof f?.businessId === 'string' ? f.businessId.trim() : '';
    const date = typeof f?.financialDate === 'string' ? f.financialDate.slice(0, 10) : '';
    if (!BUSINESS_ID.test(id) || !DATE.test(date)) continue;
    const reg =
      typeof f.registrationDate === 'string' && DATE.test(f.registrationDate) ? f.registrationDate.slice(0, 10) : null;
    filings.push({ businessId: id, financialDate: date, registrationDate: reg });
  }
  return { total: typeof b.totalResults === 'number' ? b.totalResults : null, filings };
}

export function createPrhXbrlClient(opts: PrhXbrlClientOptions) {
  const base = opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`;
  const http = createPacedClient({
    requestsPerMinute: opts.requestsPerMinute,
    timeoutMs: opts.timeoutMs,
    sleep: opts.sleep,
  });
  const at = (path: string, query: Record<string, string>) => {
    const url = new URL(path, base);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url;
  };

  return {
    stats: http.stats,

    /** Every filing registered from `start` to `end` (inclusive), page by page. */
    async *listRegistered(start: string, end: string): AsyncGenerator<PrhFiling[]> {
      let seen = 0;
      for (let page = 1; ; page++) {
        const url = at('all_financial_statements', {
          registeredDateStart: start,
          registeredDateEnd: end,
          page: String(page),
        });
        const res = await http.send(url, { headers: { accept: 'application/json' } });
        // No filing in the window: PRH answers 404 rather than an empty list.
        if (res.status === 404 && page === 1) return;
        if (res.status < 200 || res.status >= 300)
          throw new UpstreamError('status', `${url.pathname} answered ${res.status}`, res.status);
        let body: unknown;
        try {
          body = JSON.parse(res.body.toString('utf8'));
        } catch {
          throw new UpstreamError('malformed', `${url.pathname}: the answer is not JSON`);
        }
        const { total, filings } = filingsOf(body);
        const listed = Array.isArray((body as { financials: unknown[] }).financials)
          ? (body as { financials: unknown[] }).financials.length
          : 0;
        if (listed === 0) return;
        seen += listed;
        yield filings;
        if (total !== null && seen >= total) return;
      }
    },

    /**
     * One filing's XBRL. A 4xx (the filing is not there) is `{ missing: status }`; 5xx, network
     * failures and a 429 not waited out throw UpstreamError (the run stops and resumes later).
     */
    async fetchStatement(
      f: Pick<PrhFiling, 'businessId' | 'financialDate'>,
    ): Promise<{ xml: string } | { missing: number }> {
      const url = at('financial', { businessId: f.businessId, financialDate: f.financialDate });
      const res = await http.send(url, { headers: { accept: 'application/xml, text/xml;q=0.9, */*;q=0.5' } });
      if (res.status >= 400 && res.status < 500) return { missing: res.status };
      if (res.status < 200 || res.status >= 300)
        throw new UpstreamError('status', `${url.pathname} answered ${res.status}`, res.status);
      return { xml: res.body.toString('utf8') };
    },
  };
}

export type PrhXbrlClient = ReturnType<typeof createPrhXbrlClient>;
