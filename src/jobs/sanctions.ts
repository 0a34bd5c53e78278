// `ncd sync sanctions [--file PATH | --url URL] [--list NAME]`: loads one PEP/sanctions list
// file (default SANCTIONS_URL, the OpenSanctions `default` collection). The format is detected
// from the first bytes (gzip accepted): FtM entities NDJSON, FtM `entities.delta.json`,
// `targets.simple.csv`, EU FSF XML or the UN SC XML. Each file is one list:
// - a full file replaces the list atomically: rows are staged under this run, then the list is
//   pointed at the run in one statement (readers never see half a list; a failed import leaves
//   the previous list as it was);
// - a delta applies its ADD/MOD/DEL records to the list in one transaction.
// Every list also gets its own sync run (`sanctions:<list>`) for health's dataSources.
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { SanctionEntity } from '../domain/screening/types.ts';
import { inBatches } from '../sources/json-array.ts';
import {
  detectSanctionsFormat,
  parseEuFsfXml,
  parseFtmDelta,
  parseFtmEntities,
  parseTargetsSimpleCsv,
  parseUnConsolidatedXml,
  type FtmDeltaRecord,
  type SanctionsFormat,
} from '../sources/sanctions/index.ts';
import { openSyncInput, peek, type InputChoice } from '../sources/sync-input.ts';
import { defineJob, pick, type JobPorts, type JobRun, type OptionsOf } from './job.ts';
import { rescreenWatched } from './rescreen.ts';

/** What the job uses. */
const sanctionsDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'screening', 'syncRuns', 'companyReads', 'shareholders', 'cvrOwners', 'screeningStates'),
  config: pick(p.config, 'sanctionsUrl'),
  clock: p.clock,
});
type SanctionsDeps = ReturnType<typeof sanctionsDeps>;

export const JOB_NAME = 'sanctions';
const BATCH = 1000;
const PROGRESS_EVERY = 50_000;
/** Enough to see the format: the first line of an FtM file, or the XML root element. */
const HEAD_BYTES = 16 * 1024;
const LIST_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/i;
/** OpenSanctions run ids in archive URLs: `/datasets/20240527134702-zbn/default/…`. */
const OPENSANCTIONS_VERSION = /(?:^|\/)(\d{14}-[a-z0-9]{3})(?:\/|$)/;

export interface SanctionsInput {
  stream: Readable;
  /** The file name or URL path, for format detection, list names and error messages. */
  location: string;
  format: SanctionsFormat;
  /** The first bytes, as text. */
  head: string;
}

type SanctionsOptions = OptionsOf<'file' | 'url' | 'list'>;

/** The file or download, unzipped, with its format told from its first bytes. */
export async function openSanctionsInput(opts: InputChoice, fallbackUrl: string): Promise<SanctionsInput> {
  const { stream, location } = await openSyncInput(opts, { fallback: fallbackUrl });
  try {
    const text = (await peek(stream, HEAD_BYTES)).toString('utf8');
    const fileName = path.posix.basename(location.replace(/\\/g, '/')).replace(/\.gz$/i, '');
    return { stream, location, format: detectSanctionsFormat(text, fileName), head: text };
  } catch (err) {
    stream.destroy();
    throw err;
  }
}

const FILE_PARTS = /(^|[._-])(entities|ftm|delta|targets|simple|json|ndjson|csv|xml|gz)(?=$|[._-])/gi;

/**
 * `--list`, else: eu-fsf / un-sc for the official XML files; the file's own name when it says
 * more than the standard OpenSanctions names (`peps-2024.json` → `peps-2024`); else the
 * OpenSanctions dataset folder (`…/default/entities.ftm.json` → `opensanctions-default`), so a
 * full file and its deltas land on the same list.
 */
