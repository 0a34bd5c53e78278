// Issue 26 over real HTTP: GET /api/events paging and filters, the SSE stream resuming from
// Last-Event-ID with no gap, watchlists with an alert receiver that is down for 10 minutes of a
// test clock (every alert arrives after recovery, one webhook-id per batch across retries, the
// signature verifies with the standardwebhooks library), and 410 past retention.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyCore } from '../../src/domain/company.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { createEventLogRepository } from '../../src/store/events/event-log.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let receiver: WebhookReceiver;
let key: string;
const clock = new FakeClock(new Date());
const SIGNING = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
const cores: CompanyCore[] = Array.from({ length: 12 }, (_, i) => mapEnhet(generateCompany(i, 126).enhet)).filter(
  (c) => !c.isDeleted,
);
let round = 0;

/** Renames every given company once: one `name` event each, in this order. */
async function rename(list: CompanyCore[]) {
  round++;
  await server.ctx.repos.companyWrites.write(list.map((c) => ({ core: { ...c, name: `${c.name} R${round}` } })));
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startServer({ env: { ALLOW_PRIVATE_DESTINATIONS: 'true' }, overrides: { clock } });
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  await server.ctx.repos.companyWrites.write(cores.map((core) => ({ core })));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

/** Reads SSE frames from a stream until `count` events arrived; returns them and aborts. */
async function readStream(headers: Record<string, string>, count: number, query = '') {
  const ctrl = new AbortController();
  const res = await fetch(`${server.url}/api/events/stream${query}`, {
    headers: { authorization: `Bearer ${key}`, ...headers },
    signal: ctrl.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const events: { id: number; data: { seq: number; category: string } }[] = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, cut);
      text = text.slice(cut + 2);
      const id = /^id: (\d+)$/m.exec(block);
      const data = /^data: (.*)$/m.exec(block);
      if (id && data && events.length < count) events.push({ id: Number(id[1]), data: JSON.parse(data[1]) });
    }
  }
  ctrl.abort();
  return events;
}

describe('GET /api/events', () => {
  it('pages by seq with nextAfter and filters by company and category', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    await rename(cores);
    const first = await http(server.url, 'GET', `/api/events?after=${lastSeq}&limit=5`, { key });
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3, 4, 5].map((n) => lastSeq + n));
    expect(first.body).toMatchObject({ hasMore: true, nextAfter: lastSeq + 5 });
    const rest = await http(server.url, 'GET', `/api/events?after=${first.body.nextAfter}&limit=100`, { key });
    expect(rest.body.data).toHaveLength(cores.length - 5);
    expect(rest.body).toMatchObject({ hasMore: false, nextAfter: lastSeq + cores.length });
    expect(rest.body.data[0]).toMatchObject({ category: 'name', type: 'name_changed', fieldsChanged: ['name'] });
    // The page the database serialises carries exactly what the typed read returns.
    expect([...first.body.data, ...rest.body.data]).toEqual(
      (await server.ctx.repos.eventLog.list(lastSeq, {}, 100, lastSeq + cores.length)).events,
    );

    const one = await http(
      server.url,
      'GET',
      `/api/events?after=${lastSeq}&orgNumber=${cores[3].orgNumber}&country=NO&category=name,status`,
      { key },
    );
    expect(one.body.data).toEqual([expect.objectContaining({ orgNumber: cores[3].orgNumber, seq: lastSeq + 4 })]);
    const none = await http(server.url, 'GET', `/api/events?after=${lastSeq}&category=roles`, { key });
    expect(none.body).toMatchObject({ data: [], hasMore: false, nextAfter: lastSeq + cores.length });
  });

  it('gives each event a UUIDv8 id of this installation and its seq, the same on every read', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    await rename(cores.slice(0, 3));
    const page = await http(server.url, 'GET', `/api/events?after=${lastSeq}`, { key });
    const ids: string[] = page.body.data.map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(3);
    for (const [i, id] of ids.entries()) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // The last 62 bits are the seq; the first 64 are the installation's (one prefix for all).
      expect(BigInt('0x' + id.replace(/-/g, '').slice(16)) & ((1n << 62n) - 1n)).toBe(BigInt(lastSeq + 1 + i));
      expect(id.slice(0, 18)).toBe(ids[0].slice(0, 18));
    }
    const again = await server.ctx.repos.eventLog.list(lastSeq, {}, 3);
    expect(again.events.map((e) => e.id)).toEqual(ids);
  });

  it('walks a bounded window per read under a category filter, and reading on finds every match', async () => {
    const narrow = createEventLogRepository(server.ctx.store.db, { scanWindow: 4 });
    const { lastSeq: from } = await server.ctx.repos.eventLog.bounds();
    await rename(cores);
    await server.ctx.repos.companyWrites.write([
      { core: { ...cores[5], name: `${cores[5].name} X`, isBankrupt: true } },
    ]);
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    const all = (await narrow.list(from, {}, 100, lastSeq)).events;
    const status = all.filter((e) => e.category === 'status');
    expect(status).toHaveLength(1);
    const seen = [];
    const reads = [];
    for (let after = from; after < lastSeq;) {
      const read = await narrow.list(after, { categories: ['status'] }, 100, lastSeq);
      expect(read.through).toBeLessThanOrEqual(Math.min(lastSeq, after + 4));
      seen.push(...read.events);
      reads.push(read.events.length);
      after = read.through;
    }
    expect(seen).toEqual(status);
    // Reads that found nothing in their window still moved on.
    expect(reads.filter((n) => n === 0).length).toBeGreaterThan(1);
    const page = await narrow.pageJson(from, { categories: ['status'] }, 100, lastSeq);
    expect(page).toMatchObject({ count: 0, through: from + 4, json: '[]' });
  });

  it('refuses bad input with 400 and details', async () => {
    for (const q of [
      'after=-1',
      'after=9223372036854775808',
      'after=1e40',
      'category=nonsense',
      'limit=0',
      'limit=5001',
      'country=XX',
    ]) {
      const r = await http(server.url, 'GET', `/api/events?${q}`, { key });
      expect(r.status, q).toBe(400);
      expect(r.body.details.length, q).toBeGreaterThan(0);
    }
    const r = await http(server.url, 'GET', '/api/events/stream', { key, headers: { 'last-event-id': 'abc' } });
    expect(r.status).toBe(400);
  });
});

