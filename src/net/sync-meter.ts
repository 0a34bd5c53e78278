// What a running sync reports for an operator's progress display: bytes of its input read (and
// the total, when known), rows processed, and waits an upstream imposed. The CLI sets a meter
// around the job it runs (AsyncLocalStorage); the input opener, the job runner and the retry
// loop report to it without a parameter threaded through every job. Nothing is reported when no
// meter is set (scheduled runs in the server).
import { AsyncLocalStorage } from 'node:async_hooks';
import { Transform, pipeline, type Readable } from 'node:stream';

export interface SyncMeter {
  /** An input was opened: its size in bytes when known (a file, a download with Content-Length). */
  opened(totalBytes: number | undefined): void;
  read(bytes: number): void;
  /** Rows (records) processed so far by the job. */
  rows(count: number): void;
  /** The job waits this long before going on (an upstream's rate limit). */
  waiting(ms: number): void;
}

const meters = new AsyncLocalStorage<SyncMeter>();

/** Runs `fn` with `meter` receiving what the sync it starts reports. */
export const withSyncMeter = <T>(meter: SyncMeter, fn: () => Promise<T>): Promise<T> => meters.run(meter, fn);

export const currentSyncMeter = (): SyncMeter | undefined => meters.getStore();

/** The byte stream, counted into the current meter as it is read (as it is when no meter is set). */
export function meteredInput(raw: Readable, totalBytes: number | undefined): Readable {
  const meter = meters.getStore();
  if (!meter) return raw;
  meter.opened(totalBytes);
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      meter.read(chunk.length);
      done(null, chunk);
    },
  });
  // pipeline: an error of the input reaches the reader, and a reader that gives up closes the input.
  return pipeline(raw, counter, () => undefined);
}
