// Streaming reader for our alcohol/tobacco licence import format (docs/licenses-import-format.md).
// Helsedirektoratet publishes no raw TBR export, so operators convert whatever they obtain into
// this format: CSV (`;`, header row, quotes allowed) or JSON (a top-level array, or NDJSON with
// one object per line). Every input is streamed; a JSON array is read element by element.
import type { Readable } from 'node:stream';
import { JsonArrayError, readJsonArray } from '../json-array.ts';
import { peek } from '../sync-input.ts';
import { CsvSyntaxError, readCsvRecords, readLines } from '../text-lines.ts';
import { LICENSE_FIELDS, REQUIRED_LICENSE_FIELDS, type LicenseField } from './license-types.ts';
import { LicenseParseError, resolveField, toLicenseRecord, type LicenseRecord } from './validate.ts';

export { LicenseParseError, type LicenseRecord } from './validate.ts';
type LicenseInputFormat = 'csv' | 'json' | 'auto';

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const BOM = [0xef, 0xbb, 0xbf];

/** The first significant character of `head` (after a BOM and whitespace); undefined when there is none yet. */
function firstChar(head: Buffer): string | undefined {
  let i = BOM.every((b, k) => head[k] === b) ? BOM.length : 0;
  while (i < head.length && WHITESPACE.has(head[i])) i++;
  return i < head.length ? String.fromCharCode(head[i]) : undefined;
}

/**
 * The first significant character of the stream, which still starts at its first byte (every
 * reader below skips a BOM itself). Peeks further only while it has seen whitespace alone.
 */
async function firstCharOf(input: Readable): Promise<string | null> {
  for (let n = 64; ; n *= 4) {
    const head = await peek(input, n);
    const first = firstChar(head);
    if (first !== undefined) return first;
    if (head.length < n) return null;
  }
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
  let index = 0;
  try {
    for await (const value of readJsonArray<unknown>(input, 'licences')) yield fromJson(value, ++index);
  } catch (err) {
    if (!(err instanceof JsonArrayError)) throw err;
    // The reader parses a chunk's elements before yielding the first of them, and knows no line
    // numbers, so all we can say is "at or after" the next element.
    throw new LicenseParseError(index + 1, null, `invalid JSON array at or after element ${index + 1}: ${err.detail}`);
  }
}

/**
 * Streams licence records from CSV or JSON. `auto` looks at the first significant character:
 * `[` or `{` means JSON, anything else CSV. For JSON, `[` means one array and `{` means NDJSON.
 */
export async function* parseLicenses(input: Readable, format: LicenseInputFormat): AsyncGenerator<LicenseRecord> {
  const first = await firstCharOf(input);
  try {
    if (first === null) throw new LicenseParseError(1, null, 'input is empty');
    const json = first === '[' || first === '{';
    if (format === 'csv' || (format === 'auto' && !json)) {
      yield* parseCsv(input);
    } else if (first === '[') {
      yield* parseJsonArray(input);
    } else if (first === '{') {
      yield* parseNdjson(input);
    } else {
      throw new LicenseParseError(1, null, `JSON input must start with "[" (array) or "{" (NDJSON), got "${first}"`);
    }
  } finally {
    if (!input.readableEnded) input.destroy();
  }
}