export function listNameFor(
  opts: Pick<SanctionsOptions, 'list'>,
  input: Pick<SanctionsInput, 'location' | 'format'>,
): string {
  if (opts.list !== undefined) {
    if (!LIST_NAME.test(opts.list))
      throw new Error(`--list must be 1–63 letters, digits, '.', '_' or '-' (got "${opts.list}")`);
    return opts.list.toLowerCase();
  }
  if (input.format === 'eu-fsf-xml') return 'eu-fsf';
  if (input.format === 'un-xml') return 'un-sc';
  const parts = input.location.replace(/\\/g, '/').split('/').filter(Boolean);
  const base = (parts.pop() ?? '')
    .replace(FILE_PARTS, '')
    .replace(/^[._-]+|[._-]+$/g, '')
    .toLowerCase();
  if (base && LIST_NAME.test(base)) return base;
  const dataset = (parts.pop() ?? '').toLowerCase();
  return LIST_NAME.test(dataset) && !OPENSANCTIONS_VERSION.test(dataset)
    ? `opensanctions-${dataset}`
    : 'opensanctions-default';
}

/** The upstream version from the URL (OpenSanctions run id) or the XML root's generation date. */
export function versionOf(input: Pick<SanctionsInput, 'location' | 'head'>): string | null {
  const run = OPENSANCTIONS_VERSION.exec(input.location);
  if (run) return run[1];
  const generated = /<(?:\w+:)?(?:export|CONSOLIDATED_LIST)\b[^>]*?\b(?:generationDate|dateGenerated)="([^"]+)"/.exec(
    input.head,
  );
  return generated ? generated[1] : null;
}

/** The dataset's topics for a targets.simple.csv (the CSV has no topics column). */
function csvTopics(location: string): string[] | undefined {
  const dataset = location.replace(/\\/g, '/').split('/').slice(-2, -1)[0] ?? '';
  if (dataset === 'peps') return ['role.pep'];
  if (dataset === 'sanctions') return ['sanction'];
  return undefined;
}

function entitiesOf(input: SanctionsInput): AsyncGenerator<SanctionEntity> {
  const fileName = path.basename(input.location);
  switch (input.format) {
    case 'ftm':
      return parseFtmEntities(input.stream, fileName);
    case 'targets-csv':
      return parseTargetsSimpleCsv(input.stream, { fileName, topics: csvTopics(input.location) });
    case 'eu-fsf-xml':
      return parseEuFsfXml(input.stream);
    case 'un-xml':
      return parseUnConsolidatedXml(input.stream);
    case 'ftm-delta':
      throw new Error('a delta is not a full list');
  }
}

const latest = (a: string | null, b: string | undefined) => (b && (!a || b > a) ? b : a);

/** Streams a full list into rows staged under the job's run; one batch is written while the next is parsed. */
async function stageFull(deps: SanctionsDeps, input: SanctionsInput, job: JobRun, list: string) {
  const repo = deps.repos.screening;
  let read = 0;
  let stored = 0;
  let lastChange: string | null = null;
  let writing: Promise<number> | undefined;
  try {
    for await (const batch of inBatches(entitiesOf(input), BATCH)) {
      if (writing) stored += await writing;
      writing = repo.stage(job.id, batch);
      writing.catch(() => undefined); // handled when awaited
      for (const e of batch) lastChange = latest(lastChange, e.lastChange);
      const before = read;
      read += batch.length;
      job.report(read);
      if (Math.floor(read / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY))
        job.progress(`sanctions ${list}: ${read} entities read`);
    }
    if (writing) stored += await writing;
  } catch (err) {
    await writing?.catch(() => undefined); // the caller's discard must come after the last write
    throw err;
  }
  return { read, stored, lastChange };
}

async function stageDelta(deps: SanctionsDeps, input: SanctionsInput, job: JobRun, list: string) {
  const repo = deps.repos.screening;
  const ops = { ADD: 0, MOD: 0, DEL: 0 };
  let read = 0;
  let lastChange: string | null = null;
  for await (const batch of inBatches<FtmDeltaRecord>(
    parseFtmDelta(input.stream, path.basename(input.location)),
    BATCH,
  )) {
    await repo.stageDelta(
      job.id,
      batch.map((r) => ({ id: r.id, entity: r.entity })),
    );
    for (const r of batch) {
      ops[r.op]++;
      lastChange = latest(lastChange, r.entity?.lastChange);
    }
    read += batch.length;
    job.report(read);
    if (read % PROGRESS_EVERY < batch.length) job.progress(`sanctions ${list} delta: ${read} records read`);
  }
  return { read, ops, lastChange };
}

