// Finnish registry syncs (PRH / YTJ open data v3):
//   prh          the all_companies file (ZIP of one JSON array) — the whole register; companies
//                absent from it are marked deregistered
//   prh-updates  walks `/companies?registrationDateStart=…&page=N` from the stored position, for
//                companies registered since the last file. The API has no "changed since"
//                filter, so changes to older companies arrive with the next full file.
import { stat } from 'node:fs/promises';
import type { NordicCompanyRecord, RejectLog } from '../sources/nordic-record.ts';
import {
  fetchPrhPage,
  newPrhRejectLog,
  parsePrhAllCompaniesZip,
  parsePrhCompany,
  parsePrhJsonArray,
} from '../sources/prh/index.ts';
import { nordicToCompanyCore } from '../sources/nordic-map.ts';
import { openSyncInput, SYNC_USER_AGENT, zipSource, type InputChoice } from '../sources/sync-input.ts';
import { syncFullFile } from './nordic-sync.ts';
import { defineJob, pick, type JobPorts, type JobRun } from './job.ts';

/** What the job uses. */
const prhDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyWrites', 'syncRuns', 'syncSeen', 'companyNames'),
  config: pick(p.config, 'prhBaseUrl'),
  clock: p.clock,
});
type PrhDeps = ReturnType<typeof prhDeps>;

export const PRH_UPDATES_STATE = 'prh-updates';

export interface PrhUpdatesState extends Record<string, unknown> {
  /** YYYY-MM-DD: companies registered on or after this day are walked. */
  registrationDateStart: string;
  /** Next page of that walk (a run stopped by --limit resumes here). */
  page: number;
  /** Companies of that walk seen so far (compared with `totalResults`). */
  seen: number;
}

/** A company can reach the register a few days after its registration date: walk back this far. */
const OVERLAP_DAYS = 7;
const DEFAULT_UPDATES_LIMIT = 20_000;
/** PRH reports ~300 requests/min for all users together; stay well below. */
const MIN_REQUEST_INTERVAL_MS = 250;
const MAX_RETRIES_ON_429 = 3;
const MAX_RETRY_AFTER_S = 120;

const day = (d: Date, minusDays = 0) => new Date(d.getTime() - minusDays * 86_400_000).toISOString().slice(0, 10);

/** `--file` (the ZIP, or the JSON array plain or gzipped), `--url`, or `${PRH_BASE_URL}/all_companies`. */
async function openAllCompanies(
  deps: PrhDeps,
  opts: InputChoice,
  rejects: RejectLog,
): Promise<AsyncIterable<NordicCompanyRecord>> {
  const input = await openSyncInput(opts, {
    fallback: `${deps.config.prhBaseUrl}/all_companies`,
    accept: 'application/zip',
  });
  if (input.kind === 'zip') return parsePrhAllCompaniesZip(zipSource(input), { rejects });
  return parsePrhJsonArray(input.stream, { rejects });
}

export const prhJob = defineJob({
  name: 'prh',
  deps: prhDeps,
  description: 'Finnish companies: the PRH/YTJ all_companies file (absent companies are marked deregistered)',
  schedule: '0 3 * * 1', // weekly, Monday 03:00 UTC
  options: ['file', 'url', 'limit'],
  async run(deps, opts, job) {
    // A local file may be older than today: the page walk must start from the file's date.
    const fileTime = opts.file ? (await stat(opts.file)).mtime : deps.clock.now();
    const rejects = newPrhRejectLog();
    const result = await syncFullFile(deps.repos, job, 'FI', await openAllCompanies(deps, opts, rejects), {
      limit: opts.limit,
    });
    if (rejects.rejected)
      job.progress(`FI: ${rejects.rejected} companies could not be read; first: ${rejects.samples.join(' | ')}`);
    // The page walk continues from the file: companies registered since shortly before it.
    if (result.absentMarked) {
      await deps.repos.syncRuns.setState(PRH_UPDATES_STATE, {
        registrationDateStart: day(fileTime, OVERLAP_DAYS),
        page: 1,
        seen: 0,
      } satisfies PrhUpdatesState);
    }
    return {
      recordsProcessed: result.processed,
      details: { ...result, rejected: rejects.rejected, rejectSamples: rejects.samples },
    };
  },
});

