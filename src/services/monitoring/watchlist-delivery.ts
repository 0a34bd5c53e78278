// Watchlist alert delivery, run by every process on an interval. Two steps per tick:
//  1. open batches: each active watchlist without an open batch gets the next events of its
//     companies and categories (up to BATCH events, never above the log's committed top) as one
//     batch {watchlist, events} with a webhook-id fixed at creation; the cursor moves in the same
//     transaction, with a compare-and-set so two processes never open the same range twice.
//  2. send due batches: claimed with a lease (like the scheduler's job leases), so each batch is
//     sent by one process at a time; a lost holder's batch is taken over when its lease ends.
//     Failure: retried with exponential backoff and jitter; after 24 hours the batch is abandoned
//     and the watchlist paused and flagged (`delivery_failed`). One open batch per watchlist keeps
//     deliveries in seq order, so per company too. At least once: a batch is marked delivered
//     only after a 2xx.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import type { Resolver } from '../../net/index.ts';
import { ConfigUnreadableError, destinationAad, destinationKeyring, openConfig } from '../../push/config-crypto.ts';
import { deliverWebhook, type DeliveryOutcome } from '../../push/deliver.ts';
import { parseStoredConfig } from '../../push/webhook-config.ts';
import { sealedOf } from '../../store/destinations.ts';
import type { EventCategory } from '../../domain/company-events.ts';
import type { EventLogRepository } from '../../store/events/event-log.ts';
import type { DeliveryRow, WatchlistRepository } from '../../store/watchlists.ts';

const BATCH = 500;
const LEASE_MS = 60_000;
const RETRY_BASE_MS = 10_000;
const RETRY_MAX_MS = 3_600_000;
const GIVE_UP_MS = 24 * 3_600_000;

export interface WatchlistDeliveryDeps {
  watchlists: Pick<
    WatchlistRepository,
    'readyForBatch' | 'advance' | 'claimDue' | 'recordAttempt' | 'byId' | 'destinationOf'
  >;
  eventLog: Pick<EventLogRepository, 'bounds' | 'list'>;
  /** Schedules attempts and retries (tests move it). */
  clock: Clock;
  /** Signature timestamps: receivers compare them with real time. */
  wallClock: Clock;
  resolver: Resolver;
  secretKey: string;
  config: { allowPrivateDestinations: boolean };
  holder: string;
  random?: () => number;
  log: { warn(obj: object, msg: string): void };
  /** Sends one batch to the receiver (default: the SSRF-safe webhook request). */
  send?: typeof deliverWebhook;
}

/** Delay before attempt n+1 after n failed ones: doubling from 10 s, at most 1 h, 50–100 % jitter. */
function retryDelay(failedAttempts: number, random: () => number): number {
  const full = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(full * (0.5 + random() / 2));
}

export function createWatchlistDelivery(deps: WatchlistDeliveryDeps) {
  const keyring = destinationKeyring(deps.secretKey);
  const random = deps.random ?? Math.random;
  const send = deps.send ?? deliverWebhook;

  async function openBatches(): Promise<number> {
    const { lastSeq } = await deps.eventLog.bounds();
    let opened = 0;
    for (const w of await deps.watchlists.readyForBatch(200)) {
      if (w.cursor_seq >= lastSeq) continue;
      const { events, through: to } = await deps.eventLog.list(
        w.cursor_seq,
        { watchlistId: w.id, categories: w.categories as EventCategory[] },
        BATCH,
        lastSeq,
      );
      const batch = events.length
        ? {
            webhookId: `msg_${randomUUID()}`,
            body: JSON.stringify({ watchlist: w.name, events }),
            fromSeq: events[0].seq,
            count: events.length,
            now: deps.clock.now(),
          }
        : null;
      if ((await deps.watchlists.advance({ id: w.id, from: w.cursor_seq, to }, batch)) && batch) opened++;
    }
    return opened;
  }

  async function attempt(d: DeliveryRow): Promise<DeliveryOutcome | { ok: false; error: string }> {
    const w = await deps.watchlists.byId(d.watchlist_id);
    const dest = await deps.watchlists.destinationOf(w?.destination_id ?? null);
    if (!dest) return { ok: false, error: 'destination_missing' };
    if (!dest.is_active) return { ok: false, error: 'destination_inactive' };
    let config;
    try {
      config = parseStoredConfig(openConfig(sealedOf(dest), destinationAad(dest.id), keyring));
    } catch (err) {
      if (err instanceof ConfigUnreadableError) return { ok: false, error: 'destination_unreadable' };
      throw err;
    }
    return send(config, d.body, {
      resolver: deps.resolver,
      allowPrivate: deps.config.allowPrivateDestinations,
      now: deps.wallClock.now(),
      msgId: d.webhook_id,
    });
  }

  async function sendDue(): Promise<number> {
    let delivered = 0;
    const now = deps.clock.now();
    for (const d of await deps.watchlists.claimDue(deps.holder, now, LEASE_MS, 20)) {
      const out = await attempt(d);
      const at = deps.clock.now();
      if (out.ok) {
        await deps.watchlists.recordAttempt({
          id: d.id,
          holder: deps.holder,
          now: at,
          status: out.status,
          error: null,
          outcome: 'delivered',
        });
        delivered++;
        continue;
      }
      const error = 'error' in out ? out.error : out.failure.class;
      const status = 'failure' in out ? (out.failure.status ?? null) : null;
      const expired = at.getTime() - new Date(d.created_at).getTime() >= GIVE_UP_MS;
      await deps.watchlists.recordAttempt({
        id: d.id,
        holder: deps.holder,
        now: at,
        status,
        error,
        outcome: expired ? 'abandoned' : 'retry',
        retryAt: new Date(at.getTime() + retryDelay(d.attempts + 1, random)),
      });
    }
    return delivered;
  }

  return {
    /** One round: open new batches, then send what is due. */
    async tick(): Promise<{ opened: number; delivered: number }> {
      const opened = await openBatches();
      return { opened, delivered: await sendDue() };
    },

    /** Runs tick every `intervalMs` until stopped (0: never). */
    start(intervalMs: number): { stop(): void } {
      if (intervalMs <= 0) return { stop: () => undefined };
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        this.tick()
          .catch((err: Error) => deps.log.warn({ err: err.message }, 'watchlist delivery round failed'))
          .finally(() => {
            running = false;
          });
      }, intervalMs);
      timer.unref();
      return { stop: () => clearInterval(timer) };
    },
  };
}
