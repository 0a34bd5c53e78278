// Test helper: writes a ZIP (deflated) from strings, buffers or streams, as the upstream downloads are.
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export interface ZipInput {
  name: string;
  data: string | Buffer | Readable;
}

export async function writeZip(file: string, entries: ZipInput[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.data instanceof Readable) zip.addReadStream(e.data, e.name);
    else zip.addBuffer(Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data, 'utf8'), e.name);
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}
