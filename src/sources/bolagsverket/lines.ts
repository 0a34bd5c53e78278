// Splits a byte stream into lines on "\n" only (a trailing "\r" is dropped). Not readline: it also
// breaks on a lone "\r", which may occur inside a description in a 3-million-line register dump.
import type { Readable } from 'node:stream';

export interface NumberedLine {
  /** 1-based physical line number. */
  line: number;
  text: string;
}

export async function* readLinesLf(
  input: Readable,
  encoding: 'utf-8' | 'latin1' = 'utf-8',
): AsyncGenerator<NumberedLine> {
  const decoder = new TextDecoder(encoding); // replaces invalid bytes with U+FFFD instead of failing
  let pending = '';
  let line = 0;
  const strip = (s: string) => (s.endsWith('\r') ? s.slice(0, -1) : s);
  try {
    for await (const chunk of input) {
      pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
      let start = 0;
      let nl: number;
      while ((nl = pending.indexOf('\n', start)) !== -1) {
        yield { line: ++line, text: strip(pending.slice(start, nl)) };
        start = nl + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.decode();
    if (pending !== '') yield { line: ++line, text: strip(pending) };
  } finally {
    // A consumer that stops early must not leave the file (or ZIP entry) open.
    if (!input.destroyed) input.destroy();
  }
}
