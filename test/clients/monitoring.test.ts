// The typed client's monitoring methods against the real server: events.list, the SSE helper
// (events.stream) resuming with Last-Event-ID after the server drops every connection, stopping
// on abort, ending with NcdStreamEndedError when the key is rotated, and watchlists from create to
// deliveries (a real delivery to a loopback webhook receiver), each 4xx as NcdApiError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NcdApiError,
  NcdClient,
  NcdStreamEndedError,
  type Fetch,
  type StreamedEvent,
} from '../../clients/js/src/index.ts';
import type { CompanyCore } from '../../src/domain/company.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let receiver: WebhookReceiver;
let key: string;
let client: NcdClient;
const cores: CompanyCore[] = Array.from({ length: 8 }, (_, i) => mapEnhet(generateCompany(i, 311).enhet)).filter(
  (c) => !c.isDeleted,
);
let round = 0;

/** Renames the given companies once: one `name` event each, in this order. */
async function rename(list: CompanyCore[]) {
  round++;
  await server.ctx.repos.companyWrites.write(list.map((c) => ({ core: { ...c, name: `${c.name} C${round}` } })));
}

const proKey = async () => (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as NcdApiError,
  );

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startServer({
    env: { ALLOW_PRIVATE_DESTINATIONS: 'true', EVENT_STREAM_CREDENTIAL_CHECK_MS: '200' },
  });
  key = await proKey();
  client = new NcdClient({ baseUrl: server.url, apiKey: key });
  await server.ctx.repos.companyWrites.write(cores.map((core) => ({ core })));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('events.list', () => {
  it('pages typed events by seq', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    await rename(cores.slice(0, 3));
    const page = await client.events.list({ after: lastSeq, limit: 2, category: 'name' });
    expect(page.data.map((e) => e.seq)).toEqual([lastSeq + 1, lastSeq + 2]);
    expect(page.data[0]).toMatchObject({
      orgNumber: cores[0].orgNumber,
      country: 'NO',
      category: 'name',
      type: 'name_changed',
      fieldsChanged: ['name'],
      after: { name: `${cores[0].name} C${round}` },
    });
    expect(page.nextAfter).toBe(lastSeq + 2);
    expect(page.hasMore).toBe(true);
    const next = await client.events.list({ after: page.nextAfter, category: 'name' });
    expect(next.data.map((e) => e.orgNumber)).toEqual([cores[2].orgNumber]);
  });

  it('a bad query is an NcdApiError with details', async () => {
    const err = await failure(client.events.list({ limit: 0 }));
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err!.details.map((d) => d.path).join(' ')).toContain('limit');
  });
});

describe('events.stream', () => {
  it('resumes with Last-Event-ID after the server drops the connection: no gap, no repeat; abort ends it', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    const sentIds: (string | null)[] = [];
    const observed: Fetch = (input, init) => {
      sentIds.push(new Headers(init.headers).get('last-event-id'));
      return fetch(input, init);
    };
    const watcher = new NcdClient({ baseUrl: server.url, apiKey: key, fetch: observed });
    const ctrl = new AbortController();
    const reconnects: string[] = [];
    const stream = watcher.events.stream(
      { after: lastSeq, category: 'name' },
      { signal: ctrl.signal, reconnectDelayMs: 50, onReconnect: (i) => reconnects.push(i.lastEventId) },
    );
    await rename(cores.slice(0, 3));
    const got: StreamedEvent[] = [];
    for await (const event of stream) {
      got.push(event);
      if (got.length === 3) {
        // Every socket of the server is cut (as a restart or a proxy would); more events follow.
        server.app.server.closeAllConnections();
        await rename(cores.slice(3, 6));
      }
      if (got.length === 6) ctrl.abort();
    }
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 6 }, (_, i) => lastSeq + 1 + i));
    expect(got.map((e) => e.orgNumber)).toEqual(cores.slice(0, 6).map((c) => c.orgNumber));
    expect(got.every((e) => e.category === 'name' && typeof e.occurredAt === 'string')).toBe(true);
    expect(stream.reconnects).toBeGreaterThanOrEqual(1);
    expect(reconnects[0]).toBe(String(lastSeq + 3));
    // The first connection carried no id (the query's `after`), the reconnect the last seq seen.
    expect(sentIds[0]).toBeNull();
    expect(sentIds[1]).toBe(String(lastSeq + 3));
    expect(stream.lastEventId).toBe(String(lastSeq + 6));
    // The abort closed the connection: the server's hub lets go of the stream.
    for (let i = 0; i < 50 && server.services.eventStream.size() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(server.services.eventStream.size()).toBe(0);
  });

  it('starts from a kept lastEventId', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    await rename(cores.slice(0, 2));
    const ctrl = new AbortController();
    const stream = client.events.stream({ category: 'name' }, { signal: ctrl.signal, lastEventId: lastSeq + 1 });
    const seqs: number[] = [];
    for await (const e of stream) {
      seqs.push(e.seq);
      ctrl.abort();
    }
    expect(seqs).toEqual([lastSeq + 2]);
  });

  it("ends with NcdStreamEndedError once the key is rotated (the server's `event: end`)", async () => {
    const own = await proKey();
    const rotating = new NcdClient({ baseUrl: server.url, apiKey: own });
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    const stream = rotating.events.stream({ after: lastSeq, category: 'name' }, { reconnectDelayMs: 50 });
    const iterator = stream[Symbol.asyncIterator]();
    const pending = iterator.next();
    await new Promise((r) => setTimeout(r, 300)); // the stream is open
    await rotating.keys.rotate();
    const err = await failure(pending);
    expect(err).toBeInstanceOf(NcdStreamEndedError);
    expect(err).toMatchObject({ reason: 'credential_invalid', message: 'The API key is no longer valid' });
  });

  it('a 400 on opening is thrown, not retried', async () => {
    const reconnects: number[] = [];
    const stream = client.events.stream(
      { country: 'XX' as 'NO' },
      { reconnectDelayMs: 10, onReconnect: (i) => reconnects.push(i.attempt) },
    );
    const err = await failure(stream[Symbol.asyncIterator]().next());
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err!.details.length).toBeGreaterThan(0);
    expect(reconnects).toEqual([]);
  });
});

