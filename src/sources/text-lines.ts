// Shared readers that turn a byte stream of an upstream text file into numbered lines or CSV
// records. Both strip a leading UTF-8 BOM (Skatteetaten and Mattilsynet ship one) and keep the
// 1-based physical line number, so a parser can name the line a bad record came from.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse, CsvError } from 'csv-parse';

interface TextLine {
  /** 1-based physical line number in the file. */
  line: number;
  /** The line without its terminator (`\n` or `\r\n`) and, on line 1, without a BOM. */
  text: string;
}

const BOM = '\uFEFF';

/**
 * Yields every line of a UTF-8 byte stream, blank ones included (callers decide what a blank line
 * means). readline pauses the source while lines are not consumed, so memory stays bounded.
 * Note: readline also treats a lone `\r` as a line break; none of our formats uses one inside a row.
 */
export async function* readLines(input: Readable): AsyncGenerator<TextLine> {
  const rl = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const raw of rl) {
      line++;
      yield { line, text: line === 1 && raw.startsWith(BOM) ? raw.slice(1) : raw };
    }
  } finally {
    rl.close();
    // A consumer that stops early (or a parse error) must not leave a file handle open.
    if (!input.readableEnded) input.destroy();
  }
}

interface CsvRecord {
  /** 1-based physical line on which the record starts (a quoted field may span lines). */
  line: number;
  fields: string[];
}

/** Thrown for CSV syntax errors (unclosed quote and the like) with the line csv-parse reports. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    /** csv-parse's own description, without the line prefix. */
    readonly detail: string,
  ) {
    super(`CSV syntax error at line ${line}: ${detail}`);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * Streams RFC-4180-style records (double quotes, `""` escapes) with a custom delimiter, via
 * csv-parse. Empty lines are skipped. Quotes inside an unquoted field are kept literally
 * (`relax_quotes`), because venue names like `Café "Nye"` occur unquoted. The column count is
 * not checked here, so the caller can report it in the terms of its format.
 */
export async function* readCsvRecords(input: Readable, delimiter: string): AsyncGenerator<CsvRecord> {
  const parser = parse({
    delimiter,
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  const records = input.pipe(parser);
  // pipe() does not forward source errors: pass them on so the loop below rejects.
  const onError = (err: Error) => parser.destroy(err);
  input.on('error', onError);
  let prevLines = 0;
  let prevEmpty = 0;
  try {
    for await (const item of records as AsyncIterable<{
      record: string[];
      info: { lines: number; empty_lines: number };
    }>) {
      const { lines, empty_lines } = item.info;
      // csv-parse reports the line a record ends on; the start is one past the previous record
      // plus the empty lines skipped in between.
      const line = prevLines + 1 + (empty_lines - prevEmpty);
      prevLines = lines;
      prevEmpty = empty_lines;
      yield { line, fields: item.record };
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const at =
        typeof (err as { lines?: unknown }).lines === 'number'
          ? (err as unknown as { lines: number }).lines
          : prevLines + 1;
      throw new CsvSyntaxError(at, err.message);
    }
    throw err;
  } finally {
    input.off('error', onError);
    input.unpipe(parser);
    if (!parser.destroyed) parser.destroy();
    if (!input.readableEnded) input.destroy();
  }
}
