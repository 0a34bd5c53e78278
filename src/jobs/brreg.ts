// Norwegian registry syncs:
//   brreg           full dump of hovedenheter (enheter/lastned, gzipped JSON); when downloading,
//                   underenheter first
//   brreg-subunits  full dump of underenheter only
//   brreg-updates   follows /oppdateringer/{enheter,underenheter} from the stored position
// A dump is the whole register: units live in the store but absent from it are marked deleted.
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { mapEnhet, mapUnderenhet } from '../sources/brreg/map.ts';
import type { BrregEnhet, BrregUnderenhet } from '../sources/brreg/types.ts';
import { readJsonArrayBatches } from '../sources/json-array.ts';
import { openSyncInput, type InputChoice } from '../sources/sync-input.ts';
import { loadSnapshot } from './snapshot-load.ts';
import { defineJob, pick, type JobPorts, type JobRun, type Progress } from './job.ts';

/** What the job uses. */
const brregDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyWrites', 'deferredIndexes', 'groups', 'syncRuns', 'syncSeen'),
  upstreams: p.upstreams,
});
type BrregDeps = ReturnType<typeof brregDeps>;

const BATCH = 2000;

export const UPDATES_STATE = 'brreg-updates';

export interface UpdatesState extends Record<string, unknown> {
  enheterId: number;
  underenheterId: number;
}

/** `--file`, `--url`, else brreg's download of the dump (gzipped or not). */
async function openInput(deps: BrregDeps, opts: InputChoice, kind: 'enheter' | 'underenheter'): Promise<Readable> {
  return (await openSyncInput(opts, { fallback: () => deps.upstreams.brreg.download(kind) })).stream;
}

/** A first load into an empty register is several times faster with indexes built afterwards. */
const FIRST_LOAD_INDEX_DEFERRAL = true;

/**
 * Hands each batch to `write` in order, with at most one write in flight: the next batch is read
 * and parsed (CPU in this process) while the database works on the previous one, instead of
 * one waiting for the other. Writes stay in file order and memory stays at two batches.
 */
export async function overlapped<B>(batches: AsyncIterable<B>, write: (batch: B) => Promise<void>): Promise<void> {
  let inFlight: Promise<void> | undefined;
  try {
    for await (const batch of batches) {
      if (inFlight) await inFlight;
      inFlight = write(batch);
      // Its failure is taken up at the next await; until then it must not count as unhandled.
      inFlight.catch(() => undefined);
    }
    if (inFlight) await inFlight;
  } catch (err) {
    // The caller's cleanup (sync_seen, deferred indexes) must not race a write still running.
    if (inFlight) await inFlight.catch(() => undefined);
    throw err;
  }
}

