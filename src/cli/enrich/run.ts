// `ncd enrich`: reads the input CSV in order, asks the API for up to 100 distinct numbers per
// call, and appends each finished batch to the output. A run stopped by anything that would
// fail every later batch too (bad key, quota, server down) writes nothing for the batch in
// hand, so `--resume` picks up exactly there.
import { NcdApiError, NcdClient, NcdNetworkError, type CompanyRecord } from '../../../clients/js/src/index.ts';
import { UsageError } from '../../ops/usage-error.ts';
import { countDataRows, readLayout, rows } from './csv-input.ts';
import { CsvAppender, readResumePoint, type CsvFormat } from './csv-output.ts';
import type { CellValue, FieldSpec } from './fields.ts';
import type { EnrichOptions } from './options.ts';
import { normaliseOrgNumber } from './org-numbers.ts';
import { createProgress, type Counts } from './progress.ts';

export const STATUS_COLUMN = 'enrichStatus';
export const BATCH_SIZE = 100;
/** Rows held before a write even when few of them need the API (invalid or repeated numbers). */
const MAX_PENDING_ROWS = 1000;
const MAX_CACHED = 100_000;

type Status = 'found' | 'not_found' | 'empty' | 'invalid' | 'unavailable' | 'failed';

export interface EnrichSummary extends Counts {
  total: number;
  /** Rows an earlier run had written (with --resume). */
  resumed: number;
  processed: number;
  unavailable: number;
  /** Why the run stopped early, if it did. */
  stopped?: string;
}

interface PendingRow {
  cells: string[];
  orgNumber: string | null;
  /** The org-number cell is blank: reported as `empty`, not `invalid`. */
  blank: boolean;
}

type Answer = { status: 'found'; values: string[] } | { status: 'not_found' | 'unavailable' | 'failed' };

const cell = (v: CellValue): string => (v === null || v === undefined ? '' : String(v));

