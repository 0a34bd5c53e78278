// The PRH `all_companies` download: a ZIP holding one JSON file that is one big array of v3
// company objects (~800 k). The array is parsed element by element with stream-json, so memory
// holds one company at a time, never the array.
import type { Readable } from 'node:stream';
import streamArray from 'stream-json/streamers/stream-array.js';
import { RejectLog, type NordicCompanyRecord } from '../nordic-record.ts';
import { openZipEntry } from '../nordic-zip.ts';
import { parsePrhCompany } from './map-company.ts';

export interface PrhParseOptions {
  /** Filled while parsing: companies that could not be mapped (count + first reasons). */
  rejects?: RejectLog;
}

export function newPrhRejectLog(maxRejected = 10_000): RejectLog {
  return new RejectLog('PRH all_companies', maxRejected);
}

/**
 * Streams the companies of a JSON array (the unzipped all_companies file). A company that cannot
 * be mapped is counted in `rejects` (named by array index and business ID) and skipped; invalid
 * JSON, or a top level that is not an array, throws.
 */
export async function* parsePrhJsonArray(
  input: Readable,
  options: PrhParseOptions = {},
): AsyncGenerator<NordicCompanyRecord> {
  const rejects = options.rejects ?? newPrhRejectLog();
  const items = streamArray.withParserAsStream({ streamValues: false }); // whole values are assembled anyway: skip piecewise tokens
  // pipe() does not forward source errors (e.g. a corrupt ZIP entry); do it by hand.
  input.once('error', (err) => items.destroy(err));
  input.pipe(items);
  const iterator = (items as AsyncIterable<{ key: number; value: unknown }>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<{ key: number; value: unknown }>;
      try {
        next = await iterator.next();
      } catch (err) {
        throw new Error(`PRH all_companies: cannot read the JSON array: ${(err as Error).message}`, { cause: err });
      }
      if (next.done) return;
      let record: NordicCompanyRecord;
      try {
        record = parsePrhCompany(next.value.value);
      } catch (err) {
        rejects.add(`element ${next.value.key}`, (err as Error).message);
        continue;
      }
      yield record;
    }
  } finally {
    input.unpipe(items);
    items.destroy();
    if (!input.destroyed) input.destroy();
  }
}

/**
 * Streams the companies out of the all_companies ZIP. Takes a file path, or a Readable (the
 * HTTP body) which is spooled to a temporary file first, because a ZIP is read from its end.
 */
export async function* parsePrhAllCompaniesZip(
  input: string | Readable,
  options: PrhParseOptions = {},
): AsyncGenerator<NordicCompanyRecord> {
  const entry = await openZipEntry(input, '.json', 'PRH all_companies');
  try {
    yield* parsePrhJsonArray(entry.stream, options);
  } finally {
    await entry.close();
  }
}
