// The enriched CSV. Rows are appended one batch per write (each batch in input order), so an
// interrupted run leaves a file of whole batches that `--resume` continues from; a torn last
// line (the process killed mid-write) is cut off before continuing.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { UsageError } from '../../ops/usage-error.ts';

/** How the output is written: delimiter, byte order mark and line ending. */
export interface CsvFormat {
  delimiter: string;
  bom: boolean;
  recordDelimiter: '\r\n' | '\n';
}

interface ResumePoint {
  /** Data rows already in the file. */
  rowsDone: number;
  /** The last written row, to check that the same input is being resumed. */
  lastRow: string[] | undefined;
  /** The file is empty (an earlier run died before its header was written). */
  needsHeader: boolean;
  /** The data rows already written (their answers are reused rather than asked for again). */
  written: string[][];
}

/**
 * Reads what an earlier run wrote. Verifies the header (same input columns and fields) and cuts
 * an incomplete trailing record.
 */
export function readResumePoint(file: string, header: string[], delimiter: string): ResumePoint {
  let buf = readFileSync(file);
  const lastNewline = buf.lastIndexOf(0x0a);
  if (lastNewline !== buf.length - 1) {
    buf = buf.subarray(0, lastNewline + 1);
    truncateSync(file, buf.length);
  }
  let records: string[][];
  try {
    records = parse(buf, { delimiter, relax_column_count: true, bom: true }) as string[][];
  } catch (err) {
    throw new UsageError(`Cannot resume: ${file} is not a CSV this command wrote (${(err as Error).message})`);
  }
  if (records.length === 0) return { rowsDone: 0, lastRow: undefined, needsHeader: true, written: [] };
  if (records[0].join('\u0000') !== header.join('\u0000')) {
    throw new UsageError(
      `Cannot resume: the columns of ${file} differ from this run's (same input file and --fields as before?)`,
    );
  }
  const bad = records.findIndex((r) => r.length !== header.length);
  if (bad >= 0)
    throw new UsageError(
      `Cannot resume: row ${bad} of ${file} has ${records[bad].length} columns, expected ${header.length}`,
    );
  return {
    rowsDone: records.length - 1,
    lastRow: records.length > 1 ? records[records.length - 1] : undefined,
    needsHeader: false,
    written: records.slice(1),
  };
}

export class CsvAppender {
  private constructor(
    private readonly fd: number,
    private readonly format: CsvFormat,
  ) {}

  /** Creates the file with its header; refuses to overwrite one unless resuming. */
  static create(file: string, header: string[], format: CsvFormat): CsvAppender {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST')
        throw new UsageError(
          `${file} already exists: pass --resume to continue an interrupted run, or choose another --out`,
        );
      throw new UsageError(`Cannot create ${file}: ${(err as Error).message}`);
    }
    const out = new CsvAppender(fd, format);
    out.appendHeader(header);
    return out;
  }

  static reopen(file: string, format: CsvFormat): CsvAppender {
    return new CsvAppender(openSync(file, 'a'), format);
  }

  /** The header row, after the byte order mark when the format has one. */
  appendHeader(header: string[]): void {
    if (this.format.bom) this.write(Buffer.from('\uFEFF', 'utf8'));
    this.append([header]);
  }

  static exists(file: string): boolean {
    return existsSync(file);
  }

  /** One write per batch, flushed to disk: what is in the file is done. */
  append(records: string[][]): void {
    if (!records.length) return;
    const { delimiter, recordDelimiter } = this.format;
    this.write(Buffer.from(stringify(records, { delimiter, record_delimiter: recordDelimiter }), 'utf8'));
    fsyncSync(this.fd);
  }

  private write(bytes: Buffer): void {
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off);
  }

  close(): void {
    closeSync(this.fd);
  }
}
