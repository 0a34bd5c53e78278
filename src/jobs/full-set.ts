// The load of a file that is the whole set of one kind of row (inspections, licences): every
// record is upserted (content-hashed: unchanged rows are not written) and its key marked seen
// under the run; then the snapshot loader removes the stored rows the file no longer holds.
import type { Readable } from 'node:stream';
import type { SyncSeenRepository } from '../store/ops/sync-seen.ts';
import type { JobRun } from './job.ts';
import { loadSnapshot } from './snapshot-load.ts';

const PROGRESS_EVERY = 20_000;

export interface FullSetLoad<B> {
  /** The progress prefix (the job's name). */
  name: string;
  /** What the rows are called in messages. */
  noun: string;
  /** The opened input, destroyed when the load fails. */
  input: Readable;
  batches: AsyncIterable<B[]>;
  store: { count(): Promise<number>; removeAbsent(run: number): Promise<number> };
  /**
   * Writes one batch; returns its counts and the keys to mark seen. `firstLoad`: the store held
   * none of these rows when the run began (new rows then raise no events).
   */
  write(batch: B[], firstLoad: boolean): Promise<{ inserted: number; changed: number; keys: string[] }>;
  /** Records read so far (a parser may count rows it dropped). */
  read(): number;
}

export async function loadFullSet<B>(seen: SyncSeenRepository, job: JobRun, load: FullSetLoad<B>) {
  const { name, noun, input, store } = load;
  const before = await store.count();
  let inserted = 0;
  let changed = 0;
  try {
    const r = await loadSnapshot({
      seen,
      run: job.id,
      track: true,
      async load(mark) {
        for await (const batch of load.batches) {
          const w = await load.write(batch, before === 0);
          await mark(w.keys);
          inserted += w.inserted;
          changed += w.changed;
          const read = load.read();
          job.report(read);
          if (read % PROGRESS_EVERY < batch.length) job.progress(`${name}: ${read} read`);
        }
        return { value: undefined, complete: true };
      },
      stored: async () => before,
      sweep: () => store.removeAbsent(job.id),
      truncated: (n, stored) =>
        job.progress(`${name}: the file holds ${n} ${noun} against ${stored} stored; absent ones are NOT removed`),
    });
    return { inserted, changed, removed: r.swept, absentKept: r.absentKept };
  } catch (err) {
    input.destroy();
    throw err;
  }
}
