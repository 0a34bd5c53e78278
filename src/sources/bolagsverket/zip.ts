// The download (bolagsverket_bulkfil.zip) holds the text file; its entry is streamed, not unpacked.
import type { Readable } from 'node:stream';
import type { NordicCompanyRecord } from '../nordic-record.ts';
import { openZipEntry } from '../nordic-zip.ts';
import { parseBolagsverketText, type BolagsverketParseOptions } from './parse-text.ts';

/**
 * Takes the ZIP as a file path, or as a Readable (HTTP body) that is spooled to a temporary file
 * first, because a ZIP's directory is at its end. The largest `*.txt` entry is parsed.
 */
export async function* parseBolagsverketZip(
  input: string | Readable,
  options: BolagsverketParseOptions = {},
): AsyncGenerator<NordicCompanyRecord> {
  const entry = await openZipEntry(input, '.txt', 'Bolagsverket bulkfil');
  try {
    yield* parseBolagsverketText(entry.stream, options);
  } finally {
    await entry.close();
  }
}
