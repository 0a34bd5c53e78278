// Test helpers for the streaming parsers: build byte streams from text, optionally cut into
// chunks at given positions (to prove results do not depend on where chunk boundaries fall).
import { Readable } from 'node:stream';

export function streamOf(text: string | Buffer, cuts: number[] = []): Readable {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const points = [...new Set(cuts.map((c) => Math.max(0, Math.min(bytes.length, c))))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    if (p > from) chunks.push(bytes.subarray(from, p));
    from = p;
  }
  if (from < bytes.length) chunks.push(bytes.subarray(from));
  return Readable.from(chunks, { objectMode: false });
}

export async function collect<T>(gen: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of gen) out.push(item);
  return out;
}

/** Runs the generator to the end and returns the error it threw (or fails if none). */
export async function errorOf(gen: AsyncIterable<unknown>): Promise<Error> {
  try {
    for await (const _ of gen) {
      // drain
    }
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the parser to throw, but it finished');
}
