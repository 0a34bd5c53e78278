// A Server-Sent Events parser, as the HTML standard's "event stream interpretation" reads a
// stream: lines end in CRLF, LF or CR (a CR at the end of one chunk and the LF at the start of
// the next are one line end), a leading BOM is dropped, `:` lines are comments, `data` lines join
// with LF, `id` is kept across messages (and never contains NUL), `retry` takes digits only, and
// a message is dispatched at a blank line only when it has data.

export interface SseMessage {
  /** The `event` field, or `message` when the message named none. */
  event: string;
  data: string;
  /** The last event id at dispatch (kept from earlier messages when this one set none). */
  lastEventId: string;
}

export class SseParser {
  #buffer = '';
  #started = false;
  #pendingCr = false;
  #event = '';
  #data: string[] = [];
  #lastEventId = '';
  /** The last valid `retry` field in milliseconds, if the stream sent one. */
  retryMs: number | undefined;

  constructor(lastEventId = '') {
    this.#lastEventId = lastEventId;
  }

  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** Feeds decoded text; returns the messages it completed. */
  push(text: string): SseMessage[] {
    if (!this.#started && text.length) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR that ended the previous chunk already ended its line: a LF right after it is part of it.
    if (this.#pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.#pendingCr = false;
    const out: SseMessage[] = [];
    let s = this.#buffer + text;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(s);
      if (!m) break;
      // A CR as the last character may be the first half of a CRLF that the next chunk completes.
      if (m[0] === '\r' && m.index === s.length - 1) this.#pendingCr = true;
      this.#line(s.slice(0, m.index), out);
      s = s.slice(m.index + m[0].length);
    }
    this.#buffer = s;
    return out;
  }

  #line(line: string, out: SseMessage[]) {
    if (line === '') {
      if (this.#data.length)
        out.push({ event: this.#event || 'message', data: this.#data.join('\n'), lastEventId: this.#lastEventId });
      this.#event = '';
      this.#data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.#event = value;
    else if (field === 'data') this.#data.push(value);
    else if (field === 'id') {
      if (!value.includes('\u0000')) this.#lastEventId = value;
    } else if (field === 'retry') {
      if (/^\d+$/.test(value)) this.retryMs = Number(value);
    }
  }
}