describe('watchlists', () => {
  it('create, list, get, update, add and remove companies, deliveries, delete', async () => {
    const owner = new NcdClient({ baseUrl: server.url, apiKey: await proKey() });
    await owner.destinations.create({
      name: 'alerts',
      type: 'webhook',
      config: { url: `${receiver.url}/alerts` },
    } as Parameters<typeof owner.destinations.create>[0]);
    const created = await owner.watchlists.create({ name: 'kyc', categories: ['name'], destination: 'alerts' });
    expect(created).toMatchObject({ name: 'kyc', categories: ['name'], destination: 'alerts', companyCount: 0 });
    expect(created.paused).toBe(false);

    const watched = cores.slice(0, 2).map((c) => ({ orgNumber: c.orgNumber, country: 'NO' as const }));
    const added = await owner.watchlists.addCompanies('kyc', [...watched, watched[0]]);
    expect(added).toMatchObject({ changed: 2, companyCount: 2 });
    const members = await owner.watchlists.companies('kyc').toArray();
    expect(members.map((m) => m.orgNumber).sort()).toEqual(watched.map((w) => w.orgNumber).sort());

    expect((await owner.watchlists.list()).data).toEqual([expect.objectContaining({ name: 'kyc', companyCount: 2 })]);
    const updated = await owner.watchlists.update('kyc', { categories: ['name', 'status'] });
    expect(updated.categories).toEqual(['name', 'status']);
    expect((await owner.watchlists.get('kyc')).categories).toEqual(['name', 'status']);

    // One real delivery: the watched companies change and the delivery worker sends the batch.
    await server.services.watchlistDelivery.tick();
    receiver.mode = { kind: 'status', status: 204 };
    await rename(cores.slice(0, 3));
    for (let i = 0; i < 20 && !receiver.requests.some((r) => r.url === '/alerts'); i++)
      await server.services.watchlistDelivery.tick();
    const deliveries = await owner.watchlists.deliveries('kyc', { limit: 5 });
    expect(deliveries.data[0]).toMatchObject({ status: 'delivered', eventCount: 2, lastStatus: 204 });
    expect(typeof deliveries.data[0].webhookId).toBe('string');

    const removed = await owner.watchlists.removeCompanies('kyc', [watched[1]]);
    expect(removed).toMatchObject({ changed: 1, companyCount: 1 });
    await owner.watchlists.delete('kyc');
    const gone = await failure(owner.watchlists.get('kyc'));
    expect(gone).toBeInstanceOf(NcdApiError);
    expect(gone).toMatchObject({ status: 404, code: 'watchlist_not_found' });
  });

  it('an unknown category is a 400 with details', async () => {
    const err = await failure(
      client.watchlists.create({ name: 'bad', categories: ['weather' as 'name'], destination: 'alerts' }),
    );
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err!.details.map((d) => d.path).join(' ')).toContain('categories');
  });
});
