// The entries of a small ZIP, each read whole (yauzl): a Bolagsverket annual-report package (one
// iXBRL file, sometimes with an audit report beside it) or an offline bundle of filings for
// `ncd sync … --file`. Entries are read one at a time, each under a size cap, so a bundle of
// thousands of filings is never held at once. A ZIP that cannot be read throws ZipReadError.
import yauzl from 'yauzl';

export class ZipReadError extends Error {}

export interface ZipEntry {
  name: string;
  data: Buffer;
}

interface ReadOptions {
  /** Entries whose name passes are read; others are skipped unread. */
  match: (name: string) => boolean;
  /** Largest inflated size read; a bigger entry throws ZipReadError. Default 64 MiB. */
  maxEntryBytes?: number;
}

const openZip = (input: Buffer | string): Promise<yauzl.ZipFile> =>
  new Promise((resolve, reject) => {
    const done = (err: Error | null, zip?: yauzl.ZipFile) => (err || !zip ? reject(err) : resolve(zip));
    if (typeof input === 'string') yauzl.open(input, { lazyEntries: true, autoClose: false }, done);
    else yauzl.fromBuffer(input, { lazyEntries: true }, done);
  });

/** Yields the matching entries of a ZIP given as bytes or as a file path. */
export async function* zipEntries(input: Buffer | string, opts: ReadOptions): AsyncGenerator<ZipEntry> {
  const max = opts.maxEntryBytes ?? 64 * 1024 * 1024;
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(input);
  } catch (err) {
    throw new ZipReadError(`not a readable ZIP (${(err as Error).message.slice(0, 100)})`);
  }
  // One entry event (or the end) per readEntry() call, taken as a promise.
  const next = () =>
    new Promise<yauzl.Entry | null>((resolve, reject) => {
      const onEntry = (e: yauzl.Entry) => (cleanup(), resolve(e));
      const onEnd = () => (cleanup(), resolve(null));
      const onError = (err: Error) => (
        cleanup(),
        reject(new ZipReadError(`broken ZIP (${err.message.slice(0, 100)})`))
      );
      const cleanup = () => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        zip.off('error', onError);
      };
      zip.on('entry', onEntry);
      zip.on('end', onEnd);
      zip.on('error', onError);
      zip.readEntry();
    });
  try {
    for (let entry = await next(); entry; entry = await next()) {
      const name = entry.fileName;
      if (name.endsWith('/') || name.startsWith('__MACOSX/') || !opts.match(name)) continue;
      if (entry.uncompressedSize > max) throw new ZipReadError(`${name}: larger than ${max} bytes`);
      const e = entry;
      const data = await new Promise<Buffer>((resolve, reject) => {
        zip.openReadStream(e, (err, stream) => {
          if (err || !stream) return reject(new ZipReadError(`${name}: ${err?.message ?? 'unreadable'}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => resolve(Buffer.concat(chunks)));
          stream.on('error', (er) => reject(new ZipReadError(`${name}: ${er.message.slice(0, 100)}`)));
        });
      });
      yield { name, data };
    }
  } finally {
    zip.close();
  }
}
