// Watchlists, their delivery batches, their destinations and the event log in memory, with the
// store's rules: one open batch per watchlist, a cursor moved by compare-and-set, batches claimed
// under a lease (a live lease is never taken over), an attempt recorded only by the lease holder,
// and an abandoned batch pausing its watchlist as `delivery_failed`.
import type { EventCategory } from '../../../src/domain/company-events.ts';
import { destinationAad, destinationKeyring, sealConfig } from '../../../src/push/config-crypto.ts';
import type { DeliveryOutcome } from '../../../src/push/deliver.ts';
import type { WebhookConfig } from '../../../src/push/webhook-config.ts';
import type { DestinationRow } from '../../../src/store/destinations.ts';
import type { EventLogRepository } from '../../../src/store/events/event-log.ts';
import type { DeliveryRow, WatchlistRepository, WatchlistRow } from '../../../src/store/watchlists.ts';

type Repo = Pick<
  WatchlistRepository,
  'readyForBatch' | 'advance' | 'claimDue' | 'recordAttempt' | 'byId' | 'destinationOf'
>;
type StoredEvent = Awaited<ReturnType<EventLogRepository['list']>>['events'][number];

export class FakeWatchlistStore implements Repo {
  readonly watchlists = new Map<number, WatchlistRow>();
  readonly deliveries: DeliveryRow[] = [];
  readonly destinations = new Map<string, DestinationRow>();
  /** Watched companies per watchlist, as `country:orgNumber`. */
  readonly companies = new Map<number, Set<string>>();

  constructor(private readonly secretKey: string) {}

  /** A webhook destination, sealed as the destination service seals it. */
  addDestination(id: string, config: WebhookConfig, opts: { active?: boolean } = {}): string {
    const sealed = sealConfig(config, destinationAad(id), destinationKeyring(this.secretKey));
    this.destinations.set(id, {
      id,
      project_id: 1,
      name: id,
      type: 'webhook',
      external_account: null,
      is_active: opts.active ?? true,
      config_key_id: sealed.keyId,
      config_iv: sealed.iv,
      config_tag: sealed.tag,
      config_ciphertext: sealed.ciphertext,
      created_at: new Date(0),
      updated_at: new Date(0),
    });
    return id;
  }

  addWatchlist(w: { name: string; destinationId: string | null; companies: string[]; categories?: EventCategory[] }) {
    const id = this.watchlists.size + 1;
    this.watchlists.set(id, {
      id,
      project_id: 1,
      name: w.name,
      destination_id: w.destinationId,
      categories: w.categories ?? [],
      cursor_seq: 0,
      paused: false,
      paused_reason: null,
      created_at: new Date(0),
      updated_at: new Date(0),
    });
    this.companies.set(id, new Set(w.companies.map((n) => `NO:${n}`)));
    return id;
  }

  async readyForBatch(limit: number): Promise<WatchlistRow[]> {
    return [...this.watchlists.values()]
      .filter((w) => !w.paused && !this.deliveries.some((d) => d.watchlist_id === w.id && d.status === 'pending'))
      .slice(0, limit)
      .map((w) => ({ ...w }));
  }

  async advance(
    w: { id: number; from: number; to: number },
    batch: { webhookId: string; body: string; fromSeq: number; count: number; now: Date } | null,
  ): Promise<boolean> {
    const row = this.watchlists.get(w.id)!;
    if (row.cursor_seq !== w.from) return false;
    row.cursor_seq = w.to;
    if (batch)
      this.deliveries.push({
        id: this.deliveries.length + 1,
        watchlist_id: w.id,
        webhook_id: batch.webhookId,
        from_seq: batch.fromSeq,
        to_seq: w.to,
        event_count: batch.count,
        body: batch.body,
        status: 'pending',
        attempts: 0,
        last_status: null,
        last_error: null,
        lease_holder: null,
        lease_until: null,
        next_attempt_at: batch.now,
        created_at: batch.now,
        delivered_at: null,
      });
    return true;
  }