describe('GET /api/events/stream', () => {
  it('resumes from Last-Event-ID with no gap and no duplicate', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    await rename(cores.slice(0, 6));
    const firstPart = await readStream({ 'last-event-id': String(lastSeq) }, 4);
    expect(firstPart.map((e) => e.id)).toEqual([1, 2, 3, 4].map((n) => lastSeq + n));
    // More events while the client is away, then it reconnects with the last id it saw.
    await rename(cores.slice(6));
    const total = cores.length;
    const second = await readStream({ 'last-event-id': String(firstPart[3].id) }, total - 4);
    const seen = [...firstPart, ...second].map((e) => e.id);
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => lastSeq + 1 + i));
    expect(second.every((e) => e.data.seq === e.id)).toBe(true);
  });

  it('delivers events committed after it turned live, filtered', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    const target = cores[2].orgNumber;
    const pending = readStream({}, 1, `?after=${lastSeq}&orgNumber=${target}`);
    await new Promise((r) => setTimeout(r, 300)); // let the stream open before the write
    await rename(cores);
    const got = await pending;
    expect(got).toEqual([
      expect.objectContaining({ id: lastSeq + 3, data: expect.objectContaining({ seq: lastSeq + 3 }) }),
    ]);
  });
});

describe('watchlists', () => {
  it('creates, lists, updates and validates watchlists and their companies', async () => {
    const dest = await http(server.url, 'POST', '/api/destinations', {
      key,
      body: { name: 'alerts', type: 'webhook', config: { url: `${receiver.url}/alerts`, signingSecret: SIGNING } },
    });
    expect(dest.status).toBe(201);
    const created = await http(server.url, 'POST', '/api/watchlists', {
      key,
      body: { name: 'kyc', categories: ['name', 'status'], destination: 'alerts' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'kyc', companyCount: 0, paused: false, destination: 'alerts' });
    const dup = await http(server.url, 'POST', '/api/watchlists', {
      key,
      body: { name: 'kyc', categories: ['name'], destination: 'alerts' },
    });
    expect(dup.status).toBe(409);
    const noDest = await http(server.url, 'POST', '/api/watchlists', {
      key,
      body: { name: 'other', categories: ['name'], destination: 'missing' },
    });
    expect(noDest.status).toBe(404);
    const badCat = await http(server.url, 'POST', '/api/watchlists', {
      key,
      body: { name: 'other', categories: ['weather'], destination: 'alerts' },
    });
    expect(badCat.status).toBe(400);

    const watched = cores.slice(0, 3).map((c) => ({ orgNumber: c.orgNumber, country: 'NO' }));
    const add = await http(server.url, 'POST', '/api/watchlists/kyc/companies', {
      key,
      body: { companies: [...watched, watched[0]] },
    });
    expect(add.body).toMatchObject({ changed: 3, companyCount: 3, maxCompanies: 5000 });
    const tooMany = await http(server.url, 'POST', '/api/watchlists/kyc/companies', {
      key,
      body: { companies: Array.from({ length: 1001 }, () => watched[0]) },
    });
    expect(tooMany.status).toBe(400);
    const list = await http(server.url, 'GET', '/api/watchlists', { key });
    expect(list.body.data).toEqual([expect.objectContaining({ name: 'kyc', companyCount: 3 })]);
    const other = (await createKey(server)).raw;
    expect((await http(server.url, 'GET', '/api/watchlists/kyc', { key: other })).status).toBe(404);
  });

  it('a free key holds at most 25 companies per watchlist; an overflowing call adds nothing', async () => {
    const free = (await createKey(server)).raw;
    await http(server.url, 'POST', '/api/destinations', {
      key: free,
      body: { name: 'd', type: 'webhook', config: { url: `${receiver.url}/free` } },
    });
    await http(server.url, 'POST', '/api/watchlists', {
      key: free,
      body: { name: 'w', categories: ['name'], destination: 'd' },
    });
    const pairs = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => ({ orgNumber: String(100_000_000 + from + i), country: 'NO' }));
    expect(
      (await http(server.url, 'POST', '/api/watchlists/w/companies', { key: free, body: { companies: pairs(20) } }))
        .body,
    ).toMatchObject({ changed: 20, companyCount: 20, maxCompanies: 25 });
    const over = await http(server.url, 'POST', '/api/watchlists/w/companies', {
      key: free,
      body: { companies: pairs(6, 100) },
    });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('watchlist_full');
    expect((await http(server.url, 'GET', '/api/watchlists/w', { key: free })).body.companyCount).toBe(20);
  });

  it('delivers every alert after a 10-minute receiver outage, with one webhook-id per batch', async () => {
    const delivery = server.services.watchlistDelivery;
    await delivery.tick(); // nothing yet: the cursor stands at creation
    receiver.requests = [];
    receiver.mode = { kind: 'status', status: 503 };
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    await rename(cores); // 3 of these companies are watched
    const start = clock.now().getTime();
    while (clock.now().getTime() - start < 10 * 60_000) {
      await delivery.tick();
      clock.advance(15_000);
    }
    expect(receiver.hits).toBeGreaterThan(3);
    const log = await http(server.url, 'GET', '/api/watchlists/kyc/deliveries', { key });
    expect(log.body.data[0]).toMatchObject({ status: 'pending', lastStatus: 503, eventCount: 3 });
    expect(log.body.data[0].attempts).toBe(receiver.hits);

    receiver.mode = { kind: 'status', status: 204 };
    for (let i = 0; i < 60; i++) {
      const { delivered } = await delivery.tick();
      if (delivered) break;
      clock.advance(60_000);
    }
    const ids = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const last = receiver.requests.at(-1)!;
    const body = new Webhook(SIGNING).verify(last.body, last.headers as Record<string, string>) as {
      watchlist: string;
      events: { seq: number; orgNumber: string; category: string }[];
    };
    expect(body.watchlist).toBe('kyc');
    expect(body.events.map((e) => e.orgNumber)).toEqual(cores.slice(0, 3).map((c) => c.orgNumber));
    expect(body.events.map((e) => e.seq)).toEqual([1, 2, 3].map((n) => lastSeq + n));
    const after = await http(server.url, 'GET', '/api/watchlists/kyc/deliveries', { key });
    expect(after.body.data[0]).toMatchObject({ status: 'delivered', lastStatus: 204, nextAttemptAt: null });
    // Delivered once: nothing more is sent.
    const hits = receiver.hits;
    await delivery.tick();
    expect(receiver.hits).toBe(hits);
  });

  it('pauses and flags a watchlist after 24 hours of failures; resuming sends the batch again', async () => {
    const delivery = server.services.watchlistDelivery;
    receiver.mode = { kind: 'status', status: 500 };
    await rename(cores.slice(0, 1));
    for (let i = 0; i < 40; i++) {
      await delivery.tick();
      clock.advance(3_600_000);
    }
    const w = await http(server.url, 'GET', '/api/watchlists/kyc', { key });
    expect(w.body).toMatchObject({ paused: true, pausedReason: 'delivery_failed' });
    const log = await http(server.url, 'GET', '/api/watchlists/kyc/deliveries', { key });
    expect(log.body.data[0].status).toBe('abandoned');

    receiver.mode = { kind: 'status', status: 200 };
    const resumed = await http(server.url, 'PUT', '/api/watchlists/kyc', { key, body: { paused: false } });
    expect(resumed.body).toMatchObject({ paused: false, pausedReason: null });
    await delivery.tick();
    const again = await http(server.url, 'GET', '/api/watchlists/kyc/deliveries', { key });
    expect(again.body.data[0]).toMatchObject({ status: 'delivered', webhookId: log.body.data[0].webhookId });
  });
});

describe('retention', () => {
  it('answers 410 events_expired below what was pruned, saying where to resume', async () => {
    const removed = await server.ctx.repos.eventLog.prune(new Date(Date.now() + 3_600_000), 4);
    expect(removed).toBe(4);
    const r = await http(server.url, 'GET', '/api/events?after=0', { key });
    expect(r.status).toBe(410);
    expect(r.body).toMatchObject({ code: 'events_expired', resumeAfter: 4 });
    const ok = await http(server.url, 'GET', '/api/events?after=4&limit=1', { key });
    expect(ok.body.data[0].seq).toBe(5);
  });
});
