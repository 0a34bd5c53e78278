// GET /api/updates reads the next page ahead for a client that follows cursors
// (services/read-ahead.ts): the pages it hands over are the pages a fresh read gives, the first
// page (no cursor) starts nothing, and a write through this process drops what was read ahead,
// so the next page shows the change as a fresh read would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STALENESS_MS } from '../../src/services/support/record-cache.ts';
import { company, org } from '../fixtures/aksjonaer/build.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
const COMPANIES = 23;
const LIMIT = 5;

interface Page {
  data: { orgNumber: string; name: string }[];
  nextCursor: string | null;
}

const readAhead = async () =>
  (await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': 'read-ahead-secret' } })).body
    .feedReadAhead as { held: number; started: number; handedOver: number; expired: number; dropped: number };

async function page(cursor: string | null): Promise<{ text: string; page: Page }> {
  const path = `/api/updates?since=2000-01-01&limit=${LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, page: JSON.parse(text) as Page };
}

/** Every page from the first, in order: each body's text and the cursor it was asked with. */
async function drain(): Promise<{ cursor: string | null; text: string; page: Page }[]> {
  const pages: { cursor: string | null; text: string; page: Page }[] = [];
  let cursor: string | null = null;
  do {
    const p = await page(cursor);
    pages.push({ cursor, ...p });
    cursor = p.page.nextCursor;
  } while (cursor);
  return pages;
}

beforeAll(async () => {
  server = await startServer({ env: { SYNC_SECRET: 'read-ahead-secret' } });
  key = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
  await server.ctx.repos.companyWrites.write(
    Array.from({ length: COMPANIES }, (_, i) => company(org(900 + i), `FEED ${String(i).padStart(2, '0')} AS`)),
  );
});
afterAll(async () => {
  await server?.close();
});

describe('change feed read-ahead', () => {
  it('hands a draining client pages read ahead that equal fresh reads of the same cursors', async () => {
    const before = await readAhead();
    const pages = await drain();
    const after = await readAhead();
    expect(pages.flatMap((p) => p.page.data)).toHaveLength(COMPANIES);
    // Pages 3.. were asked for after a page that followed a cursor: each was read ahead, and
    // handed over unless the client took more than 1 s to ask (then read again).
    const readAheadable = pages.length - 2;
    expect(after.started - before.started).toBe(readAheadable);
    expect(after.handedOver - before.handedOver + (after.expired - before.expired)).toBe(readAheadable);
    expect(after.handedOver - before.handedOver).toBeGreaterThan(0);
    expect(after.held).toBe(0); // the last page has no next page to read

    // The same cursors asked last page first: none of these was read ahead (each request reads
    // ahead the page after it, which was already asked), so they are fresh reads.
    const handed = after.handedOver;
    for (const p of [...pages].reverse()) expect((await page(p.cursor)).text).toBe(p.text);
    expect((await readAhead()).handedOver).toBe(handed);
  });

  it('reads nothing ahead for a first page (a client that has not followed a cursor)', async () => {
    const before = await readAhead();
    await page(null);
    expect((await readAhead()).started).toBe(before.started);
  });

  it('drops the page read ahead on a write through this process: the next page is read afresh', async () => {
    // What the tests above read ahead and left unasked ages out (and is pruned) after 1 s.
    await new Promise((resolve) => setTimeout(resolve, MAX_STALENESS_MS + 50));
    expect((await readAhead()).held).toBe(0);
    const first = await page(null);
    const second = await page(first.page.nextCursor);
    const ahead = await readAhead();
    expect(ahead.held).toBe(1); // the third page, being read or read
    // Which companies a fresh read of the third page holds, from the store (feed order).
    const thirdPage = (
      await server.ctx.store.pool.query<{ org_number: string }>(
        `SELECT org_number FROM companies ORDER BY updated_at, id OFFSET ${2 * LIMIT} LIMIT ${LIMIT}`,
      )
    ).rows.map((r) => r.org_number);
    const renamed = thirdPage[0];
    await server.ctx.repos.companyWrites.write([company(renamed, 'RENAMED AFTER THE READ-AHEAD AS')]);

    const third = await page(second.page.nextCursor);
    const after = await readAhead();
    expect(after.handedOver).toBe(ahead.handedOver);
    expect(after.dropped).toBeGreaterThan(ahead.dropped);
    // The renamed company moved to the end of the feed: the third page no longer holds it, and
    // the rest of the drain holds it once, renamed.
    expect(third.page.data.map((r) => r.orgNumber)).not.toContain(renamed);
    const rest: Page['data'] = [...third.page.data];
    let cursor = third.page.nextCursor;
    while (cursor) {
      const p = await page(cursor);
      rest.push(...p.page.data);
      cursor = p.page.nextCursor;
    }
    const seen = rest.filter((r) => r.orgNumber === renamed);
    expect(seen).toEqual([expect.objectContaining({ name: 'RENAMED AFTER THE READ-AHEAD AS' })]);
    expect(rest.at(-1)?.orgNumber).toBe(renamed);
  });
});
