// Swedish registry sync: Bolagsverket's bulk file (bolagsverket_bulkfil.zip → one `;`-separated
// UTF-8 text file, ~3 M lines). It is the whole register, so companies absent from it are marked
// deregistered. Sole traders (personnummer) are skipped by the parser and never stored.
import {
  newBolagsverketStats,
  parseBolagsverketText,
  parseBolagsverketZip,
  type BolagsverketStats,
} from '../sources/bolagsverket/index.ts';
import type { NordicCompanyRecord } from '../sources/nordic-record.ts';
import { openSyncInput, zipSource, type InputChoice } from '../sources/sync-input.ts';
import { syncFullFile } from './nordic-sync.ts';
import { defineJob, pick, type JobPorts } from './job.ts';

/** What the job uses. */
const bolagsverketDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyWrites', 'syncSeen', 'companyNames'),
  config: pick(p.config, 'bolagsverketBulkUrl'),
});
type BolagsverketDeps = ReturnType<typeof bolagsverketDeps>;

/** `--file` (the ZIP, or the text file plain or gzipped), `--url`, or BOLAGSVERKET_BULK_URL. */
async function openBulkFile(
  deps: BolagsverketDeps,
  opts: InputChoice,
  stats: BolagsverketStats,
): Promise<AsyncIterable<NordicCompanyRecord>> {
  const input = await openSyncInput(opts, {
    fallback: deps.config.bolagsverketBulkUrl,
    accept: 'application/zip, text/plain;q=0.9, */*;q=0.5',
  });
  if (input.kind === 'zip') return parseBolagsverketZip(zipSource(input), { stats });
  return parseBolagsverketText(input.stream, { stats });
}

export const bolagsverketJob = defineJob({
  name: 'bolagsverket',
  deps: bolagsverketDeps,
  description: 'Swedish companies: the Bolagsverket bulk file (absent companies are marked deregistered)',
  schedule: '0 5 * * *', // daily 05:00 UTC
  options: ['file', 'url', 'limit'],
  async run(deps, opts, job) {
    const stats = newBolagsverketStats();
    const result = await syncFullFile(deps.repos, job, 'SE', await openBulkFile(deps, opts, stats), {
      limit: opts.limit,
    });
    const { rejects, ...counts } = stats;
    if (rejects.rejected)
      job.progress(`SE: ${rejects.rejected} rows could not be read; first: ${rejects.samples.join(' | ')}`);
    job.progress(
      `SE: ${counts.lines} lines, ${counts.skippedPersons} sole traders skipped (not stored), ${counts.duplicates} duplicate rows`,
    );
    return {
      recordsProcessed: result.processed,
      details: { ...result, ...counts, rejected: rejects.rejected, rejectSamples: rejects.samples },
    };
  },
});
