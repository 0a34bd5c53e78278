// GET /api/events/stream as an async iterator of typed events. A dropped connection (the
// server restarted, a proxy cut it, the socket broke) is reopened after the server's `retry`
// delay with `Last-Event-ID` set to the last seq received, so the server resumes with no gap and
// no repeat. 429 (e.g. `too_many_streams` while the old stream's slot is still held), 5xx and
// network failures are retried too, up to `maxReconnects` in a row; any other error, and the
// server's final `event: end` (the key was rotated or deactivated), end the iteration with an
// error. Aborting the signal (or leaving the loop) closes the stream and ends it quietly.
import { NcdApiError, NcdStreamEndedError } from './errors.ts';
import { SseParser } from './sse.ts';
import type { Transport } from './transport.ts';
import type { EventStreamParams, StreamedEvent } from './types.ts';

export interface EventStreamOptions {
  /** Stops the stream: the iteration ends without an error. */
  signal?: AbortSignal;
  /** Resume after this seq (sent as `Last-Event-ID`), e.g. the one kept from an earlier run. */
  lastEventId?: string | number;
  /** Failed reconnects in a row before the error is thrown. Default 10. */
  maxReconnects?: number;
  /** Wait before reconnecting; default the server's `retry` (2 s), doubling per failure in a row up to 30 s. */
  reconnectDelayMs?: number;
  /** Called before each reconnect wait. */
  onReconnect?: (info: { attempt: number; delayMs: number; lastEventId: string; error?: unknown }) => void;
}

const DEFAULT_RETRY_MS = 2000;
const MAX_DELAY_MS = 30_000;
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** Whether a failure to open or read the stream is worth another connection. */
function retriable(err: unknown): boolean {
  if (err instanceof NcdApiError) return RETRIED_STATUSES.has(err.status);
  return !(err instanceof NcdStreamEndedError || err instanceof SyntaxError);
}

export class EventStream implements AsyncIterable<StreamedEvent> {
  #lastEventId: string;
  #reconnects = 0;

  constructor(
    private readonly http: Transport,
    private readonly query: EventStreamParams,
    private readonly opts: EventStreamOptions = {},
  ) {
    this.#lastEventId = opts.lastEventId === undefined ? '' : String(opts.lastEventId);
  }

  /** The seq of the last event received (keep it to resume in another run); '' before the first. */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** Connections opened after the first one. */
  get reconnects(): number {
    return this.#reconnects;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamedEvent, void, undefined> {
    // One controller per iteration, following the caller's signal: leaving the loop aborts it too.
    const ctrl = new AbortController();
    const outer = this.opts.signal;
    const follow = () => ctrl.abort(outer?.reason);
    if (outer?.aborted) return;
    outer?.addEventListener('abort', follow);
    let failures = 0;
    let retryMs = DEFAULT_RETRY_MS;
    let first = true;
    try {
      while (!ctrl.signal.aborted) {
        try {
          const parser = new SseParser(this.#lastEventId);
          const res = await this.http.open({
            method: 'GET',
            path: '/api/events/stream',
            query: this.query,
            accept: 'text/event-stream',
            headers: this.#lastEventId ? { 'last-event-id': this.#lastEventId } : undefined,
            signal: ctrl.signal,
          });
          if (!first) this.#reconnects++;
          first = false;
          failures = 0;
          for await (const text of decoded(res, ctrl.signal)) {
            const messages = parser.push(text);
            if (parser.retryMs !== undefined) retryMs = parser.retryMs;
            for (const m of messages) {
              if (m.event === 'end') throw endOf(m.data);
              const event = JSON.parse(m.data) as StreamedEvent;
              this.#lastEventId = m.lastEventId;
              yield event;
            }
          }
          // The server closed the stream without a word: reconnect after its retry delay.
          this.#lastEventId = parser.lastEventId || this.#lastEventId;
          if (ctrl.signal.aborted) return;
          await this.#pause(retryMs, 0, ctrl.signal);
        } catch (err) {
          if (ctrl.signal.aborted) return;
          if (!retriable(err) || failures >= (this.opts.maxReconnects ?? 10)) throw err;
          failures++;
          const asked = err instanceof NcdApiError && err.retryAfter !== undefined ? err.retryAfter * 1000 : 0;
          await this.#pause(Math.max(asked, retryMs), failures, ctrl.signal, err);
        }
      }
    } finally {
      outer?.removeEventListener('abort', follow);
      ctrl.abort();
    }
  }

  async #pause(retryMs: number, failures: number, signal: AbortSignal, error?: unknown) {
    const base = this.opts.reconnectDelayMs ?? retryMs;
    const delayMs = Math.min(base * 2 ** Math.max(0, failures - 1), Math.max(base, MAX_DELAY_MS));
    this.opts.onReconnect?.({ attempt: failures || 1, delayMs, lastEventId: this.#lastEventId, error });
    await wait(delayMs, signal);
  }
}

function endOf(data: string): NcdStreamEndedError {
  let reason = 'ended';
  let message = 'The server ended the event stream';
  try {
    const body = JSON.parse(data) as { reason?: unknown; message?: unknown };
    if (typeof body.reason === 'string') reason = body.reason;
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // An end without a JSON body still ends the stream.
  }
  return new NcdStreamEndedError(reason, message);
}

/** The response body as text chunks; the reader is cancelled when the iteration stops early. */
async function* decoded(res: Response, signal: AbortSignal): AsyncGenerator<string, void, undefined> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield decoder.decode(value, { stream: true });
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    signal.removeEventListener('abort', cancel);
    cancel();
  }
}
