// `ncd sync procurement [--since DATE] [--file PATH]`: public procurement notices (eForms) from
// Doffin and TED, hourly. Each source is asked for the notices published since its last run's
// newest notice (or --since, or 30 days back the first time), each notice is downloaded and
// parsed on its own: a malformed one is logged by id and skipped, and never stops the run.
// Doffin filters by issue date, and publishes a notice up to a week after it was issued, so its
// runs reach 10 days behind the newest notice; a notice already stored under its Doffin id or TED
// number is not downloaded again by these routine runs (a published notice never changes: a
// correction is a new notice), while an explicit --since reads everything again.
// --file loads one XML notice or every .xml of a directory (a Doffin id is taken from a file
// name like 2026-107304.xml). A notice in both sources is one row (its eForms notice id); the
// procedure link then gives a tender its outcome (AWARDED, CANCELLED) from a result or a
// cancellation of the same procedure. Each source's run is recorded as its own data source
// (`doffin`, `ted`) beside the job's run.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { normaliseCompanyName } from '../domain/company.ts';
import {
  createDoffinSource,
  createTedSource,
  type NoticeRef,
  type NoticeSource,
} from '../sources/procurement/clients.ts';
import { NoticeSkipped, parseNotice, type ProcurementNotice } from '../sources/procurement/eforms.ts';
import type { ProcurementWrite } from '../store/procurement.ts';
import { defineJob, pick, type JobPorts, type JobRun } from './job.ts';

/** What the job uses. */
const procurementDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'procurement', 'syncRuns'),
  config: pick(p.config, 'procurement'),
  clock: p.clock,
  log: p.log,
});
type ProcurementDeps = ReturnType<typeof procurementDeps>;

const BATCH = 200;
const FIRST_RUN_DAYS = 30;
/** How far behind its newest issue date a Doffin run starts (the issue-to-publication lag). */
const DOFFIN_OVERLAP_DAYS = 10;
const DOFFIN_FILE = /^([0-9]{4}-[0-9]{1,9})\.xml$/i;

/** Every prefix of 2 to 8 digits of each CPV code (cpv=<prefix> is then an array lookup). */
export const cpvPrefixes = (codes: string[]) => [
  ...new Set(codes.flatMap((c) => Array.from({ length: c.length - 1 }, (_, i) => c.slice(0, i + 2)))),
];

export function procurementWrite(n: ProcurementNotice, doffinId: string | null): ProcurementWrite {
  return {
    eformsId: n.eformsId,
    doffinId,
    tedId: n.tedId,
    procedureId: n.procedureId,
    noticeType: n.kind,
    noticeTypeCode: n.noticeTypeCode,
    title: n.title,
    titleNorm: normaliseCompanyName(n.title),
    description: n.description,
    orgNumber: n.buyer.orgNumber,
    buyerName: n.buyer.name,
    buyerCompanyId: n.buyer.companyId,
    country: n.buyer.country,
    cpvCodes: n.cpvCodes,
    cpvPrefixes: cpvPrefixes(n.cpvCodes),
    procedureType: n.procedureType,
    publishedDate: n.publishedAt,
    deadline: n.deadline,
    estimatedValue: n.estimatedValue,
    currency: n.currency,
    awardedValue: n.awardedValue,
    lots: n.lots,
    nutsCodes: n.nutsCodes,
    winners: n.winners,
    winnerOrgNumbers: [...new Set(n.winners.map((w) => w.orgNumber).filter((o): o is string => o !== null))],
    language: n.language,
  };
}

interface Tally {
  read: number;
  skipped: number;
  inserted: number;
  changed: number;
  linked: number;
  newest: string | null;
}

/** Buffers writes and stores them in batches; one eForms id twice in a batch is merged. */
function createWriter(deps: ProcurementDeps, tally: Tally) {
  const repo = deps.repos.procurement;
  let pending = new Map<string, ProcurementWrite>();
  async function flush() {
    if (!pending.size) return;
    const writes = [...pending.values()];
    pending = new Map();
    const r = await repo.upsert(writes);
    tally.inserted += r.inserted;
    tally.changed += r.changed;
    const procedures = [...new Set(writes.map((w) => w.procedureId).filter((p): p is string => p !== null))];
    tally.linked += await repo.linkProcedures(procedures);
    await repo.linkSelf(writes.filter((w) => w.procedureId === null).map((w) => w.eformsId));
  }
  return {
    async add(w: ProcurementWrite) {
      const before = pending.get(w.eformsId);
      pending.set(w.eformsId, {
        ...w,
        doffinId: w.doffinId ?? before?.doffinId ?? null,
        tedId: w.tedId ?? before?.tedId ?? null,
      });
      if (pending.size >= BATCH) await flush();
    },
    flush,
  };
}

