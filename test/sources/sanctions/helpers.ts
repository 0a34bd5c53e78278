import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';

export const fixturePath = (name: string) => new URL(`../../fixtures/sanctions/${name}`, import.meta.url);
export const fixture = (name: string) => readFileSync(fixturePath(name));

/** A byte stream; with chunk sizes, the bytes arrive in pieces of those sizes (cycled). */
export function streamOf(data: string | Buffer, chunkSizes: number[] = []): Readable {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (chunkSizes.length === 0) return Readable.from([bytes]);
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, chunkSizes[i % chunkSizes.length]);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

export async function collect<T>(gen: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}
