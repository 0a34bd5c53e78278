// The load of a file that is the whole set of one kind of row (inspections, licences): every
// record is upserted (content-hashed: unchanged rows are not written) and its key marked seen
// under the run; then the stored rows the file no longer holds are removed — unless the file
// holds under half of the stored set, which looks like a truncated download rather than the truth.
import type { Readable } from 'node:stream';
import type { AppContext } from '../runtime/context.ts';
import type { JobRun } from './registry.ts';

/** A file holding fewer than this share of the stored rows is suspect: absent rows are kept. */
export const MIN_FULL_FILE_SHARE = 0.5;
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

export async function loadFullSet<B>(ctx: AppContext, job: JobRun, load: FullSetLoad<B>) {
  const { name, noun, input, store } = load;
  await ctx.repos.syncSeen.clearLeftovers(job.id);
  const before = await store.count();
  let inserted = 0;
  let changed = 0;
  let removed = 0;
  let absentKept = false;
  try {
    for await (const batch of load.batches) {
      const r = await load.write(batch, before === 0);
      await ctx.repos.syncSeen.mark(job.id, r.keys);
      inserted += r.inserted;
      changed += r.changed;
      const read = load.read();
      job.report(read);
      if (read % PROGRESS_EVERY < batch.length) job.progress(`${name}: ${read} read`);
    }
    const seen = await ctx.repos.syncSeen.count(job.id);
    if (before === 0 || seen >= before * MIN_FULL_FILE_SHARE) removed = await store.removeAbsent(job.id);
    else {
      absentKept = true;
      job.progress(`${name}: the file holds ${seen} ${noun} against ${before} stored; absent ones are NOT removed`);
    }
  } catch (err) {
    input.destroy();
    throw err;
  } finally {
    await ctx.repos.syncSeen.clear(job.id);
  }
  return { inserted, changed, removed, absentKept };
}