export async function runSanctionsSync(deps: SanctionsDeps, opts: SanctionsOptions, job: JobRun) {
  const repo = deps.repos.screening;
  const input = await openSanctionsInput(opts, deps.config.sanctionsUrl);
  let list: string;
  try {
    list = listNameFor(opts, input);
    if (input.format === 'ftm-delta' && !(await repo.lists()).some((l) => l.name === list)) {
      throw new Error(
        `the delta is for list "${list}", which has not been loaded: load the full list first (or name it with --list)`,
      );
    }
  } catch (err) {
    input.stream.destroy();
    throw err;
  }
  const source = `${JOB_NAME}:${list}`;
  await deps.repos.syncRuns.markInterrupted(source);
  const listRun = await deps.repos.syncRuns.start(source);
  let count = 0;
  try {
    const leftovers = await repo.discardLeftovers(job.id, JOB_NAME);
    if (leftovers) job.progress(`removed ${leftovers} rows left by an interrupted import`);
    const urlVersion = versionOf(input);
    if (input.format === 'ftm-delta') {
      const staged = await stageDelta(deps, input, job, list);
      count = staged.read;
      const applied = await repo.applyDelta(list, job.id, urlVersion ?? staged.lastChange);
      await repo.cleanIndexes();
      job.progress(
        `sanctions ${list}: delta of ${staged.read} records (${staged.ops.ADD} ADD, ${staged.ops.MOD} MOD, ${staged.ops.DEL} DEL) applied; ${applied.entityCount} entities`,
      );
      await deps.repos.syncRuns.finish(listRun, 'ok', count, null);
      return {
        recordsProcessed: count,
        details: { list, format: input.format, delta: staged.ops, entityCount: applied.entityCount },
      };
    }
    const staged = await stageFull(deps, input, job, list);
    count = staged.read;
    // An empty list is more likely a wrong or broken file than the truth: keep the old one.
    if (staged.stored === 0)
      throw new Error(
        `${path.basename(input.location)} holds no screened entity (Person, Organization, Company or LegalEntity target); list "${list}" is kept as it was`,
      );
    const version = urlVersion ?? staged.lastChange;
    // Merge the index's pending entries before the list becomes visible: lookups stay fast.
    await repo.cleanIndexes();
    const { previousRunId } = await repo.publish(list, job.id, {
      format: input.format,
      version,
      entityCount: staged.stored,
    });
    // The replaced list's space is reclaimed by the VACUUM every sync run ends with (jobs/runner.ts).
    if (previousRunId !== null) await repo.discardRun(previousRunId);
    job.progress(
      `sanctions ${list}: ${staged.stored} entities (${input.format}${version ? `, version ${version}` : ''})${previousRunId !== null ? ', replacing the previous import' : ''}`,
    );
    await deps.repos.syncRuns.finish(listRun, 'ok', staged.stored, null);
    return {
      recordsProcessed: count,
      details: {
        list,
        format: input.format,
        version,
        entities: staged.stored,
        replacedEarlierImport: previousRunId !== null,
      },
    };
  } catch (err) {
    input.stream.destroy();
    await repo.discardRun(job.id).catch(() => undefined);
    await deps.repos.syncRuns
      .finish(listRun, 'error', count, (err as Error).message.slice(0, 500))
      .catch(() => undefined);
    throw err;
  }
}

export const sanctionsJob = defineJob({
  name: JOB_NAME,
  deps: sanctionsDeps,
  description:
    'PEP/sanctions list (SANCTIONS_URL, --url or --file; FtM entities or delta, targets.simple.csv, EU FSF XML, UN XML; gzip ok; --list NAME): replaces the list atomically, a delta patches it',
  schedule: '30 4 * * *', // daily 04:30 UTC (OpenSanctions publishes daily)
  options: ['file', 'url', 'list'],
  async run(deps, opts, job) {
    const result = await runSanctionsSync(deps, opts, job);
    // The list changed, so watched companies are screened again. After the
    // list is published: a failure here fails the run but leaves the new list in place.
    const rescreened = await rescreenWatched(deps, job);
    return { ...result, details: { ...result.details, rescreened } };
  },
});
