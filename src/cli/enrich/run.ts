// `ncd enrich`: reads the input CSV in order, asks the API for up to 100 distinct numbers per
// call, and appends each finished batch to the output. A run stopped by anything that would
// fail every later batch too (bad key, quota, server down) writes nothing for the batch in
// hand, so `--resume` picks up exactly there.
import { NcdApiError, NcdClient, NcdNetworkError, type CompanyRecord } from '../../../clients/js/src/index.ts';
import { UsageError } from '../../ops/usage-error.ts';
import { countDataRows, readLayout, rows } from './csv-input.ts';
import { CsvAppender, readResumePoint, type CsvFormat } from './csv-output.ts';
import type { CellValue, FieldSpec } from './fields.ts';
import { MATCH_BATCH, MATCH_COLUMNS, matchCells, matchNames, nameQuery, queryKey } from './match-names.ts';
import type { MatchOutcome, NameQuery } from './match-names.ts';
import type { EnrichOptions } from './options.ts';
import { normaliseOrgNumber } from './org-numbers.ts';
import { createProgress, type Counts } from './progress.ts';

const STATUS_COLUMN = 'enrichStatus';
const BATCH_SIZE = 100;
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
  /** With --match-names: rows matched, ambiguous, with no candidate, and not reached by the server's work bound. */
  matching?: Record<'matched' | 'ambiguous' | 'none' | 'not_attempted', number>;
}

type Country = EnrichOptions['country'];

interface PendingRow {
  cells: string[];
  /** `country:orgNumber` of the company to enrich, once known. */
  company: string | null;
  /** --match-names: the row has no number; its name is looked up. */
  query?: NameQuery | null;
  match?: MatchOutcome;
  /** The org-number cell is blank: reported as `empty`, not `invalid`. */
  blank: boolean;
}

type Answer = { status: 'found'; values: string[] } | { status: 'not_found' | 'unavailable' | 'failed' };

const cell = (v: CellValue): string => (v === null || v === undefined ? '' : String(v));

const companyKey = (country: Country, orgNumber: string) => `${country}:${orgNumber}`;

