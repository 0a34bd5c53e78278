// Streams the elements of one large JSON array without holding the array: the reader of every
// array-shaped source (brreg dumps, PRH all_companies, licence files). Only the elements of one
// chunk of text are in memory at a time.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Cuts the text of a top-level JSON array into the texts of its elements, chunk by chunk. It
 * only tracks strings and nesting to find the commas between elements; each element is then
 * checked and built by JSON.parse, which is native and several times faster than a
 * token-by-token parser in JavaScript (that parser was the largest CPU cost of a dump load).
 */
class ArraySplitter {
  /** 0 before the opening bracket, 1 between elements, deeper inside one; -1 after the array. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The current element's text from earlier chunks ('' when it started in this one). */
  private carry = '';
  private inElement = false;
  /** Whether an element must come next (after a comma), so that `[1,]` and `[,1]` are refused. */
  private expectElement = false;
  private started = false;

  /** The elements completed by this chunk. */
  push(chunk: string): string[] {
    const out: string[] = [];
    let i = 0;
    if (!this.started && chunk.length) {
      this.started = true;
      // A leading byte-order mark is not part of the text (editors on Windows write one).
      if (chunk.charCodeAt(0) === 0xfeff) i = 1;
    }
    let from = this.inElement ? 0 : -1;
    const n = chunk.length;
    // The next backslash, looked up again only once passed: most chunks have none.
    let backslash = -1;
    while (i < n) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i++;
          continue;
        }
        const quote = chunk.indexOf('"', i);
        if (backslash < i && backslash !== n) {
          backslash = chunk.indexOf('\\', i);
          if (backslash === -1) backslash = n;
        }
        if (backslash < n && (quote === -1 || backslash < quote)) {
          this.escaped = true;
          i = backslash + 1;
          continue;
        }
        if (quote === -1) break;
        this.inString = false;
        i = quote + 1;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (this.depth === 1 && !this.inElement) {
        if (isSpace(c)) {
          i++;
          continue;
        }
        if (c === CLOSE_BRACKET && !this.expectElement) {
          this.depth = -1;
          i++;
          continue;
        }
        if (c === COMMA || c === CLOSE_BRACKET)
          throw new Error(`unexpected '${chunk[i]}' where an element was expected`);
        this.inElement = true;
        from = i;
      } else if (this.depth === 0 || this.depth === -1) {
        if (isSpace(c)) {
          i++;
          continue;
        }
        if (this.depth === 0 && c === OPEN_BRACKET) {
          this.depth = 1;
          i++;
          continue;
        }
        throw new Error(this.depth === 0 ? 'the top level is not an array' : 'text after the end of the array');
      }
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
      else if ((c === COMMA || c === CLOSE_BRACKET) && this.depth === 1) {
        out.push(this.carry + chunk.slice(from, i));
        this.carry = '';
        this.inElement = false;
        this.expectElement = c === COMMA;
        if (c === CLOSE_BRACKET) this.depth = -1;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (this.depth === 1) throw new Error(`unexpected '${chunk[i]}'`);
        this.depth--;
      }
      i++;
    }
    if (this.inElement) this.carry += chunk.slice(from);
    return out;
  }

  end() {
    if (this.depth !== -1)
      throw new Error(this.depth === 0 ? 'no array in the input' : 'the array ends early (truncated file?)');
  }
}

/** A text that is not one JSON array; `detail` says what is wrong without quoting the text. */
export class JsonArrayError extends Error {
  constructor(
    label: string,
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(`${label}: cannot read the JSON array: ${detail}`, options);
  }
}

/**
 * The elements of the array in `input`, in order, as the arrays each chunk of text completes.
 * The elements a chunk completes are all parsed before they are yielded, so an error in a chunk
 * comes before any of its elements: a reader that counts what it consumed knows the error is at
 * or after the next one.
 */
async function* readJsonArrayChunks<T>(input: Readable, label: string): AsyncGenerator<T[]> {
  const splitter = new ArraySplitter();
  const decoder = new StringDecoder('utf8');
  let index = 0;
  // JSON.parse quotes the offending text in its message; a dump's text holds names and
  // addresses, which must not reach logs or the sync run record, so only the position is told.
  const parse = (texts: string[]): T[] =>
    texts.map((text) => {
      index++;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new Error(`element ${index} is not valid JSON`);
      }
    });
  try {
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      const elements = parse(splitter.push(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
      if (elements.length) yield elements;
    }
    const last = parse(splitter.push(decoder.end()));
    splitter.end();
    if (last.length) yield last;
  } catch (err) {
    throw new JsonArrayError(label, (err as Error).message, { cause: err });
  } finally {
    if (!input.destroyed) input.destroy();
  }
}

/** Yields the elements of the array in `input`, in order (errors as readJsonArrayChunks tells). */
export async function* readJsonArray<T>(input: Readable, label: string): AsyncGenerator<T> {
  for await (const elements of readJsonArrayChunks<T>(input, label)) yield* elements;
}

/**
 * The elements of the array in `input` in batches of `size` (the last may be shorter). A dump
 * load takes them so: batched from each chunk's elements, they cost no await each (through
 * readJsonArray and a batching generator, each of the 1.86M brreg units took two promise turns).
 */
export async function* readJsonArrayBatches<T>(input: Readable, label: string, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const elements of readJsonArrayChunks<T>(input, label)) {
    for (const element of elements) {
      batch.push(element);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/**
 * Groups an async stream into arrays of at most `size`. The loop of readJsonArrayBatches, over
 * single items: wrapping each in an array for one shared loop would add the promise turn per
 * item that the batches exist to avoid.
 */
export async function* inBatches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