/** Both statements, side by side (two connections on PostgreSQL); settles only when both have. */
async function together<A>(main: Promise<A>, bookkeeping: Promise<void>): Promise<A> {
  const [a, b] = await Promise.allSettled([main, bookkeeping]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return a.value;
}

/** A full dump into a register holding no company yet: nothing in it can be absent from the dump. */
async function storeIsEmpty(deps: BrregDeps): Promise<boolean> {
  return (await deps.repos.syncSeen.liveCount('NO')) === 0 && !(await deps.repos.syncSeen.anyCompanies());
}

/** What a deferral reports: the count dropped (before the load), and the counts dropped and built (after it). */
interface DeferralReport {
  dropped?: (dropped: number) => void;
  built: (dropped: number, built: number) => void;
}

/**
 * Runs `load` with the search indexes of companies dropped when `deferred`, and builds them once
 * after it, also when it fails (lookups keep the unique index meanwhile). The download of both
 * dumps holds them dropped through both loads: one build of ~14 s on the bench's 1.2M store
 * instead of two.
 */
async function withIndexesDeferred<T>(
  deps: BrregDeps,
  deferred: boolean,
  report: DeferralReport,
  load: () => Promise<T>,
): Promise<T> {
  if (!deferred) return load();
  const dropped = await deps.repos.deferredIndexes.drop('companies');
  report.dropped?.(dropped);
  try {
    return await load();
  } finally {
    report.built(dropped, await deps.repos.deferredIndexes.restore('companies'));
  }
}

async function loadEnheter(deps: BrregDeps, input: Readable, job: JobRun, emptyStore: boolean) {
  const { id: run, progress, report } = job;
  let processed = 0;
  let inserted = 0;
  let changed = 0;
  const r = await loadSnapshot({
    seen: deps.repos.syncSeen,
    run,
    // Into an empty store nothing can be absent from the dump: no seen-keys rows (one per unit) then.
    track: !emptyStore,
    async load(mark) {
      await overlapped(readJsonArrayBatches<BrregEnhet>(input, 'enheter dump', BATCH), async (batch) => {
        const cores = batch.filter((e) => typeof e?.organisasjonsnummer === 'string').map(mapEnhet);
        const w = await together(
          deps.repos.companyWrites.write(
            cores.map((core) => ({ core })),
            { storeWasEmpty: emptyStore },
          ),
          mark(cores.map((c) => c.orgNumber)),
        );
        processed += batch.length;
        inserted += w.inserted;
        changed += w.changed;
        report(processed);
        if (processed % 10_000 < BATCH) progress(`enheter: ${processed} read, ${inserted} new, ${changed} changed`);
      });
      return { value: undefined, complete: true };
    },
    stored: () => deps.repos.syncSeen.liveCount('NO'),
    sweep: () => deps.repos.syncSeen.markAbsentCompanies(run, 'NO', 'deleted'),
    truncated: (seen, live) =>
      progress(`enheter: the dump holds ${seen} of ${live} live units; absent units are NOT marked deleted`),
  });
  const deleted = r.swept;
  progress(`enheter: ${processed} read, ${inserted} new, ${changed} changed, ${deleted} marked deleted`);
  return { processed, inserted, changed, deleted };
}

/**
 * `companyIndexesDropped`: the caller holds the search indexes of companies dropped (a first load
 * of both dumps), so the parents' update must not drop and rebuild them on its own.
 */
async function loadUnderenheter(deps: BrregDeps, input: Readable, job: JobRun, companyIndexesDropped = false) {
  const { id: run, progress, report } = job;
  // With no sub-unit stored yet nothing can be absent: no seen-keys rows then.
  const track = await deps.repos.syncSeen.anySubUnits('NO');
  let processed = 0;
  const r = await loadSnapshot({
    seen: deps.repos.syncSeen,
    run,
    track,
    async load(mark) {
      await overlapped(readJsonArrayBatches<BrregUnderenhet>(input, 'underenheter dump', BATCH), async (batch) => {
        const units = batch.filter((u) => typeof u?.organisasjonsnummer === 'string').map(mapUnderenhet);
        await together(
          deps.repos.companyWrites.writeSubUnits('NO', units, { parentsLater: true, noneStored: !track }),
          mark(units.map((u) => u.orgNumber)),
        );
        processed += batch.length;
        report(processed);
      });
      return { value: undefined, complete: true };
    },
    // No `stored`: a sub-unit dump is trusted whole, as it always was (it comes with its main dump).
    sweep: () => deps.repos.syncSeen.markAbsentSubUnits(run, 'NO'),
    truncated: () => undefined,
  });
  const closed = r.swept;
  // After the sweep, so that a parent whose unit was closed shows in the change feed too.
  const parentsBumped = await bumpParents(deps, {
    firstLoad: FIRST_LOAD_INDEX_DEFERRAL && !track && !companyIndexesDropped,
    progress,
  });
  progress(`underenheter: ${processed} read, ${closed} marked deleted, ${parentsBumped} parents changed`);
  return { processed, closed, parentsBumped };
}

/**
 * The parents of changed sub-units get a new updated_at. A first sub-unit load bumps every
 * parent (421k of 1.2M companies on the bench's store), and each new row version goes into every
 * index of companies (updated_at is indexed, so no HOT update): 83 s of the 130 s sub-unit load,
 * where dropping the search indexes, bumping and rebuilding them took 44 s (measured on that
 * store). Lookups keep the unique index meanwhile, as during a first load of enheter.
 */
async function bumpParents(deps: BrregDeps, opts: { firstLoad: boolean; progress: Progress }): Promise<number> {
  return withIndexesDeferred(
    deps,
    opts.firstLoad,
    {
      built: (dropped, rebuilt) =>
        opts.progress(
          `underenheter: first load, ${dropped} search indexes dropped for the parents' update, ${rebuilt} rebuilt`,
        ),
    },
    () => deps.repos.companyWrites.bumpSubUnitParents('NO'),
  );
}

/** After a full dump, the update feed is followed from the dump's time. */
async function startUpdatesFrom(deps: BrregDeps, since: Date, progress: Progress) {
  try {
    const [e, u] = await Promise.all([
      deps.upstreams.brreg.firstUpdateIdSince('enheter', since),
      deps.upstreams.brreg.firstUpdateIdSince('underenheter', since),
    ]);
    const current = await deps.repos.syncRuns.getState<UpdatesState>(UPDATES_STATE);
    await deps.repos.syncRuns.setState(UPDATES_STATE, {
      enheterId: e ?? current?.enheterId ?? 1,
      underenheterId: u ?? current?.underenheterId ?? 1,
    });
  } catch (err) {
    progress(`could not read the update feed position (${(err as Error).message}); brreg-updates starts when it can`);
  }
}

export const brregJob = defineJob({
  name: 'brreg',
  deps: brregDeps,
  description: 'Full dump of Enhetsregisteret (hovedenheter; when downloading, underenheter first)',
  schedule: '0 3 1 * *', // monthly snapshot; the 15-minute feed covers the rest
  options: ['file', 'url', 'follow'],
  async run(deps, opts, job) {
    const dumpTime = opts.file ? (await stat(opts.file)).mtime : new Date();
    const bothDumps = !opts.file && !opts.url;
    const emptyStore = await storeIsEmpty(deps);
    const deferred = FIRST_LOAD_INDEX_DEFERRAL && emptyStore;
    // Sub-units first: a parent written after its units needs no new updated_at for them, so a
    // first load skips the parents' update (421k of 1.2M companies rewritten, 19 s on the
    // bench's store); a later load bumps the parents of changed units as the sub-unit job does.
    const firstLoadReport: DeferralReport = {
      dropped: (n) => job.progress(`first load: ${n} search indexes are built after it`),
      built: (_, n) => job.progress(`first load: ${n} indexes built`),
    };
    const { enheter, underenheter } = await withIndexesDeferred(deps, deferred, firstLoadReport, async () => {
      const underenheter = bothDumps
        ? await loadUnderenheter(deps, await openInput(deps, opts, 'underenheter'), job, deferred)
        : undefined;
      const enheter = await loadEnheter(
        deps,
        await openInput(deps, opts, 'enheter'),
        { ...job, report: (n) => job.report((underenheter?.processed ?? 0) + n) },
        emptyStore,
      );
      return { enheter, underenheter };
    });
    if (opts.follow !== false) await startUpdatesFrom(deps, dumpTime, job.progress);
    // Parents from the registry and from shareholders, and group flags, over the whole register.
    const groups = await deps.repos.groups.recompute();
    job.progress(`groups: ${groups.parentsChanged} parents and ${groups.groupFlagsChanged} group flags changed`);
    return { recordsProcessed: enheter.processed + (underenheter?.processed ?? 0), details: { enheter, underenheter } };
  },
});

export const brregSubunitsJob = defineJob({
  name: 'brreg-subunits',
  deps: brregDeps,
  description: 'Full dump of underenheter (sub-units)',
  options: ['file', 'url'],
  async run(deps, opts, job) {
    const r = await loadUnderenheter(deps, await openInput(deps, opts, 'underenheter'), job);
    return { recordsProcessed: r.processed, details: r };
  },
});
