// Norwegian registry syncs:
//   brreg           full dump of hovedenheter (enheter/lastned, gzipped JSON); when downloading,
//                   underenheter first
//   brreg-subunits  full dump of underenheter only
//   brreg-updates   follows /oppdateringer/{enheter,underenheter} from the stored position
// A dump is the whole register: units live in the store but absent from it are marked deleted.
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { AppContext } from '../runtime/context.ts';
import { mapEnhet, mapUnderenhet } from '../sources/brreg/map.ts';
import type { BrregEnhet, BrregUnderenhet } from '../sources/brreg/types.ts';
import { readJsonArrayBatches } from '../sources/json-array.ts';
import { openSyncInput, type InputChoice } from '../sources/sync-input.ts';
import { defineJob, type JobRun, type Progress } from './registry.ts';

const BATCH = 2000;
/** A dump holding fewer than this share of the live store is suspect: absent units are kept. */
const MIN_DUMP_SHARE = 0.5;

export const UPDATES_STATE = 'brreg-updates';

export interface UpdatesState extends Record<string, unknown> {
  enheterId: number;
  underenheterId: number;
}

/** `--file`, `--url`, else brreg's download of the dump (gzipped or not). */
async function openInput(ctx: AppContext, opts: InputChoice, kind: 'enheter' | 'underenheter'): Promise<Readable> {
  return (await openSyncInput(opts, { fallback: () => ctx.upstreams.brreg.download(kind) })).stream;
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
async function storeIsEmpty(ctx: AppContext): Promise<boolean> {
  return (await ctx.repos.syncSeen.liveCount('NO')) === 0 && !(await ctx.repos.syncSeen.anyCompanies());
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
  ctx: AppContext,
  deferred: boolean,
  report: DeferralReport,
  load: () => Promise<T>,
): Promise<T> {
  if (!deferred) return load();
  const dropped = await ctx.repos.deferredIndexes.drop('companies');
  report.dropped?.(dropped);
  try {
    return await load();
  } finally {
    report.built(dropped, await ctx.repos.deferredIndexes.restore('companies'));
  }
}

async function loadEnheter(ctx: AppContext, input: Readable, job: JobRun, emptyStore: boolean) {
  const { id: run, progress, report } = job;
  await ctx.repos.syncSeen.clearLeftovers(run);
  // Into an empty store nothing can be absent from the dump: no seen-keys rows (one per unit) then.
  const track = !emptyStore;
  let processed = 0;
  let inserted = 0;
  let changed = 0;
  try {
    await overlapped(readJsonArrayBatches<BrregEnhet>(input, 'enheter dump', BATCH), async (batch) => {
      const cores = batch.filter((e) => typeof e?.organisasjonsnummer === 'string').map(mapEnhet);
      const r = await together(
        ctx.repos.companyWrites.write(
          cores.map((core) => ({ core })),
          { storeWasEmpty: emptyStore },
        ),
        track
          ? ctx.repos.syncSeen.mark(
              run,
              cores.map((c) => c.orgNumber),
            )
          : Promise.resolve(),
      );
      processed += batch.length;
      inserted += r.inserted;
      changed += r.changed;
      report(processed);
      if (processed % 10_000 < BATCH) progress(`enheter: ${processed} read, ${inserted} new, ${changed} changed`);
    });
    let deleted = 0;
    if (track) {
      const live = await ctx.repos.syncSeen.liveCount('NO');
      const seen = await ctx.repos.syncSeen.count(run);
      if (live === 0 || seen >= live * MIN_DUMP_SHARE)
        deleted = await ctx.repos.syncSeen.markAbsentCompanies(run, 'NO', 'deleted');
      else progress(`enheter: the dump holds ${seen} of ${live} live units; absent units are NOT marked deleted`);
    }
    progress(`enheter: ${processed} read, ${inserted} new, ${changed} changed, ${deleted} marked deleted`);
    return { processed, inserted, changed, deleted };
  } finally {
    await ctx.repos.syncSeen.clear(run);
  }
}

/**
 * `companyIndexesDropped`: the caller holds the search indexes of companies dropped (a first load
 * of both dumps), so the parents' update must not drop and rebuild them on its own.
 */
async function loadUnderenheter(ctx: AppContext, input: Readable, job: JobRun, companyIndexesDropped = false) {
  const { id: run, progress, report } = job;
  await ctx.repos.syncSeen.clearLeftovers(run);
  // With no sub-unit stored yet nothing can be absent: no seen-keys rows then.
  const track = await ctx.repos.syncSeen.anySubUnits('NO');
  let processed = 0;
  try {
    await overlapped(readJsonArrayBatches<BrregUnderenhet>(input, 'underenheter dump', BATCH), async (batch) => {
      const units = batch.filter((u) => typeof u?.organisasjonsnummer === 'string').map(mapUnderenhet);
      await together(
        ctx.repos.companyWrites.writeSubUnits('NO', units, { parentsLater: true, noneStored: !track }),
        track
          ? ctx.repos.syncSeen.mark(
              run,
              units.map((u) => u.orgNumber),
            )
          : Promise.resolve(),
      );
      processed += batch.length;
      report(processed);
    });
    const closed = track ? await ctx.repos.syncSeen.markAbsentSubUnits(run, 'NO') : 0;
    // After the sweep, so that a parent whose unit was closed shows in the change feed too.
    const parentsBumped = await bumpParents(ctx, {
      firstLoad: FIRST_LOAD_INDEX_DEFERRAL && !track && !companyIndexesDropped,
      progress,
    });
    progress(`underenheter: ${processed} read, ${closed} marked deleted, ${parentsBumped} parents changed`);
    return { processed, closed, parentsBumped };
  } finally {
    await ctx.repos.syncSeen.clear(run);
  }
}

/**
 * The parents of changed sub-units get a new updated_at. A first sub-unit load bumps every
 * parent (421k of 1.2M companies on the bench's store), and each new row version goes into every
 * index of companies (updated_at is indexed, so no HOT update): 83 s of the 130 s sub-unit load,
 * where dropping the search indexes, bumping and rebuilding them took 44 s (measured on that
 * store). Lookups keep the unique index meanwhile, as during a first load of enheter.
 */
async function bumpParents(ctx: AppContext, opts: { firstLoad: boolean; progress: Progress }): Promise<number> {
  return withIndexesDeferred(
    ctx,
    opts.firstLoad,
    {
      built: (dropped, rebuilt) =>
        opts.progress(
          `underenheter: first load, ${dropped} search indexes dropped for the parents' update, ${rebuilt} rebuilt`,
        ),
    },
    () => ctx.repos.companyWrites.bumpSubUnitParents('NO'),
  );
}

/** After a full dump, the update feed is followed from the dump's time. */
async function startUpdatesFrom(ctx: AppContext, since: Date, progress: Progress) {
  try {
    const [e, u] = await Promise.all([
      ctx.upstreams.brreg.firstUpdateIdSince('enheter', since),
      ctx.upstreams.brreg.firstUpdateIdSince('underenheter', since),
    ]);
    const current = await ctx.repos.syncRuns.getState<UpdatesState>(UPDATES_STATE);
    await ctx.repos.syncRuns.setState(UPDATES_STATE, {
      enheterId: e ?? current?.enheterId ?? 1,
      underenheterId: u ?? current?.underenheterId ?? 1,
    });
  } catch (err) {
    progress(`could not read the update feed position (${(err as Error).message}); brreg-updates starts when it can`);
  }
}

defineJob('brreg', {
  description: 'Full dump of Enhetsregisteret (hovedenheter; when downloading, underenheter first)',
  schedule: '0 3 1 * *', // monthly snapshot; the 15-minute feed covers the rest
  options: ['file', 'url', 'follow'],
  async run(ctx, opts, job) {
    const dumpTime = opts.file ? (await stat(opts.file)).mtime : new Date();
    const bothDumps = !opts.file && !opts.url;
    const emptyStore = await storeIsEmpty(ctx);
    const deferred = FIRST_LOAD_INDEX_DEFERRAL && emptyStore;
    // Sub-units first: a parent written after its units needs no new updated_at for them, so a
    // first load skips the parents' update (421k of 1.2M companies rewritten, 19 s on the
    // bench's store); a later load bumps the parents of changed units as the sub-unit job does.
    const firstLoadReport: DeferralReport = {
      dropped: (n) => job.progress(`first load: ${n} search indexes are built after it`),
      built: (_, n) => job.progress(`first load: ${n} indexes built`),
    };
    const { enheter, underenheter } = await withIndexesDeferred(ctx, deferred, firstLoadReport, async () => {
      const underenheter = bothDumps
        ? await loadUnderenheter(ctx, await openInput(ctx, opts, 'underenheter'), job, deferred)
        : undefined;
      const enheter = await loadEnheter(
        ctx,
        await openInput(ctx, opts, 'enheter'),
        { ...job, report: (n) => job.report((underenheter?.processed ?? 0) + n) },
        emptyStore,
      );
      return { enheter, underenheter };
    });
    if (opts.follow !== false) await startUpdatesFrom(ctx, dumpTime, job.progress);
    // Parents from the registry and from shareholders, and group flags, over the whole register.
    const groups = await ctx.repos.groups.recompute();
    job.progress(`groups: ${groups.parentsChanged} parents and ${groups.groupFlagsChanged} group flags changed`);
    return { recordsProcessed: enheter.processed + (underenheter?.processed ?? 0), details: { enheter, underenheter } };
  },
});

defineJob('brreg-subunits', {
  description: 'Full dump of underenheter (sub-units)',
  options: ['file', 'url'],
  async run(ctx, opts, job) {
    const r = await loadUnderenheter(ctx, await openInput(ctx, opts, 'underenheter'), job);
    return { recordsProcessed: r.processed, details: r };
  },
});
