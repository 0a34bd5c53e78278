// Shared by the Finnish (prh), Swedish (bolagsverket) and Danish (cvr) full syncs: writing mapped
// records in batches, and marking the companies a complete file no longer holds as deregistered.
import type { Repositories } from '../store/repositories.ts';
import type { Country } from '../domain/org-number.ts';
import type { CompanyWrite } from '../store/company-writes.ts';
import type { NordicCompanyRecord } from '../sources/nordic-record.ts';
import { nordicToCompanyCore } from '../sources/nordic-map.ts';
import { inBatches } from '../sources/json-array.ts';
import type { JobRun } from './job.ts';
import { loadSnapshot } from './snapshot-load.ts';

export const NORDIC_BATCH = 2000;
/** What the full syncs write through. */
export type NordicSyncRepos = Pick<Repositories, 'companyWrites' | 'syncSeen' | 'companyNames'>;

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
async function writeNameHistory(repos: NordicSyncRepos, country: 'FI' | 'SE', records: NordicCompanyRecord[]) {
  const kept = records.filter((r) => r.otherNames !== undefined);
  if (kept.length === 0) return;
  await repos.companyNames.replaceHistory(
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
  repos: NordicSyncRepos,
  job: JobRun,
  country: 'FI' | 'SE',
  records: AsyncIterable<NordicCompanyRecord>,
  options: { limit?: number } = {},
): Promise<FullSyncResult> {
  return syncFullWrites(repos, job, country, records, (r) => ({ core: nordicToCompanyCore(r) }), {
    ...options,
    afterBatch: (batch) => writeNameHistory(repos, country, batch),
  });
}

/** The same for any record shape: `toWrite` gives the store write of one record. */
export async function syncFullWrites<T>(
  repos: Pick<NordicSyncRepos, 'companyWrites' | 'syncSeen'>,
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
  const snapshot = await loadSnapshot({
    seen: repos.syncSeen,
    run,
    track: true,
    async load(mark) {
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
        const w = await repos.companyWrites.write([...byNumber.values()].map((x) => x.w));
        await options.afterBatch?.([...byNumber.values()].map((x) => x.r));
        await mark([...byNumber.keys()]);
        out.processed += batch.length;
        out.inserted += w.inserted;
        out.changed += w.changed;
        out.unchanged += w.unchanged;
        report(out.processed);
        if (out.processed % 100_000 < NORDIC_BATCH)
          progress(`${country}: ${out.processed} read, ${out.inserted} new, ${out.changed} changed`);
        if (cut) break;
      }
      return { value: undefined, complete: !cut };
    },
    stored: () => repos.syncSeen.liveCount(country),
    sweep: () => repos.syncSeen.markAbsentCompanies(run, country, 'deregistered'),
    truncated: (seen, live) =>
      progress(
        `${country}: the file holds ${seen} companies against ${live} live ones; it looks truncated, so absent companies are NOT marked deregistered`,
      ),
  });
  out.deregistered = snapshot.swept;
  out.absentMarked = snapshot.sweptAbsent;
  if (cut)
    progress(
      `${country}: stopped after ${out.processed} records (--limit); absent companies are NOT marked deregistered`,
    );
  progress(
    `${country}: ${out.processed} read, ${out.inserted} new, ${out.changed} changed, ${out.deregistered} marked deregistered`,
  );
  return out;
}
