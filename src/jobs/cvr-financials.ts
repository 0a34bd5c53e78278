// cvr-financials: annual reports filed since the stored position (a scroll over CVR's
// `offentliggoerelser` index), their XBRL key figures parsed and stored as the company's accounts
// (earlier years kept). A report that cannot be fetched or parsed is counted and named in the run's
// details (never its content); the others are stored, and the position moves only after a complete
// walk so a failed one is retried.
import { SOURCE } from '../domain/company.ts';
import {
  CVR_PUBLICATION_INDEX,
  fetchXbrl,
  newCvrRejectLog,
  parseXbrlKeyFigures,
  publicationOf,
  toFinancialInput,
} from '../sources/cvr/index.ts';
import { cvrClientOf } from './cvr.ts';
import { defineJob, pick, type JobPorts } from './job.ts';

/** What the job uses. */
const cvrFinancialsDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyWrites', 'syncRuns'),
  config: pick(p.config, 'cvr'),
  resolver: p.resolver,
  crawlerNet: p.crawlerNet,
});

export const CVR_FINANCIALS_STATE = 'cvr-financials';
/** Reports whose figures are written in one transaction. */
const WRITE_BATCH = 200;

export const cvrFinancialsJob = defineJob({
  name: 'cvr-financials',
  deps: cvrFinancialsDeps,
  description:
    'Danish annual reports: key figures from the XBRL of reports filed since the last run (CVR offentliggoerelser)',
  schedule: '30 4 * * *', // daily 04:30 UTC
  options: ['limit'],
  scheduled: async (deps) => Boolean(deps.config.cvr.username && deps.config.cvr.password),
  vacuum: false,
  async run(deps, opts, job) {
    const client = cvrClientOf(deps);
    const stored = await deps.repos.syncRuns.getState<{ since: string }>(CVR_FINANCIALS_STATE);
    const rejects = newCvrRejectLog();
    const query = {
      bool: {
        filter: [
          { term: { offentliggoerelsestype: 'regnskab' } },
          ...(stored?.since ? [{ range: { offentliggoerelsesTidspunkt: { gte: stored.since } } }] : []),
        ],
      },
    };
    const out = { reports: 0, stored: 0, unknownCompanies: 0, changed: 0 };
    let newest: string | null = null;
    let complete = true;
    let pending: { orgNumber: string; financials: ReturnType<typeof toFinancialInput>[] }[] = [];
    const flush = async () => {
      if (!pending.length) return;
      const w = await deps.repos.companyWrites.writeParts('DK', pending);
      out.changed += w.changed;
      out.unknownCompanies += w.unknown;
      out.stored += pending.length - w.unknown;
      pending = [];
    };
    try {
      walk: for await (const page of client.scroll(CVR_PUBLICATION_INDEX, query)) {
        for (const hit of page.hits) {
          const p = publicationOf(hit);
          if (!p) continue;
          out.reports++;
          if (p.publishedAt && (newest === null || Date.parse(p.publishedAt) > Date.parse(newest)))
            newest = p.publishedAt;
          try {
            // The document URL comes from CVR's data: fetched through the SSRF-safe client.
            const net = { resolver: deps.resolver, ...deps.crawlerNet };
            const figures = parseXbrlKeyFigures(await fetchXbrl(p.xbrlUrl, net));
            pending.push({ orgNumber: p.cvr, financials: [toFinancialInput(figures, p.id, SOURCE.cvrFinancials)] });
          } catch (err) {
            rejects.add(`report ${p.id} of CVR ${p.cvr}`, (err as Error).message);
          }
          if (pending.length >= WRITE_BATCH) await flush();
          job.report(out.reports);
          if (opts.limit !== undefined && out.reports >= opts.limit) {
            complete = false;
            break walk;
          }
        }
      }
      await flush();
    } finally {
      await client.close();
    }
    if (complete && newest) await deps.repos.syncRuns.setState(CVR_FINANCIALS_STATE, { since: newest });
    if (rejects.rejected)
      job.progress(`DK: ${rejects.rejected} annual reports could not be read; first: ${rejects.samples.join(' | ')}`);
    return {
      recordsProcessed: out.reports,
      details: { ...out, complete, newest, rejected: rejects.rejected, rejectSamples: rejects.samples },
    };
  },
});