/** Parses one notice; a notice that cannot be read is logged by its id and counted as skipped. */
async function readOne(
  deps: ProcurementDeps,
  source: string,
  id: string,
  open: () => Promise<Readable>,
  tally: Tally,
): Promise<ProcurementNotice | undefined> {
  tally.read++;
  try {
    const notice = await parseNotice(await open());
    if (notice.publishedAt && (!tally.newest || notice.publishedAt > tally.newest)) tally.newest = notice.publishedAt;
    return notice;
  } catch (err) {
    tally.skipped++;
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 200);
    if (err instanceof NoticeSkipped) deps.log.info({ source, noticeId: id, reason }, 'procurement notice not kept');
    else deps.log.warn({ source, noticeId: id, reason }, 'procurement notice skipped: unreadable or malformed');
    return undefined;
  }
}

async function noticeFiles(file: string): Promise<string[]> {
  if (!(await stat(file)).isDirectory()) return [file];
  const names = (await readdir(file)).filter((n) => n.toLowerCase().endsWith('.xml')).sort();
  return names.map((n) => path.join(file, n));
}

const newTally = (): Tally => ({ read: 0, skipped: 0, inserted: 0, changed: 0, linked: 0, newest: null });

async function loadFiles(deps: ProcurementDeps, file: string, job: JobRun, tally: Tally) {
  const writer = createWriter(deps, tally);
  for (const f of await noticeFiles(file)) {
    const name = path.basename(f);
    const notice = await readOne(deps, 'file', name, async () => createReadStream(f), tally);
    if (notice) await writer.add(procurementWrite(notice, DOFFIN_FILE.exec(name)?.[1] ?? null));
    job.report(tally.read);
  }
  await writer.flush();
}

const STATE = (source: string) => `procurement:${source}`;

const dayBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day.slice(0, 10)}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** One source since its last newest notice: recorded as a run of its own data source. */
async function loadSource(
  deps: ProcurementDeps,
  src: NoticeSource,
  since: string | undefined,
  job: JobRun,
  total: Tally,
) {
  const state = await deps.repos.syncRuns.getState<{ since?: string }>(STATE(src.name));
  const resumed = state?.since && (src.name === 'doffin' ? dayBefore(state.since, DOFFIN_OVERLAP_DAYS) : state.since);
  const from = since ?? resumed ?? dayBefore(deps.clock.now().toISOString(), FIRST_RUN_DAYS);
  const runId = await deps.repos.syncRuns.start(src.name, 'upstream');
  const tally = newTally();
  try {
    const writer = createWriter(deps, tally);
    for await (const ref of src.list(from) as AsyncGenerator<NoticeRef>) {
      if (!since && (await deps.repos.procurement.known(src.name, ref.id))) continue;
      const notice = await readOne(deps, src.name, ref.id, ref.open, tally);
      if (notice) await writer.add(procurementWrite(notice, src.name === 'doffin' ? ref.id : null));
      job.report(total.read + tally.read);
    }
    await writer.flush();
    // The next run starts at the newest notice's day (re-reading that day changes nothing).
    const newest = [tally.newest, state?.since]
      .filter((d): d is string => !!d)
      .sort()
      .pop();
    if (newest) await deps.repos.syncRuns.setState(STATE(src.name), { since: newest.slice(0, 10) });
    await deps.repos.syncRuns.finish(runId, 'ok', tally.read, null);
  } catch (err) {
    await deps.repos.syncRuns.finish(runId, 'error', tally.read, (err as Error).message.slice(0, 200));
    throw err;
  } finally {
    for (const k of ['read', 'skipped', 'inserted', 'changed', 'linked'] as const) total[k] += tally[k];
  }
}

export const procurementJob = defineJob({
  name: 'procurement',
  deps: procurementDeps,
  description: 'Public procurement notices (eForms) from Doffin and TED, incremental by publication date',
  schedule: '23 * * * *', // hourly
  options: ['file', 'since'],
  vacuum: false,
  async run(deps, opts, job) {
    const tally = newTally();
    if (opts.file) await loadFiles(deps, opts.file, job, tally);
    else {
      const { doffinBaseUrl, doffinApiKey, tedBaseUrl } = deps.config.procurement;
      const sources = [
        createDoffinSource(doffinBaseUrl, doffinApiKey, () => deps.clock.now()),
        createTedSource(tedBaseUrl),
      ];
      for (const src of sources) await loadSource(deps, src, opts.since, job, tally);
    }
    const { read, skipped, inserted, changed, linked } = tally;
    job.progress(
      `procurement: ${read} read, ${skipped} skipped, ${inserted} new, ${changed} changed, ${linked} relinked`,
    );
    return { recordsProcessed: read - skipped, details: { read, skipped, inserted, changed, linked } };
  },
});
