// The one loader of snapshots: files that are the whole set of something (a registry dump, the
// inspections or licence register, a Nordic bulk file). Every key a load writes is marked seen
// under its run; after a complete load, the stored rows it did not hold are swept (deleted,
// deregistered or removed) — unless it holds under MIN_SNAPSHOT_SHARE of what is stored, which
// looks like a truncated download rather than the truth. The seen set is cleared in every case.
import type { SyncSeenRepository } from '../store/ops/sync-seen.ts';

/** A snapshot holding fewer than this share of the stored rows is suspect: absent rows are kept. */
export const MIN_SNAPSHOT_SHARE = 0.5;

export interface SnapshotLoad<T> {
  seen: SyncSeenRepository;
  run: number;
  /** false: nothing stored can be absent (an empty store), so no key is marked and nothing swept. */
  track: boolean;
  /** Writes the snapshot; `mark` records keys as seen. `complete: false` (e.g. --limit): no sweep. */
  load(mark: (keys: string[]) => Promise<void>): Promise<{ value: T; complete: boolean }>;
  /**
   * How many rows the snapshot is held against, read after the load. Absent: the snapshot is
   * trusted whole (sub-unit dumps, which only come with their main dump).
   */
  stored?(): Promise<number>;
  /** Sweeps the stored rows the run did not mark; returns how many. */
  sweep(): Promise<number>;
  /** Told when the guard keeps the absent rows. */
  truncated(seen: number, stored: number): void;
}

export interface SnapshotResult<T> {
  value: T;
  /** Rows swept as absent. */
  swept: number;
  /** Whether the absent rows were swept (false: not tracked, incomplete, or truncated). */
  sweptAbsent: boolean;
  /** The guard kept absent rows because the snapshot looked truncated. */
  absentKept: boolean;
}

export async function loadSnapshot<T>(s: SnapshotLoad<T>): Promise<SnapshotResult<T>> {
  await s.seen.clearLeftovers(s.run);
  const mark = s.track ? (keys: string[]) => s.seen.mark(s.run, keys) : () => Promise.resolve();
  try {
    const { value, complete } = await s.load(mark);
    const out: SnapshotResult<T> = { value, swept: 0, sweptAbsent: false, absentKept: false };
    if (!s.track || !complete) return out;
    const stored = s.stored ? await s.stored() : 0;
    const seen = s.stored ? await s.seen.count(s.run) : 0;
    if (stored === 0 || seen >= stored * MIN_SNAPSHOT_SHARE) {
      out.swept = await s.sweep();
      out.sweptAbsent = true;
    } else {
      out.absentKept = true;
      s.truncated(seen, stored);
    }
    return out;
  } finally {
    await s.seen.clear(s.run);
  }
}
