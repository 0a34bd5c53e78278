// The SSE hub behind GET /api/events/stream. One poller per process reads the log's
// committed top every POLL_MS and, when it moved, the new events once (unfiltered, in chunks),
// and hands each live subscriber the ones its filter matches: 1,000 subscribers cost one query
// per new chunk, not one each. A subscriber that starts behind (resuming from Last-Event-ID)
// first catches up with its own reads up to the hub's top, then turns live. Memory is bounded:
// a subscriber whose socket holds more than MAX_BUFFERED bytes unsent is closed (it resumes from
// its last id). Each stream is charged one request per minute open and closed when its quota is spent.
// Its credential is re-checked every `credentialCheckMs` (one store read per key and round, however
// many streams the key holds): a stream whose key was rotated, deactivated or whose trial ran out
// gets a final `event: end` naming why and is closed, so no stream outlives its key.
import type { EventFilter, EventLogRepository, StoredEvent } from '../../store/events/event-log.ts';
import { WATCHLIST_ONLY_CATEGORIES } from './events.ts';

const POLL_MS = 250;
const CHUNK = 1000;
const MAX_BUFFERED = 1024 * 1024;
const CHARGE_MS = 60_000;
const PUBLIC: EventFilter = { excludeCategories: [...WATCHLIST_ONLY_CATEGORIES] };

interface StreamSink {
  /** Writes SSE text; returns the bytes still buffered on the socket. */
  write(text: string): number;
  close(): void;
}

interface Subscriber {
  after: number;
  filter: EventFilter;
  sink: StreamSink;
  live: boolean;
  charge: () => Promise<void>;
  credential: StreamCredential;
  closed: boolean;
}

/** The credential a stream was opened with: `id` groups streams of one key for the re-check. */
export interface StreamCredential {
  id: string;
  valid: () => Promise<boolean>;
}

export interface EventStreamDeps {
  eventLog: EventLogRepository;
  heartbeatMs: number;
  credentialCheckMs: number;
  log: { warn(obj: object, msg: string): void };
}

function matches(f: EventFilter, e: StoredEvent): boolean {
  return (
    (!f.orgNumber || f.orgNumber === e.orgNumber) &&
    (!f.country || f.country === e.country) &&
    (!f.categories?.length || f.categories.includes(e.category))
  );
}

function frame(e: StoredEvent): string {
  return `id: ${e.seq}\nevent: ${e.category}\ndata: ${JSON.stringify(e)}\n\n`;
}

export function createEventStreamHub(deps: EventStreamDeps) {
  const subs = new Set<Subscriber>();
  let top = -1;
  let timers: NodeJS.Timeout[] = [];

  function send(s: Subscriber, text: string) {
    if (s.closed) return;
    if (s.sink.write(text) > MAX_BUFFERED) drop(s);
  }

  function drop(s: Subscriber) {
    if (s.closed) return;
    s.closed = true;
    subs.delete(s);
    s.sink.close();
    if (!subs.size) stop();
  }

  async function readNew() {
    const { lastSeq } = await deps.eventLog.bounds();
    if (top < 0) top = lastSeq;
    while (top < lastSeq) {
      // Every subscriber reads the global log: watchlist-only categories never reach a stream.
      const { events: chunk, through: upTo } = await deps.eventLog.list(top, PUBLIC, CHUNK, lastSeq);
      // Dispatch and the move of `top` happen in one synchronous step (catchUp relies on it).
      for (const s of subs) {
        if (!s.live) continue;
        for (const e of chunk) if (e.seq > s.after && matches(s.filter, e)) send(s, frame(e));
        s.after = Math.max(s.after, upTo);
      }
      top = upTo;
    }
  }

  let inflight: Promise<void> | null = null;
  function poll(): Promise<void> {
    inflight ??= readNew().finally(() => {
      inflight = null;
    });
    return inflight;
  }

  async function catchUp(s: Subscriber) {
    while (!s.closed) {
      const target = top;
      const { events, through } = await deps.eventLog.list(s.after, s.filter, CHUNK, target);
      for (const e of events) send(s, frame(e));
      s.after = Math.max(s.after, through);
      if (through < target) continue;
      // The hub may have moved on while we read: read again until level with it.
      if (top === target) break;
    }
    s.live = true;
  }

  /** Ends every stream whose credential no longer holds (a failed check is retried next round). */
  async function recheck() {
    const rounds = new Map<string, Promise<boolean>>();
    await Promise.all(
      [...subs].map(async (s) => {
        let check = rounds.get(s.credential.id);
        if (!check) rounds.set(s.credential.id, (check = s.credential.valid()));
        const valid = await check.catch(() => true);
        if (!valid && !s.closed) {
          send(s, 'event: end\ndata: {"reason":"credential_invalid","message":"The API key is no longer valid"}\n\n');
          drop(s);
        }
      }),
    );
  }

  let checking: Promise<void> | null = null;

  function start() {
    if (timers.length) return;
    timers = [
      setInterval(
        () => void poll().catch((err: Error) => deps.log.warn({ err: err.message }, 'event stream poll failed')),
        POLL_MS,
      ),
      setInterval(() => {
        for (const s of subs) send(s, ': heartbeat\n\n');
      }, deps.heartbeatMs),
      setInterval(() => {
        for (const s of subs) s.charge().catch(() => drop(s));
      }, CHARGE_MS),
      setInterval(() => {
        checking ??= recheck()
          .catch((err: Error) => deps.log.warn({ err: err.message }, 'event stream credential check failed'))
          .finally(() => {
            checking = null;
          });
      }, deps.credentialCheckMs),
    ];
    for (const t of timers) t.unref();
  }

  function stop() {
    for (const t of timers) clearInterval(t);
    timers = [];
    top = -1;
  }

  return {
    /** Starts a stream after `after`; resolves once it is live. The returned function ends it. */
    async subscribe(
      after: number,
      filter: EventFilter,
      sink: StreamSink,
      charge: () => Promise<void>,
      credential: StreamCredential,
    ) {
      const s: Subscriber = { after, filter, sink, live: false, charge, credential, closed: false };
      subs.add(s);
      start();
      try {
        while (top < 0) await poll();
      } catch (err) {
        drop(s);
        throw err;
      }
      await catchUp(s);
      return () => drop(s);
    },
    size: () => subs.size,
    close() {
      for (const s of [...subs]) drop(s);
      stop();
    },
  };
}
