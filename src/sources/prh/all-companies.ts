// The PRH `all_companies` download: a ZIP holding one JSON file that is one big array of v3
// company objects (~800 k). The array is read element by element (json-array.ts), so memory
// holds a few companies at a time, never the array.
import type { Readable } from 'node:stream';
import { readJsonArray } from '../json-array.ts';
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
  let index = 0;
  for await (const value of readJsonArray<unknown>(input, 'PRH all_companies')) {
    const at = index++;
    let record: NordicCompanyRecord;
    try {
      record = parsePrhCompany(value);
    } catch (err) {
      rejects.add(`element ${at}`, (err as Error).message);
      continue;
    }
    yield record;
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
