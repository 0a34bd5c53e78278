// Watchlist alert delivery on fakes (store, event log, a scripted receiver, a movable clock):
// batches of the watched companies' events, retries with doubling backoff and jitter, a later
// success, the give-up after 24 hours that pauses the watchlist, leases, and destination faults.
import { describe, expect, it } from 'vitest';
import { createWatchlistDelivery } from '../../../src/services/monitoring/watchlist-delivery.ts';
import { FakeClock } from '../../helpers/fake-clock.ts';
import { FakeEventLog, FakeReceiver, FakeWatchlistStore } from '../fakes/watchlist-store.ts';

const SECRET = 'service-tests-secret-0123456789abcdef';
const HOUR = 3_600_000;
const [WATCHED, OTHER] = ['912345009', '912345017'];

function setup(opts: { jitter?: number } = {}) {
  const clock = new FakeClock(new Date('2026-03-02T10:00:00Z'));
  const store = new FakeWatchlistStore(SECRET);
  const eventLog = new FakeEventLog(store);
  const receiver = new FakeReceiver();
  const warnings: string[] = [];
  const dest = store.addDestination('dst_1', { url: 'https://hooks.example/ncd', method: 'POST', headers: {} });
  const watchlistId = store.addWatchlist({ name: 'Suppliers', destinationId: dest, companies: [WATCHED] });
  const delivery = createWatchlistDelivery({
    watchlists: store,
    eventLog,
    clock,
    wallClock: clock,
    resolver: { lookup: () => Promise.reject(new Error('the fake receiver needs no DNS')) },
    secretKey: SECRET,
    config: { allowPrivateDestinations: false },
    holder: 'this-process',
    random: () => opts.jitter ?? 1,
    log: { warn: (_obj, msg) => void warnings.push(msg) },
    send: receiver.send,
  });
  const batch = () => store.deliveries[store.deliveries.length - 1];
  /** Moves the clock to the batch's next attempt and runs one round. */
  const retry = async () => {
    clock.set(batch().next_attempt_at);
    return delivery.tick();
  };
  return { clock, store, eventLog, receiver, delivery, watchlistId, batch, retry, warnings };
}

describe('watchlist delivery: batches', () => {
  it("sends the watched companies' new events as one batch and marks it delivered after a 2xx", async () => {
    const { eventLog, receiver, delivery, store, watchlistId, batch } = setup();
    eventLog.append(WATCHED, 'status');
    eventLog.append(OTHER, 'status');
    eventLog.append(WATCHED, 'address');
    expect(await delivery.tick()).toEqual({ opened: 1, delivered: 1 });
    expect(receiver.received).toHaveLength(1);
    const body = receiver.received[0].body as { watchlist: string; events: { seq: number; orgNumber: string }[] };
    expect(body.watchlist).toBe('Suppliers');
    expect(body.events.map((e) => [e.seq, e.orgNumber])).toEqual([
      [1, WATCHED],
      [3, WATCHED],
    ]);
    expect(receiver.received[0].msgId).toMatch(/^msg_/);
    expect(batch()).toMatchObject({ status: 'delivered', attempts: 1, last_status: 200, from_seq: 1, to_seq: 3 });
    expect(store.watchlists.get(watchlistId)!.cursor_seq).toBe(3);
    expect(await delivery.tick()).toEqual({ opened: 0, delivered: 0 });
  });

  it("a watchlist's categories filter its events; a batch holds at most 500", async () => {
    const { eventLog, receiver, delivery, store } = setup();
    store.addWatchlist({ name: 'Status only', destinationId: 'dst_1', companies: [WATCHED], categories: ['status'] });
    for (let i = 0; i < 501; i++) eventLog.append(WATCHED, i === 0 ? 'roles' : 'status');
    await delivery.tick();
    const counts = store.deliveries.map((d) => [d.watchlist_id, d.event_count]);
    expect(counts).toEqual([
      [1, 500],
      [2, 500],
    ]);
    await delivery.tick();
    expect(store.deliveries.map((d) => [d.watchlist_id, d.event_count, d.from_seq])).toEqual([
      [1, 500, 1],
      [2, 500, 2],
      [1, 1, 501],
    ]);
    expect(receiver.received).toHaveLength(3);
  });
});

