// Aksjonærregisteret import: `ncd sync shareholders --file aksjeeierbok_2024.csv [--year 2024]`.
// The register is ordered from Skatteetaten, not downloaded, so a file (or --url) is the input.
// The file streams in batches into rows tagged with this run (invisible to readers), then one
// transaction makes the run the year's data and recomputes group parents. A malformed line
// stops the import and discards the run: the year keeps its previous data. Also `groups`, which
// recomputes derived parents and group flags alone (after a registry load).
import path from 'node:path';
import { parseShareholderCsv, ShareholderParseError } from '../sources/aksjonaer/parse.ts';
import { inBatches } from '../sources/json-array.ts';
import { openSyncInput } from '../sources/sync-input.ts';
import { defineJob, pick, type JobPorts, type OptionsOf } from './job.ts';

/** What the job uses. */
const shareholdersDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'groups', 'shareholders'),
});
type ShareholdersDeps = ReturnType<typeof shareholdersDeps>;

const BATCH = 5000;
const PROGRESS_EVERY = 100_000;

type ShareholdersOptions = OptionsOf<'file' | 'url' | 'year'>;

/** `--year`, else the year in a file name like `aksjeeierbok_2024.csv`. */
export function importYear(opts: ShareholdersOptions): number {
  if (opts.year !== undefined) return opts.year;
  const source = opts.file ?? opts.url;
  const name = source ? path.basename(source.split(/[?#]/)[0]) : '';
  const m = /aksjeeierbok[ _-]?((?:19|20)\d{2})(?!\d)/i.exec(name);
  if (m) return Number(m[1]);
  throw new Error(`Cannot tell the register year from "${name || 'the input'}": pass --year YYYY`);
}

const NOT_DOWNLOADED =
  'Aksjonærregisteret is ordered from Skatteetaten, not downloaded: give --file PATH (or --url URL)';

/**
 * Error text goes to sync_runs, the CLI and logs. The parser quotes the bad value; a value in
 * the holder column may be a national id or a birth date, so long digit runs and dates go.
 */
export function redactPersonalNumbers(message: string): string {
  return message
    .replace(/\d{10,}/g, '[number removed]')
    .replace(/\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b/g, '[date removed]')
    .replace(/"(\d{6})"/g, '"[number removed]"');
}

export const shareholdersJob = defineJob({
  name: 'shareholders',
  deps: shareholdersDeps,
  description:
    'Aksjonærregisteret (Skatteetaten aksjeeierbok CSV, --file or --url, --year): replaces that year atomically',
  options: ['file', 'url', 'year'],
  async run(deps: ShareholdersDeps, opts: ShareholdersOptions, job) {
    const year = importYear(opts);
    const repo = deps.repos.shareholders;
    const { stream: input } = await openSyncInput(opts, { missing: NOT_DOWNLOADED });
    const leftovers = await repo.discardLeftovers(job.id);
    if (leftovers) job.progress(`removed ${leftovers} rows left by an interrupted import`);
    const counts = { company: 0, person: 0, foreign: 0 };
    let rows = 0;
    let published;
    // One batch is written while the next is parsed (at most two batches in memory).
    let writing: Promise<void> | undefined;
    try {
      for await (const batch of inBatches(parseShareholderCsv(input), BATCH)) {
        await writing;
        writing = repo.stage(job.id, year, batch);
        writing.catch(() => undefined); // handled when awaited; no unhandled rejection meanwhile
        for (const r of batch) counts[r.holderType]++;
        const before = rows;
        rows += batch.length;
        job.report(rows);
        if (Math.floor(rows / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY))
          job.progress(`shareholders ${year}: ${rows} rows read`);
      }
      await writing;
      // A file without rows would wipe the year: more likely a truncated download than the truth.
      if (rows === 0) throw new Error('The file has a header but no shareholder rows; nothing imported');
      published = await repo.publish(job.id, year, rows);
    } catch (err) {
      input.destroy();
      await writing?.catch(() => undefined); // the discard must come after the last write
      await repo.discardRun(job.id).catch(() => undefined);
      const message = redactPersonalNumbers((err as Error).message);
      throw err instanceof ShareholderParseError
        ? new ShareholderParseError(err.line, message.replace(/^Aksjonærregisteret CSV line \d+: /, ''))
        : new Error(message);
    }
    const { previousRunId, parentsChanged, groupFlagsChanged } = published;
    if (previousRunId !== null) await repo.discardRun(previousRunId);
    job.progress(
      `shareholders ${year}: ${rows} rows (${counts.company} company, ${counts.person} person, ${counts.foreign} foreign holders); ` +
        `${parentsChanged} derived parents and ${groupFlagsChanged} group flags changed`,
    );
    return {
      recordsProcessed: rows,
      details: {
        year,
        rows,
        holders: counts,
        replacedEarlierImport: previousRunId !== null,
        parentsChanged,
        groupFlagsChanged,
      },
    };
  },
});

export const groupsJob = defineJob({
  name: 'groups',
  deps: shareholdersDeps,
  description: 'Recompute derived group parents (registry parent, else majority shareholder) and isInGroup',
  options: [],
  async run(deps) {
    const r = await deps.repos.groups.recompute();
    return { recordsProcessed: r.parentsChanged + r.groupFlagsChanged, details: { ...r } };
  },
});
