// Streams the data entry out of an upstream ZIP download (PRH all_companies, Bolagsverket bulkfil).
// A ZIP's central directory sits at the end of the file, so reading one needs random access: the
// input is a file path, or a Readable (e.g. an HTTP body) that is first spooled to a temporary file.
// The entry itself is then inflated as a stream, never held in memory.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

interface ZipEntryStream {
  entryName: string;
  stream: Readable;
  /** Closes the archive and removes the spooled temporary file, if any. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens the entry whose name ends with `extension` (case-insensitive). When several match (a
 * readme next to the data, say) the largest one is the data. Throws if none matches.
 */
export async function openZipEntry(
  input: string | Readable,
  extension: string,
  label: string,
): Promise<ZipEntryStream> {
  let tempDir: string | null = null;
  let zipPath: string;
  if (typeof input === 'string') {
    zipPath = input;
  } else {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'ncd-zip-'));
    zipPath = path.join(tempDir, 'download.zip');
    try {
      await pipeline(input, createWriteStream(zipPath));
    } catch (err) {
      await rm(tempDir, { recursive: true, force: true });
      throw err;
    }
  }
  const removeTemp = async () => {
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
    tempDir = null;
  };

  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false });
  } catch (err) {
    await removeTemp();
    throw new Error(`${label}: not a readable ZIP file (${(err as Error).message})`, { cause: err });
  }
  let closed = false;
  const close = async () => {
    if (!closed) {
      closed = true;
      zip.close();
    }
    await removeTemp();
  };

  try {
    const wanted = extension.toLowerCase();
    const names: string[] = [];
    let best: yauzl.Entry | null = null;
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        const isFile = !entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/');
        if (isFile && entry.fileName.toLowerCase().endsWith(wanted)) {
          if (!best || entry.uncompressedSize > best.uncompressedSize) best = entry;
        }
        zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', reject);
      zip.readEntry();
    });
    const entry = best as yauzl.Entry | null;
    if (!entry) {
      throw new Error(`${label}: ZIP has no *${extension} entry (entries: ${names.slice(0, 10).join(', ') || 'none'})`);
    }
    const stream = await zip.openReadStreamPromise(entry);
    return { entryName: entry.fileName, stream, close };
  } catch (err) {
    await close();
    throw err;
  }
}
