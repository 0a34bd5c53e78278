// Streams the elements of one large JSON array (registry dumps, optionally gzipped) without
// holding the array: one element in memory at a time.
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import streamArray from 'stream-json/streamers/stream-array.js';

/** Unzips the stream when it starts with the gzip magic bytes; passes it through otherwise. */
export async function maybeGunzip(input: Readable): Promise<Readable> {
  const first: Buffer | null = await new Promise((resolve, reject) => {
    const onReadable = () => {
      cleanup();
      resolve(input.read(2) as Buffer | null);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      input.off('readable', onReadable);
      input.off('end', onEnd);
      input.off('error', onError);
    };
    input.once('readable', onReadable);
    input.once('end', onEnd);
    input.once('error', onError);
  });
  if (first) input.unshift(first);
  if (first && first[0] === 0x1f && first[1] === 0x8b) {
    const gunzip = createGunzip();
    input.once('error', (err) => gunzip.destroy(err));
    return input.pipe(gunzip);
  }
  return input;
}

export async function* readJsonArray<T>(input: Readable, label: string): AsyncGenerator<T> {
  const items = streamArray.withParserAsStream({ streamValues: false });
  input.once('error', (err) => items.destroy(err));
  input.pipe(items);
  try {
    for await (const item of items as AsyncIterable<{ key: number; value: T }>) yield item.value;
  } catch (err) {
    throw new Error(`${label}: cannot read the JSON array: ${(err as Error).message}`);
  } finally {
    input.unpipe(items);
    items.destroy();
    if (!input.destroyed) input.destroy();
  }
}

/** Groups an async stream into arrays of at most `size`. */
export async function* inBatches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
