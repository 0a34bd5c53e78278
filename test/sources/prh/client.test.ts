import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RejectLog } from '../../../src/sources/nordic-record.ts';
import { fetchPrhPage, iteratePrhCompanies, PrhHttpError } from '../../../src/sources/prh/index.ts';

const wolt = JSON.parse(
  readFileSync(new URL('../../fixtures/prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json', import.meta.url), 'utf8'),
).companies[0];

/** Company `n` of the fake register: Wolt's shape under the n-th valid business ID from 2646674. */
function companies(total: number): object[] {
  const out: object[] = [];
  const weights = [7, 9, 10, 5, 8, 4, 2];
  for (let body = 2646674; out.length < total; body++) {
    const s = String(body);
    const rest = weights.reduce((a, w, i) => a + w * Number(s[i]), 0) % 11;
    if (rest === 1) continue;
    const c = structuredClone(wolt);
    c.businessId.value = `${s}-${rest === 0 ? 0 : 11 - rest}`;
    c.names[0].name = `Yritys ${out.length} Oy`;
    out.push(c);
  }
  return out;
}

const REGISTER = companies(23);
const PAGE_SIZE = 10;
const requests: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${url.pathname}${url.search}`);
    if (url.searchParams.get('registrationDateStart') === 'boom') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal trouble');
      return;
    }
    if (url.searchParams.get('registrationDateStart') === 'busy') {
      res.writeHead(429, { 'retry-after': '60' }).end();
      return;
    }
    if (url.searchParams.get('registrationDateStart') === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": []}');
      return;
    }
    const list = url.searchParams.get('registrationDateStart') === 'withbad' ? [{ nope: true }, ...REGISTER] : REGISTER;
    const page = Number(url.searchParams.get('page'));
    const slice = list.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ totalResults: list.length, companies: slice }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/opendata-ytj-api/v3`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('PRH /companies client', () => {
  it('fetches one page', async () => {
    const page = await fetchPrhPage(base, { registrationDateStart: '2026-01-01', page: 3 }, fetch);
    expect(page.totalResults).toBe(23);
    expect(page.companies).toHaveLength(3);
    expect(requests.at(-1)).toBe('/opendata-ytj-api/v3/companies?registrationDateStart=2026-01-01&page=3');
  });

  it('walks all pages and stops after totalResults', async () => {
    requests.length = 0;
    const names: string[] = [];
    for await (const r of iteratePrhCompanies(base, { registrationDateStart: '2026-01-01' }, fetch)) names.push(r.name);
    expect(names).toEqual(REGISTER.map((_, i) => `Yritys ${i} Oy`));
    expect(requests).toEqual(
      [1, 2, 3].map((p) => `/opendata-ytj-api/v3/companies?registrationDateStart=2026-01-01&page=${p}`),
    );
  });

  it('skips and counts unmappable companies', async () => {
    const rejects = new RejectLog('PRH /companies');
    let n = 0;
    for await (const _ of iteratePrhCompanies(base, { registrationDateStart: 'withbad' }, fetch, { rejects })) n++;
    expect(n).toBe(23);
    expect(rejects.samples).toEqual(['page 1 item 0: PRH company without businessId.value']);
  });

  it('turns non-200 answers and wrong shapes into clear errors', async () => {
    const err = await fetchPrhPage(base, { registrationDateStart: 'boom', page: 1 }, fetch).catch((e) => e);
    expect(err).toBeInstanceOf(PrhHttpError);
    expect(err.status).toBe(500);
    expect(err.message).toMatch(
      /^PRH http:\/\/127\.0\.0\.1:\d+\/opendata-ytj-api\/v3\/companies\?registrationDateStart=boom&page=1: HTTP 500: internal trouble$/,
    );
    await expect(fetchPrhPage(base, { registrationDateStart: 'busy', page: 1 }, fetch)).rejects.toThrow(
      /HTTP 429 \(rate limited; retry-after 60\)/,
    );
    await expect(fetchPrhPage(base, { registrationDateStart: 'garbage', page: 1 }, fetch)).rejects.toThrow(
      /expected \{totalResults, companies\[\]\}/,
    );
  });

  it('with rateLimit, waits out 429s by Retry-After (capped, 30 s when absent) and gives up after the retries', async () => {
    const answers = [
      new Response('', { status: 429, headers: { 'retry-after': '7' } }),
      new Response('', { status: 429, headers: { 'retry-after': '600' } }),
      new Response('', { status: 429 }),
      new Response(JSON.stringify({ totalResults: 1, companies: [wolt] }), { status: 200 }),
    ];
    const waits: number[] = [];
    const notes: number[] = [];
    const scripted = async () => answers.shift()!;
    const rateLimit = {
      retries: 3,
      maxWaitMs: 120_000,
      onWait: (ms: number) => notes.push(ms),
      sleep: async (ms: number) => void waits.push(ms),
    };
    const page = await fetchPrhPage(base, { page: 1 }, scripted, { rateLimit });
    expect(page.companies).toHaveLength(1);
    expect(waits).toEqual([7_000, 120_000, 30_000]);
    expect(notes).toEqual(waits);

    waits.length = 0;
    const busy = await fetchPrhPage(base, { registrationDateStart: 'busy', page: 1 }, fetch, {
      rateLimit: { ...rateLimit, retries: 2 },
    }).catch((e) => e);
    expect(busy).toBeInstanceOf(PrhHttpError);
    expect(busy.retryAfterMs).toBe(60_000);
    expect(waits).toEqual([60_000, 60_000]);

    waits.length = 0;
    const boom = await fetchPrhPage(base, { registrationDateStart: 'boom', page: 1 }, fetch, { rateLimit }).catch(
      (e) => e,
    );
    expect(boom.status).toBe(500);
    expect(waits).toEqual([]);
  });

  it('reports a connection failure with the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchPrhPage(`http://127.0.0.1:${port}`, { page: 1 }, fetch)).rejects.toThrow(
      `PRH http://127.0.0.1:${port}/companies?page=1: request failed`,
    );
  });
});
