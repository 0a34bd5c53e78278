// Streaming reader for our alcohol/tobacco licence import format (docs/licenses-import-format.md).
// Helsedirektoratet publishes no raw TBR export, so operators convert whatever they obtain into
// this format: CSV (`;`, header row, quotes allowed) or JSON (a top-level array, or NDJSON with
// one object per line). Every input is streamed; a JSON array is read element by element.
import { Readable } from 'node:stream';
import streamArray from 'stream-json/streamers/stream-array.js';
import { CsvSyntaxError, readCsvRecords, readLines } from '../text-lines.ts';
import { LICENSE_FIELDS, REQUIRED_LICENSE_FIELDS, type LicenseField } from './license-types.ts';
import { LicenseParseError, resolveField, toLicenseRecord, type LicenseRecord } from './validate.ts';

export { LicenseParseError, type LicenseRecord } from './validate.ts';
export type LicenseInputFormat = 'csv' | 'json' | 'auto';

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Reads just enough of the stream to see its first significant character (after a BOM and
 * whitespace) and returns a stream that replays everything from the start — minus the BOM, which
 * JSON parsers reject. The returned stream is lazy: nothing more is read until it is consumed.
 */
async function peekFirstChar(input: Readable): Promise<{ first: string | null; stream: Readable }> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  let head = Buffer.alloc(0);
  let first: string | null = null;
  let ended = false;
  while (first === null) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    head = Buffer.concat([head, typeof r.value === 'string' ? Buffer.from(r.value, 'utf8') : r.value]);
    if (head.length < BOM.length && BOM.slice(0, head.length).every((b, i) => head[i] === b)) continue; // maybe a BOM
    let i = BOM.every((b, k) => head[k] === b) ? BOM.length : 0;
    while (i < head.length && WHITESPACE.has(head[i])) i++;
    if (i < head.length) first = String.fromCharCode(head[i]);
  }
  if (BOM.every((b, k) => head[k] === b)) head = head.subarray(BOM.length);
  async function* replay() {
    try {
      if (head.length > 0) yield head;
      if (ended) return;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield typeof r.value === 'string' ? Buffer.from(r.value, 'utf8') : r.value;
      }
    } finally {
      await it.return?.(); // stops and destroys the source when the consumer gives up early
    }
  }
  return { first, stream: Readable.from(replay(), { objectMode: false }) };
}

async function* parseCsv(input: Readable): AsyncGenerator<LicenseRecord> {
  let columns: LicenseField[] | undefined;
  try {
    for await (const { line, fields } of readCsvRecords(input, ';')) {
      if (!columns) {
        columns = headerColumns(fields);
        continue;
      }
      if (fields.length !== columns.length) {
        throw new LicenseParseError(
          line,
          null,
          `expected ${columns.length} fields like the header, got ${fields.length}`,
        );
      }
      const raw: Partial<Record<LicenseField, string>> = {};
      columns.forEach((c, i) => (raw[c] = fields[i]));
      yield toLicenseRecord(raw, line);
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new LicenseParseError(err.line, null, err.detail);
    throw err;
  }
  if (!columns) throw new LicenseParseError(1, null, 'input is empty (no header row)');
}

function headerColumns(header: string[]): LicenseField[] {
  const columns = header.map((name) => {
    const field = resolveField(name.trim());
    if (!field)
      throw new LicenseParseError(1, name.trim(), `unknown column; known columns: ${LICENSE_FIELDS.join(', ')}`);
    return field;
  });
  const dup = columns.find((c, i) => columns.indexOf(c) !== i);
  if (dup) throw new LicenseParseError(1, dup, 'column appears twice');
  const missing = REQUIRED_LICENSE_FIELDS.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new LicenseParseError(
      1,
      missing[0],
      `required column missing (required: ${REQUIRED_LICENSE_FIELDS.join(', ')})`,
    );
  return columns;
}

/** Maps a parsed JSON value's keys to fields, rejecting non-objects and unknown keys. */
function fromJson(value: unknown, line: number): LicenseRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LicenseParseError(
      line,
      null,
      `expected a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    );
  }
  const raw: Partial<Record<LicenseField, unknown>> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = resolveField(key);
    if (!field) throw new LicenseParseError(line, key, `unknown key; known keys: ${LICENSE_FIELDS.join(', ')}`);
    if (field in raw) throw new LicenseParseError(line, key, `given twice (also as an alias)`);
    raw[field] = v;
  }
  return toLicenseRecord(raw, line);
}

async function* parseNdjson(input: Readable): AsyncGenerator<LicenseRecord> {
  for await (const { line, text } of readLines(input)) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new LicenseParseError(
        line,
        null,
        `invalid JSON (NDJSON needs one whole object per line): ${(err as Error).message}`,
      );
    }
    yield fromJson(value, line);
  }
}

async function* parseJsonArray(input: Readable): AsyncGenerator<LicenseRecord> {
  const elements = streamArray.withParserAsStream();
  input.pipe(elements);
  // pipe() does not forward source errors: pass them on so the loop below rejects.
  const onError = (err: Error) => elements.destroy(err);
  input.on('error', onError);
  let index = 0;
  try {
    for await (const { key, value } of elements as AsyncIterable<{ key: number; value: unknown }>) {
      index = key + 1;
      yield fromJson(value, index);
    }
  } catch (err) {
    if (err instanceof LicenseParseError) throw err;
    // stream-json knows no line numbers, and elements parsed but not yet consumed are dropped
    // with the error, so all we can say is "at or after" the next element.
    throw new LicenseParseError(
      index + 1,
      null,
      `invalid JSON array at or after element ${index + 1}: ${(err as Error).message}`,
    );
  } finally {
    input.off('error', onError);
    input.unpipe(elements);
    if (!elements.destroyed) elements.destroy();
    if (!input.readableEnded) input.destroy();
  }
}

/**
 * Streams licence records from CSV or JSON. `auto` looks at the first significant character:
 * `[` or `{` means JSON, anything else CSV. For JSON, `[` means one array and `{` means NDJSON.
 */
export async function* parseLicenses(input: Readable, format: LicenseInputFormat): AsyncGenerator<LicenseRecord> {
  const { first, stream } = await peekFirstChar(input);
  try {
    if (first === null) throw new LicenseParseError(1, null, 'input is empty');
    const json = first === '[' || first === '{';
    if (format === 'csv' || (format === 'auto' && !json)) {
      yield* parseCsv(stream);
    } else if (first === '[') {
      yield* parseJsonArray(stream);
    } else if (first === '{') {
      yield* parseNdjson(stream);
    } else {
      throw new LicenseParseError(1, null, `JSON input must start with "[" (array) or "{" (NDJSON), got "${first}"`);
    }
  } finally {
    // Destroying the replay stream reaches the source only asynchronously; release it now.
    if (!stream.destroyed) stream.destroy();
    if (!input.readableEnded) input.destroy();
  }
}