  async claimDue(holder: string, now: Date, leaseMs: number, limit: number): Promise<DeliveryRow[]> {
    const due = this.deliveries
      .filter((d) => d.status === 'pending' && d.next_attempt_at <= now && (!d.lease_until || d.lease_until <= now))
      .sort((a, b) => a.next_attempt_at.getTime() - b.next_attempt_at.getTime() || a.id - b.id)
      .slice(0, limit);
    for (const d of due) {
      d.lease_holder = holder;
      d.lease_until = new Date(now.getTime() + leaseMs);
    }
    return due.map((d) => ({ ...d }));
  }

  async recordAttempt(a: {
    id: number;
    holder: string;
    now: Date;
    status: number | null;
    error: string | null;
    outcome: 'delivered' | 'retry' | 'abandoned';
    retryAt?: Date;
  }): Promise<boolean> {
    const d = this.deliveries.find((x) => x.id === a.id && x.lease_holder === a.holder && x.status === 'pending');
    if (!d) return false;
    d.attempts++;
    d.last_status = a.status;
    d.last_error = a.error;
    d.status = a.outcome === 'retry' ? 'pending' : a.outcome;
    d.next_attempt_at = a.retryAt ?? a.now;
    d.delivered_at = a.outcome === 'delivered' ? a.now : null;
    d.lease_holder = null;
    d.lease_until = null;
    if (a.outcome === 'abandoned') {
      const w = this.watchlists.get(d.watchlist_id)!;
      w.paused = true;
      w.paused_reason = 'delivery_failed';
    }
    return true;
  }

  async byId(id: number) {
    const w = this.watchlists.get(id);
    return w && { ...w };
  }

  async destinationOf(id: string | null) {
    return id === null ? undefined : this.destinations.get(id);
  }
}

/** The event log: appended events with gapless seqs, read with the watchlist filter. */
export class FakeEventLog implements Pick<EventLogRepository, 'bounds' | 'list'> {
  readonly events: StoredEvent[] = [];

  constructor(private readonly store: FakeWatchlistStore) {}

  append(orgNumber: string, category: EventCategory = 'status'): number {
    const seq = this.events.length + 1;
    this.events.push({
      seq,
      id: `evt_${seq}`,
      orgNumber,
      country: 'NO',
      category,
      type: `${category}.changed`,
      fieldsChanged: [category],
      before: {},
      after: {},
      occurredAt: new Date(Date.UTC(2026, 2, 2, 0, 0, seq)).toISOString(),
      source: 'brreg',
    });
    return seq;
  }

  async bounds() {
    return { lastSeq: this.events.length, prunedThrough: 0 };
  }

  async list(
    after: number,
    filter: { watchlistId?: number; categories?: EventCategory[] },
    limit: number,
    upTo = Number.MAX_SAFE_INTEGER,
  ) {
    const watched = filter.watchlistId === undefined ? undefined : this.store.companies.get(filter.watchlistId);
    const events = this.events
      .filter((e) => e.seq > after && e.seq <= upTo)
      .filter((e) => !watched || watched.has(`${e.country}:${e.orgNumber}`))
      .filter((e) => !filter.categories?.length || filter.categories.includes(e.category))
      .slice(0, limit);
    return { events, through: events.length === limit ? events[limit - 1].seq : Math.min(upTo, this.events.length) };
  }
}

/** A webhook receiver the test scripts: each send takes the next answer (a status or a failure). */
export class FakeReceiver {
  readonly received: { url: string; body: unknown; msgId?: string; at: Date }[] = [];
  private readonly script: (number | 'timeout')[] = [];
  /** What it answers once the script is used up. */
  otherwise: number | 'timeout' = 200;

  answer(...outcomes: (number | 'timeout')[]): this {
    this.script.push(...outcomes);
    return this;
  }

  readonly send = async (
    config: WebhookConfig,
    body: string,
    opts: { now: Date; msgId?: string },
  ): Promise<DeliveryOutcome> => {
    this.received.push({ url: config.url, body: JSON.parse(body), msgId: opts.msgId, at: opts.now });
    const next = this.script.shift() ?? this.otherwise;
    if (next === 'timeout')
      return { ok: false, failure: { class: 'timeout', message: 'The destination did not answer within 10 seconds' } };
    if (next >= 200 && next < 300) return { ok: true, status: next };
    return {
      ok: false,
      failure: { class: 'http_status', status: next, message: 'The destination answered with a non-2xx status' },
    };
  };
}