export async function runEnrich(opts: EnrichOptions, stderr: NodeJS.WriteStream): Promise<EnrichSummary> {
  const layout = await readLayout(opts.input, opts.column);
  const added = [...opts.fields.map((f) => f.name), STATUS_COLUMN];
  const clash = added.filter((n) => layout.header.includes(n));
  if (clash.length)
    throw new UsageError(
      `The input already has column${clash.length > 1 ? 's' : ''} ${clash.join(', ')}; choose other --fields or rename the column`,
    );
  const outHeader = [...layout.header, ...added];
  const total = await countDataRows(opts.input, layout.delimiter);
  // By default the output keeps the input's delimiter, BOM and line ending; options override.
  const format: CsvFormat = {
    delimiter: opts.output.delimiter ?? layout.delimiter,
    bom: opts.output.bom ?? layout.bom,
    recordDelimiter: opts.output.recordDelimiter ?? layout.recordDelimiter,
  };

  let resumedRows = 0;
  let lastRow: string[] | undefined;
  let out: CsvAppender;
  if (opts.resume && CsvAppender.exists(opts.out)) {
    const point = readResumePoint(opts.out, outHeader, format.delimiter);
    if (point.rowsDone > total)
      throw new UsageError(`Cannot resume: ${opts.out} has ${point.rowsDone} rows but the input only ${total}`);
    resumedRows = point.rowsDone;
    lastRow = point.lastRow;
    out = CsvAppender.reopen(opts.out, format);
    if (point.needsHeader) out.appendHeader(outHeader);
  } else {
    out = CsvAppender.create(opts.out, outHeader, format);
  }

  const counts: Counts = { found: 0, notFound: 0, empty: 0, invalid: 0, failed: 0 };
  const summary: EnrichSummary = { ...counts, total, resumed: resumedRows, processed: 0, unavailable: 0 };
  const progress = createProgress(total, stderr);
  if (resumedRows) progress.note(`Resuming: ${resumedRows} of ${total} rows are already in ${opts.out}`);
  const client = new NcdClient({
    baseUrl: opts.url,
    apiKey: opts.apiKey,
    maxRetries: 5,
    userAgent: 'ncd-enrich',
    onRetry: ({ delayMs, status, attempt }) =>
      progress.note(
        `${status === 429 ? 'Rate limited' : status ? `Server answered ${status}` : 'Server unreachable'}; retrying in ${Math.ceil(delayMs / 1000)}s (attempt ${attempt})`,
      ),
  });

  const cache = new Map<string, Answer>();
  let pending: PendingRow[] = [];
  let wanted = new Set<string>();
  let done = resumedRows;

  const flush = async () => {
    const answers = await ask(client, opts, [...wanted]);
    const records: string[][] = [];
    for (const row of pending) {
      const answer = row.orgNumber === null ? undefined : (answers.get(row.orgNumber) ?? cache.get(row.orgNumber));
      const status: Status = row.orgNumber === null ? (row.blank ? 'empty' : 'invalid') : (answer?.status ?? 'failed');
      const values = answer?.status === 'found' ? answer.values : opts.fields.map(() => '');
      records.push([...row.cells, ...values, status]);
      if (status === 'found') counts.found++;
      else if (status === 'not_found') counts.notFound++;
      else if (status === 'invalid') counts.invalid++;
      else if (status === 'empty') counts.empty++;
      else {
        counts.failed++;
        if (status === 'unavailable') summary.unavailable++;
      }
    }
    out.append(records);
    done += pending.length;
    if (cache.size > MAX_CACHED) cache.clear();
    for (const [n, a] of answers) if (a.status === 'found' || a.status === 'not_found') cache.set(n, a);
    pending = [];
    wanted = new Set();
    progress.update(done, counts);
  };

  try {
    progress.update(done, counts);
    let index = -2; // the header row is -1, data rows count from 0
    for await (const raw of rows(opts.input, layout.delimiter)) {
      if (++index < 0) continue;
      const cells = layout.header.map((_, i) => raw[i] ?? '');
      if (index < resumedRows) {
        if (index === resumedRows - 1 && lastRow && lastRow[layout.columnIndex] !== cells[layout.columnIndex]) {
          throw new UsageError(
            `Cannot resume: row ${index + 1} of ${opts.out} does not match the input (was it made from another file?)`,
          );
        }
        continue;
      }
      const orgNumber = normaliseOrgNumber(opts.country, cells[layout.columnIndex]);
      if (orgNumber !== null && !cache.has(orgNumber) && !wanted.has(orgNumber)) {
        if (wanted.size === BATCH_SIZE) await flush();
        wanted.add(orgNumber);
      }
      pending.push({ cells, orgNumber, blank: cells[layout.columnIndex].trim() === '' });
      if (pending.length >= MAX_PENDING_ROWS) await flush();
    }
    if (pending.length) await flush();
  } catch (err) {
    if (err instanceof NcdApiError || err instanceof NcdNetworkError) summary.stopped = describeStop(err);
    else throw err;
  } finally {
    progress.finish();
    out.close();
  }
  Object.assign(summary, counts, { processed: done - resumedRows });
  return summary;
}

/** One enrich call; a 400 marks the batch failed, anything else stops the run (see top). */
async function ask(client: NcdClient, opts: EnrichOptions, numbers: string[]): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  if (!numbers.length) return answers;
  let result;
  try {
    result = await client.companies.enrich(
      opts.country === 'NO' ? numbers : { pairs: numbers.map((orgNumber) => ({ orgNumber, country: opts.country })) },
    );
  } catch (err) {
    if (err instanceof NcdApiError && err.status === 400) {
      for (const n of numbers) answers.set(n, { status: 'failed' });
      return answers;
    }
    throw err;
  }
  const numberOf = (x: string | { orgNumber: string }) => (typeof x === 'string' ? x : x.orgNumber);
  for (const record of result.data)
    answers.set(record.orgNumber, { status: 'found', values: values(record as CompanyRecord, opts.fields) });
  for (const x of result.notFound) answers.set(numberOf(x), { status: 'not_found' });
  for (const x of result.unavailable) answers.set(numberOf(x), { status: 'unavailable' });
  return answers;
}

function values(record: CompanyRecord, fields: FieldSpec[]): string[] {
  return fields.map((f) => cell(f.read(record)));
}

function describeStop(err: NcdApiError | NcdNetworkError): string {
  if (err instanceof NcdNetworkError) return err.message;
  const hint =
    err.status === 401
      ? ' (check NCD_API_KEY)'
      : err.status === 402
        ? ' (the key needs an upgrade)'
        : err.status === 429
          ? ` (quota: retry after ${err.retryAfter ?? '?'}s)`
          : '';
  return `the server answered ${err.status} ${err.code}: ${err.message}${hint}`;
}