describe('watchlist delivery: retry and give-up', () => {
  it('a failing receiver is retried with doubling backoff under the same webhook-id, and a later success delivers', async () => {
    const { eventLog, receiver, delivery, clock, batch, retry } = setup();
    receiver.answer(500, 503, 'timeout');
    eventLog.append(WATCHED);
    await delivery.tick();
    expect(batch()).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, last_error: 'http_status' });
    expect(batch().next_attempt_at.getTime() - clock.now().getTime()).toBe(10_000);

    clock.advance(9_999);
    expect(await delivery.tick()).toEqual({ opened: 0, delivered: 0 });
    expect(receiver.received).toHaveLength(1);

    const delays: number[] = [];
    for (let i = 0; i < 2; i++) {
      await retry();
      delays.push(batch().next_attempt_at.getTime() - clock.now().getTime());
    }
    expect(delays).toEqual([20_000, 40_000]);
    expect(batch()).toMatchObject({ attempts: 3, last_status: null, last_error: 'timeout' });

    expect(await retry()).toEqual({ opened: 0, delivered: 1 });
    expect(batch()).toMatchObject({ status: 'delivered', attempts: 4, last_status: 200, last_error: null });
    expect(new Set(receiver.received.map((r) => r.msgId)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it('the backoff stops doubling at one hour, and jitter takes it down to half', async () => {
    const full = setup({ jitter: 1 });
    full.receiver.otherwise = 500;
    full.eventLog.append(WATCHED);
    await full.delivery.tick();
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      delays.push(full.batch().next_attempt_at.getTime() - full.clock.now().getTime());
      await full.retry();
    }
    expect(delays.map((d) => d / 1000)).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600]);

    const half = setup({ jitter: 0 });
    half.receiver.otherwise = 500;
    half.eventLog.append(WATCHED);
    await half.delivery.tick();
    expect(half.batch().next_attempt_at.getTime() - half.clock.now().getTime()).toBe(5_000);
  });

  it('a batch still failing 24 hours after it opened is abandoned and its watchlist paused as delivery_failed', async () => {
    const { eventLog, receiver, delivery, clock, store, watchlistId, batch, retry } = setup();
    receiver.otherwise = 500;
    eventLog.append(WATCHED);
    await delivery.tick();
    const opened = batch().created_at.getTime();
    for (let i = 0; i < 100 && batch().status === 'pending'; i++) await retry();
    expect(batch().status).toBe('abandoned');
    expect(clock.now().getTime() - opened).toBeGreaterThanOrEqual(24 * HOUR);
    expect(clock.now().getTime() - opened).toBeLessThan(25 * HOUR);
    expect(store.watchlists.get(watchlistId)).toMatchObject({ paused: true, paused_reason: 'delivery_failed' });

    // Nothing more is sent to it, and new events open no batch while it is paused.
    const sent = receiver.received.length;
    eventLog.append(WATCHED);
    clock.advance(HOUR);
    expect(await delivery.tick()).toEqual({ opened: 0, delivered: 0 });
    expect(receiver.received).toHaveLength(sent);
  });

  it('while a batch is retried, later events wait: one open batch per watchlist keeps them in order', async () => {
    const { eventLog, receiver, delivery, store, batch, retry } = setup();
    receiver.answer(500);
    eventLog.append(WATCHED);
    await delivery.tick();
    eventLog.append(WATCHED);
    eventLog.append(WATCHED);
    await delivery.tick();
    expect(store.deliveries).toHaveLength(1);
    await retry();
    expect(batch().status).toBe('delivered');
    await delivery.tick();
    expect(store.deliveries.map((d) => [d.from_seq, d.to_seq, d.status])).toEqual([
      [1, 1, 'delivered'],
      [2, 3, 'delivered'],
    ]);
  });
});

describe('watchlist delivery: leases and destinations', () => {
  it("a batch another process holds is not sent until that holder's lease runs out", async () => {
    const { eventLog, receiver, delivery, store, clock } = setup();
    eventLog.append(WATCHED);
    receiver.answer(500);
    await delivery.tick(); // opened, failed once: due again in 10 s
    clock.advance(10_000);
    await store.claimDue('other-process', clock.now(), 60_000, 20);
    expect(await delivery.tick()).toEqual({ opened: 0, delivered: 0 });
    expect(receiver.received).toHaveLength(1);
    clock.advance(60_000);
    expect(await delivery.tick()).toEqual({ opened: 0, delivered: 1 });
  });

  it('a missing, inactive or unreadable destination is a failed attempt that sends nothing', async () => {
    const { eventLog, receiver, delivery, store, watchlistId, batch, retry } = setup();
    const w = store.watchlists.get(watchlistId)!;
    w.destination_id = null;
    eventLog.append(WATCHED);
    await delivery.tick();
    expect(batch()).toMatchObject({ status: 'pending', attempts: 1, last_error: 'destination_missing' });

    store.addDestination('dst_off', { url: 'https://off.example/', method: 'POST', headers: {} }, { active: false });
    w.destination_id = 'dst_off';
    await retry();
    expect(batch().last_error).toBe('destination_inactive');

    store.destinations.get('dst_1')!.config_tag = Buffer.alloc(16).toString('base64');
    w.destination_id = 'dst_1';
    await retry();
    expect(batch()).toMatchObject({ attempts: 3, last_error: 'destination_unreadable' });
    expect(receiver.received).toEqual([]);
  });

  it('the stored destination config is what the receiver is sent to', async () => {
    const { eventLog, receiver, delivery, store, watchlistId } = setup();
    store.addDestination('dst_2', { url: 'https://crm.example/in', method: 'PUT', headers: { 'x-team': 'ops' } });
    store.watchlists.get(watchlistId)!.destination_id = 'dst_2';
    eventLog.append(WATCHED);
    await delivery.tick();
    expect(receiver.received.map((r) => r.url)).toEqual(['https://crm.example/in']);
  });
});
