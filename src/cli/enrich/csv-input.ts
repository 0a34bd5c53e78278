// Reads the input CSV as a stream of rows (never the whole file in memory). The delimiter is
// taken from the header line, so the semicolon files spreadsheet programs write in Nordic
// locales work as well as comma files; the BOM and line ending are noted so that the output
// can keep them (options.ts: --excel, --delimiter).
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse';
import { UsageError } from '../../ops/usage-error.ts';

interface CsvLayout {
  header: string[];
  delimiter: string;
  columnIndex: number;
  /** The input starts with a UTF-8 byte order mark (Excel's "CSV UTF-8"). */
  bom: boolean;
  /** The input's line ending, from its header line. */
  recordDelimiter: '\r\n' | '\n';
}

/** Fails with a clear message when the input is missing, unreadable or lacks the column. */
export async function readLayout(file: string, column: string): Promise<CsvLayout> {
  let first: string;
  let bom: boolean;
  try {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(64 * 1024);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      first = buf.subarray(0, bytesRead).toString('utf8');
      bom = first.startsWith('\uFEFF');
      if (bom) first = first.slice(1);
    } finally {
      await fh.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `Input file not found: ${file}`
        : code === 'EISDIR'
          ? `Input is a directory: ${file}`
          : `Cannot read ${file}: ${(err as Error).message}`,
    );
  }
  const firstLine = first.split(/\r?\n/, 1)[0] ?? '';
  if (!firstLine.trim()) throw new UsageError(`${file} is empty or has no header row`);
  const count = (ch: string) => firstLine.split(ch).length - 1;
  const delimiter = [';', '\t', ','].reduce((best, ch) => (count(ch) > count(best) ? ch : best), ',');
  let header: string[] = [];
  for await (const row of rows(file, delimiter)) {
    header = row;
    break;
  }
  const columnIndex = header.indexOf(column);
  if (columnIndex < 0) throw new UsageError(`Column "${column}" is not in ${file}. Its columns: ${header.join(', ')}`);
  const newline = first.indexOf('\n');
  const recordDelimiter = newline > 0 && first[newline - 1] === '\r' ? '\r\n' : '\n';
  return { header, delimiter, columnIndex, bom, recordDelimiter };
}

/** Every record, header first. Short rows are padded to the header's width by the caller. */
export async function* rows(file: string, delimiter: string): AsyncGenerator<string[]> {
  const parser = createReadStream(file).pipe(
    parse({ bom: true, delimiter, relax_column_count: true, skip_empty_lines: true }),
  );
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (err) {
    throw new UsageError(`${file} is not readable CSV: ${(err as Error).message}`);
  }
}

/** Data rows (header excluded). */
export async function countDataRows(file: string, delimiter: string): Promise<number> {
  let n = -1;
  for await (const _ of rows(file, delimiter)) n++;
  return Math.max(n, 0);
}
