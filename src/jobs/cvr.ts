// Danish registry syncs (CVR, Erhvervsstyrelsen's system-til-system Elasticsearch):
//   cvr          the whole register: a scroll over cvr-permanent/virksomhed (or --file/--url of
//                NDJSON Vrvirksomhed documents); companies absent from a complete walk are marked
//                deregistered
//   cvr-updates  the documents changed since the stored position (range on sidstOpdateret)
// Both need CVR_USERNAME/CVR_PASSWORD to reach the network and are not scheduled without them.
// Every batch is written (one transaction) before the next page is asked for, so a walk that
// breaks off (401, an expired scroll, a timeout) keeps everything written before it.
import type { RejectLog } from '../sources/nordic-record.ts';
import {
  createCvrClient,
  CVR_COMPANY_INDEX,
  mapVirksomhed,
  newCvrRejectLog,
  parseCvrNdjson,
  requireCredentials,
  type CvrClient,
  type CvrCompany,
} from '../sources/cvr/index.ts';
import { inBatches } from '../sources/json-array.ts';
import { openSyncInput } from '../sources/sync-input.ts';
import type { CompanyWrite } from '../store/company-writes.ts';
import { NORDIC_BATCH, syncFullWrites } from './nordic-sync.ts';
import { defineJob, pick, type JobPorts } from './job.ts';

/** What the job uses. */
const cvrDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyWrites', 'cvrOwners', 'syncRuns', 'syncSeen', 'marketingProtection'),
  config: pick(p.config, 'cvr'),
  clock: p.clock,
});
type CvrDeps = ReturnType<typeof cvrDeps>;

export const CVR_UPDATES_STATE = 'cvr-updates';

export interface CvrUpdatesState extends Record<string, unknown> {
  /** ISO timestamp: documents with `sidstOpdateret` at or after it are walked next time. */
  since: string;
}

const hasCredentials = (deps: CvrDeps) => Boolean(deps.config.cvr.username && deps.config.cvr.password);

export function cvrClientOf(deps: { config: Pick<CvrDeps['config'], 'cvr'> }): CvrClient {
  requireCredentials(deps.config.cvr);
  return createCvrClient(deps.config.cvr);
}

export const cvrWrite = (c: CvrCompany): CompanyWrite => ({ core: c.core, roles: c.roles, subUnits: c.subUnits });

/**
 * Legal owners of the batch's companies, replaced after their companies are written, and their
 * reklamebeskyttet flag (set apart from the core, so a document without it clears nothing).
 */
export async function writeOwners(deps: CvrDeps, batch: CvrCompany[]): Promise<void> {
  await deps.repos.cvrOwners.replace(batch.map((c) => ({ cvr: c.core.orgNumber, owners: c.owners })));
  await deps.repos.marketingProtection.set(
    'DK',
    batch.map((c) => ({ orgNumber: c.core.orgNumber, value: c.marketingProtected })),
  );
}

/** The companies of a scroll's pages; `seen` gets each document's sidstOpdateret. */
async function* scrolledCompanies(
  client: CvrClient,
  query: unknown,
  rejects: RejectLog,
  seen: (lastUpdated: string | null) => void,
): AsyncGenerator<CvrCompany> {
  let n = 0;
  for await (const page of client.scroll(CVR_COMPANY_INDEX, query)) {
    for (const hit of page.hits) {
      n++;
      try {
        const c = mapVirksomhed(hit);
        seen(c.lastUpdated);
        yield c;
      } catch (err) {
        rejects.add(`document ${n}`, (err as Error).message);
      }
    }
  }
}

const later = (a: string | null, b: string | null) =>
  a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a;

export const cvrJob = defineJob({
  name: 'cvr',
  deps: cvrDeps,
  description:
    'Danish companies: the whole CVR register (scroll, or --file NDJSON of Vrvirksomhed); absent companies are marked deregistered',
  schedule: '30 3 * * 1', // weekly, Monday 03:30 UTC
  options: ['file', 'url', 'limit'],
  scheduled: async (deps) => hasCredentials(deps),
  async run(deps, opts, job) {
    const rejects = newCvrRejectLog();
    const startedAt = deps.clock.now().toISOString();
    let newest: string | null = null;
    const local = Boolean(opts.file || opts.url);
    const client = local ? null : cvrClientOf(deps);
    try {
      const records = client
        ? scrolledCompanies(client, { match_all: {} }, rejects, (t) => (newest = later(newest, t)))
        : parseCvrNdjson((await openSyncInput(opts, {})).stream, rejects);
      const result = await syncFullWrites(deps.repos, job, 'DK', records, cvrWrite, {
        limit: opts.limit,
        afterBatch: (batch) => writeOwners(deps, batch),
      });
      if (rejects.rejected)
        job.progress(`DK: ${rejects.rejected} documents could not be read; first: ${rejects.samples.join(' | ')}`);
      // A complete walk of the register: the update walk continues from its start.
      if (client && result.absentMarked)
        await deps.repos.syncRuns.setState(CVR_UPDATES_STATE, { since: startedAt } satisfies CvrUpdatesState);
      return {
        recordsProcessed: result.processed,
        details: { ...result, newestDocument: newest, rejected: rejects.rejected, rejectSamples: rejects.samples },
      };
    } finally {
      await client?.close();
    }
  },
});

export const cvrUpdatesJob = defineJob({
  name: 'cvr-updates',
  deps: cvrDeps,
  description: 'Danish companies changed since the last run (CVR range query on sidstOpdateret)',
  schedule: '15 * * * *', // hourly
  options: ['limit'],
  scheduled: async (deps) => hasCredentials(deps),
  vacuum: false,
  async run(deps, opts, job) {
    const client = cvrClientOf(deps);
    const stored = await deps.repos.syncRuns.getState<CvrUpdatesState>(CVR_UPDATES_STATE);
    // Without a position (no full walk yet): the last day.
    const since = stored?.since ?? new Date(deps.clock.now().getTime() - 86_400_000).toISOString();
    const rejects = newCvrRejectLog();
    let newest: string | null = null;
    const out = { processed: 0, inserted: 0, changed: 0 };
    let complete = true;
    try {
      const query = { range: { 'Vrvirksomhed.sidstOpdateret': { gte: since } } };
      const companies = scrolledCompanies(client, query, rejects, (t) => (newest = later(newest, t)));
      for await (const batch of inBatches(companies, NORDIC_BATCH)) {
        const byNumber = new Map(batch.map((c) => [c.core.orgNumber, c]));
        const w = await deps.repos.companyWrites.write([...byNumber.values()].map(cvrWrite));
        await writeOwners(deps, [...byNumber.values()]);
        out.processed += batch.length;
        out.inserted += w.inserted;
        out.changed += w.changed;
        job.report(out.processed);
        if (opts.limit !== undefined && out.processed >= opts.limit) {
          complete = false;
          break;
        }
      }
    } finally {
      await client.close();
    }
    // The position moves only after a complete walk (pages come in no time order); documents
    // stamped in the same second as the newest one are walked again, which changes nothing.
    if (complete && newest !== null)
      await deps.repos.syncRuns.setState(CVR_UPDATES_STATE, { since: newest } satisfies CvrUpdatesState);
    job.progress(
      `DK updates since ${since}: ${out.processed} read, ${out.inserted} new, ${out.changed} changed` +
        (complete ? '' : ` (stopped at --limit ${opts.limit}; the position stays at ${since})`),
    );
    return {
      recordsProcessed: out.processed,
      details: { since, newest, complete, ...out, rejected: rejects.rejected, rejectSamples: rejects.samples },
    };
  },
});