function fetchPage(deps: PrhDeps, registrationDateStart: string, page: number, progress: JobRun['progress']) {
  // The same user agent as the file downloads (sources/sync-input.ts).
  return fetchPrhPage(
    deps.config.prhBaseUrl,
    { registrationDateStart, page },
    (url, init) => fetch(url, { ...init, headers: { ...init?.headers, 'user-agent': SYNC_USER_AGENT } }),
    {
      rateLimit: {
        retries: MAX_RETRIES_ON_429,
        maxWaitMs: MAX_RETRY_AFTER_S * 1000,
        onWait: (ms) => progress(`FI: PRH rate limit; waiting ${Math.ceil(ms / 1000)} s`),
      },
    },
  );
}

export const prhUpdatesJob = defineJob({
  name: 'prh-updates',
  deps: prhDeps,
  description: 'Finnish companies registered since the last run (PRH /companies pages; --limit caps one run)',
  schedule: '0 4 * * *', // daily 04:00 UTC
  options: ['limit'],
  async run(deps, opts, job) {
    const limit = opts.limit ?? DEFAULT_UPDATES_LIMIT;
    const now = deps.clock.now();
    const stored = await deps.repos.syncRuns.getState<PrhUpdatesState>(PRH_UPDATES_STATE);
    const state: PrhUpdatesState = stored
      ? {
          registrationDateStart: stored.registrationDateStart,
          page: Number(stored.page) || 1,
          seen: Number(stored.seen) || 0,
        }
      : { registrationDateStart: day(now, OVERLAP_DAYS), page: 1, seen: 0 };
    const rejects = newPrhRejectLog();
    let processed = 0;
    let inserted = 0;
    let changed = 0;
    let complete = false;
    let lastRequest = 0;
    while (processed < limit) {
      const wait = lastRequest + MIN_REQUEST_INTERVAL_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      lastRequest = Date.now();
      const { totalResults, companies } = await fetchPage(deps, state.registrationDateStart, state.page, job.progress);
      const records = new Map<string, NordicCompanyRecord>();
      for (const [i, raw] of companies.entries()) {
        try {
          const r = parsePrhCompany(raw);
          records.set(r.orgNumber, r);
        } catch (err) {
          rejects.add(`page ${state.page} item ${i}`, (err as Error).message);
        }
      }
      const w = await deps.repos.companyWrites.write(
        [...records.values()].map((r) => ({ core: nordicToCompanyCore(r) })),
      );
      processed += companies.length;
      inserted += w.inserted;
      changed += w.changed;
      job.report(processed);
      state.page++;
      state.seen += companies.length;
      // Pages are numbered from 1 [unverified]; the walk ends at an empty page or once all
      // `totalResults` companies of the window were seen.
      if (companies.length === 0 || state.seen >= totalResults) {
        complete = true;
        break;
      }
      // Saved after every applied page: a killed or limited run resumes at the next page.
      await deps.repos.syncRuns.setState(PRH_UPDATES_STATE, state);
    }
    // The next walk starts shortly before today; hash-compared writes make the overlap free.
    if (complete)
      await deps.repos.syncRuns.setState(PRH_UPDATES_STATE, {
        registrationDateStart: day(now, OVERLAP_DAYS),
        page: 1,
        seen: 0,
      } satisfies PrhUpdatesState);
    job.progress(
      `FI updates since ${state.registrationDateStart}: ${processed} read, ${inserted} new, ${changed} changed` +
        (complete ? '' : ` (stopped at --limit ${limit}; the next run continues at page ${state.page})`),
    );
    return {
      recordsProcessed: processed,
      details: {
        registrationDateStart: state.registrationDateStart,
        inserted,
        changed,
        complete,
        rejected: rejects.rejected,
        rejectSamples: rejects.samples,
      },
    };
  },
});
