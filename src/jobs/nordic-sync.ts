// Shared by the Finnish (prh), Swedish (bolagsverket) and Danish (cvr) full syncs: writing mapped
// records in batches, and marking the companies a complete file no longer holds as deregistered.
import type { AppContext } from '../runtime/context.ts';
import type { Country } from '../domain/org-number.ts';
import type { CompanyWrite } from '../store/company-writes.ts';
import type { NordicCompanyRecord } from '../sources/nordic-record.ts';
import { nordicToCompanyCore } from '../sources/nordic-map.ts';
import { inBatches } from '../sources/json-array.ts';
import type { JobRun } from './registry.ts';

export const NORDIC_BATCH = 2000;
/** A file holding fewer than this share of the live store is suspect: absent companies are kept. */
const MIN_FILE_SHARE = 0.5;
export interface FullSyncResult {
  processed: number;
  inserted: number;
  changed: number;
  unchanged: number;
  /** Companies live in the store but absent from the file, now marked deregistered. */
  deregistered: number;
  /** False when the file looked truncated (or --limit stopped early): nothing was marked. */
  absentMarked: boolean;
}

/** The other names of the records whose source keeps them (PRH), for name matching. */
async function writeNameHistory(ctx: AppContext, country: 'FI' | 'SE', records: NordicCompanyRecord[]) {
  const kept = records.filter((r) => r.otherNames !== undefined);
  if (kept.length === 0) return;
  await ctx.repos.companyNames.replaceHistory(
    country,
    country === 'FI' ? 'prh' : 'bolagsverket',
    kept.map((r) => ({ orgNumber: r.orgNumber, names: r.otherNames ?? [] })),
  );
}

/**
 * Writes every record of a complete upstream file, then marks the country's companies that the
 * file did not hold as deregistered — unless the file holds fewer than half of the live
 * companies (a truncated download must not deregister half a country) or `limit` cut it short.
 */
export function syncFullFile(
  ctx: AppContext,
  job: JobRun,
  country: 'FI' | 'SE',
  records: AsyncIterable<NordicCompanyRecord>,
  options: { limit?: number } = {},
): Promise<FullSyncResult> {
  return syncFullWrites(ctx, job, country, records, (r) => ({ core: nordicToCompanyCore(r) }), {
    ...options,
    afterBatch: (batch) => writeNameHistory(ctx, country, batch),
  });
}

/** The same for any record shape: `toWrite` gives the store write of one record. */
export async function syncFullWrites<T>(
  ctx: AppContext,
  job: JobRun,
  country: Country,
  records: AsyncIterable<T>,
  toWrite: (r: T) => CompanyWrite,
  options: { limit?: number; afterBatch?: (batch: T[]) => Promise<void> } = {},
): Promise<FullSyncResult> {
  const { id: run, progress, report } = job;
  const out: FullSyncResult = {
    processed: 0,
    inserted: 0,
    changed: 0,
    unchanged: 0,
    deregistered: 0,
    absentMarked: false,
  };
  let cut = false;
  await ctx.repos.syncSeen.clearLeftovers(run);
  try {
    for await (let batch of inBatches(records, NORDIC_BATCH)) {
      if (options.limit !== undefined && out.processed + batch.length >= options.limit) {
        batch = batch.slice(0, options.limit - out.processed);
        cut = true;
      }
      // One org number twice in one INSERT … ON CONFLICT is an error; the later row wins.
      const byNumber = new Map<string, { r: T; w: CompanyWrite }>();
      for (const r of batch) {
        const w = toWrite(r);
        byNumber.set(w.core.orgNumber, { r, w });
      }
      const w = await ctx.repos.companyWrites.write([...byNumber.values()].map((x) => x.w));
      await options.afterBatch?.([...byNumber.values()].map((x) => x.r));
      await ctx.repos.syncSeen.mark(run, [...byNumber.keys()]);
      out.processed += batch.length;
      out.inserted += w.inserted;
      out.changed += w.changed;
      out.unchanged += w.unchanged;
      report(out.processed);
      if (out.processed % 100_000 < NORDIC_BATCH)
        progress(`${country}: ${out.processed} read, ${out.inserted} new, ${out.changed} changed`);
      if (cut) break;
    }
    if (cut) {
      progress(
        `${country}: stopped after ${out.processed} records (--limit); absent companies are NOT marked deregistered`,
      );
    } else {
      const live = await ctx.repos.syncSeen.liveCount(country);
      const seen = await ctx.repos.syncSeen.count(run);
      if (live === 0 || seen >= live * MIN_FILE_SHARE) {
        out.deregistered = await ctx.repos.syncSeen.markAbsentCompanies(run, country, 'deregistered');
        out.absentMarked = true;
      } else {
        progress(
          `${country}: the file holds ${seen} companies against ${live} live ones; it looks truncated, so absent companies are NOT marked deregistered`,
        );
      }
    }
    progress(
      `${country}: ${out.processed} read, ${out.inserted} new, ${out.changed} changed, ${out.deregistered} marked deregistered`,
    );
    return out;
  } finally {
    await ctx.repos.syncSeen.clear(run);
  }
}