export async function runEnrich(opts: EnrichOptions, stderr: NodeJS.WriteStream): Promise<EnrichSummary> {
  const layout = await readLayout(opts.input, opts.column ?? opts.match!.nameColumn);
  const indexOf = (column: string | undefined) => {
    if (column === undefined) return -1;
    const i = layout.header.indexOf(column);
    if (i < 0)
      throw new UsageError(`Column "${column}" is not in ${opts.input}. Its columns: ${layout.header.join(', ')}`);
    return i;
  };
  const numberAt = indexOf(opts.column);
  const nameAt = indexOf(opts.match?.nameColumn);
  const cityAt = indexOf(opts.match?.cityColumn);
  const added = [...(opts.match ? MATCH_COLUMNS : []), ...opts.fields.map((f) => f.name), STATUS_COLUMN];
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
  let written: string[][] = [];
  let out: CsvAppender;
  if (opts.resume && CsvAppender.exists(opts.out)) {
    const point = readResumePoint(opts.out, outHeader, format.delimiter);
    if (point.rowsDone > total)
      throw new UsageError(`Cannot resume: ${opts.out} has ${point.rowsDone} rows but the input only ${total}`);
    resumedRows = point.rowsDone;
    lastRow = point.lastRow;
    written = point.written;
    out = CsvAppender.reopen(opts.out, format);
    if (point.needsHeader) out.appendHeader(outHeader);
  } else {
    out = CsvAppender.create(opts.out, outHeader, format);
  }

  const counts: Counts = { found: 0, notFound: 0, empty: 0, invalid: 0, failed: 0 };
  const summary: EnrichSummary = { ...counts, total, resumed: resumedRows, processed: 0, unavailable: 0 };
  const matching = { matched: 0, ambiguous: 0, none: 0, not_attempted: 0 };
  if (opts.match) summary.matching = matching;
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
  const matchCache = new Map<string, MatchOutcome>();
  let pending: PendingRow[] = [];
  let wanted = new Set<string>();
  let names = new Map<string, NameQuery>();
  let done = resumedRows;
  // Resuming: the answers in the rows already written are reused, so a name or number that
  // repeats further down the file is not asked for again.
  const at = (name: string) => layout.header.length + added.indexOf(name);
  for (const w of written) {
    const status = w[at(STATUS_COLUMN)] as Status;
    let company = numberAt < 0 ? null : normaliseOrgNumber(opts.country, w[numberAt]);
    if (company !== null) company = companyKey(opts.country, company);
    const matchStatus = opts.match ? (w[at('matchStatus')] as MatchOutcome['status'] | '') : '';
    if (matchStatus) {
      const q = nameQuery(w[nameAt], cityAt < 0 ? undefined : w[cityAt]);
      const [orgNumber, country, score] = [w[at('match')], w[at('matchCountry')] as Country, w[at('matchScore')]];
      const outcome: MatchOutcome =
        matchStatus === 'matched' ? { status: matchStatus, orgNumber, country } : { status: matchStatus };
      if (score) outcome.score = Number(score);
      if (q) matchCache.set(queryKey(q), outcome);
      if (orgNumber && country) company = companyKey(country, orgNumber);
    }
    if (company === null) continue;
    if (status === 'found') cache.set(company, { status, values: opts.fields.map((f) => w[at(f.name)]) });
    if (status === 'not_found') cache.set(company, { status });
  }

  const flush = async () => {
    // Names first: a matched row's number joins the numbers to enrich in this same batch, so
    // what is written is done, and --resume neither matches nor enriches a written row again.
    const matched = await matchNames(client, [...names.values()], opts.match?.country);
    for (const row of pending) {
      if (!row.query) continue;
      row.match = matched.get(queryKey(row.query)) ?? matchCache.get(queryKey(row.query));
      if (row.match?.status !== 'matched') continue;
      row.company = companyKey(row.match.country!, row.match.orgNumber!);
      if (!cache.has(row.company)) wanted.add(row.company);
    }
    const answers = new Map<string, Answer>();
    const keys = [...wanted];
    for (let i = 0; i < keys.length; i += BATCH_SIZE)
      for (const [k, a] of await ask(client, opts.fields, keys.slice(i, i + BATCH_SIZE))) answers.set(k, a);
    const records: string[][] = [];
    for (const row of pending) {
      const answer = row.company === null ? undefined : (answers.get(row.company) ?? cache.get(row.company));
      const status: Status = row.company === null ? (row.blank ? 'empty' : 'invalid') : (answer?.status ?? 'failed');
      const values = answer?.status === 'found' ? answer.values : opts.fields.map(() => '');
      if (row.query !== undefined) matching[row.match?.status ?? 'none']++;
      const matchPart = opts.match
        ? matchCells(row.query === undefined ? undefined : (row.match ?? { status: 'none' }))
        : [];
      records.push([...row.cells, ...matchPart, ...values, status]);
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
    if (matchCache.size > MAX_CACHED) matchCache.clear();
    for (const [k, m] of matched) matchCache.set(k, m);
    pending = [];
    wanted = new Set();
    names = new Map();
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
      const numberCell = numberAt < 0 ? '' : cells[numberAt];
      const orgNumber = numberAt < 0 ? null : normaliseOrgNumber(opts.country, numberCell);
      const company = orgNumber === null ? null : companyKey(opts.country, orgNumber);
      if (company !== null && !cache.has(company) && !wanted.has(company)) {
        if (wanted.size === BATCH_SIZE) await flush();
        wanted.add(company);
      }
      const blank = numberCell.trim() === '';
      // Rows without a number (a blank cell, or no number column) are matched by name.
      const query = opts.match && blank ? nameQuery(cells[nameAt], cityAt < 0 ? undefined : cells[cityAt]) : undefined;
      if (query && !matchCache.has(queryKey(query)) && !names.has(queryKey(query))) {
        if (names.size === MATCH_BATCH) await flush();
        names.set(queryKey(query), query);
      }
      pending.push({ cells, company, blank, query });
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

/**
 * One enrich call for up to 100 `country:orgNumber` keys (plain numbers when all are Norwegian);
 * a 400 marks the batch failed, anything else stops the run (see top).
 */
async function ask(client: NcdClient, fields: FieldSpec[], keys: string[]): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  if (!keys.length) return answers;
  const pairs = keys.map((k) => ({ country: k.slice(0, 2) as Country, orgNumber: k.slice(3) }));
  let result;
  try {
    result = await client.companies.enrich(
      pairs.every((p) => p.country === 'NO') ? pairs.map((p) => p.orgNumber) : { pairs },
    );
  } catch (err) {
    if (err instanceof NcdApiError && err.status === 400) {
      for (const k of keys) answers.set(k, { status: 'failed' });
      return answers;
    }
    throw err;
  }
  const keyOf = (x: string | { orgNumber: string; country?: string }) =>
    typeof x === 'string' ? companyKey('NO', x) : companyKey((x.country ?? 'NO') as Country, x.orgNumber);
  for (const record of result.data)
    answers.set(companyKey(record.country as Country, record.orgNumber), {
      status: 'found',
      values: values(record as CompanyRecord, fields),
    });
  for (const x of result.notFound) answers.set(keyOf(x), { status: 'not_found' });
  for (const x of result.unavailable) answers.set(keyOf(x), { status: 'unavailable' });
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
