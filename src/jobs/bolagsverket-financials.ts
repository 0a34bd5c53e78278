// bolagsverket-financials: Swedish annual reports from Bolagsverket's high-value-datasets API. The
// API lists a company's digitally filed reports (dokumentlista) but has no listing of what was
// filed since a date, so the job walks the stored aktiebolag in org-number order: for each, its
// organisation record (the reklamspärr flag, stored on the company) and its document list; each
// report not handled before is fetched (a ZIP with the iXBRL file), its key figures stored (a K3
// group report as KONSERN, apart from the company's own), or the report skipped with its reason.
// The walk's position is saved after every company, and every handled report is in the ledger
// (financial_filings, written in the same transaction as its figures): a crashed run resumes
// where it stopped and refetches nothing it stored; a run ends after RUN_BUDGET_MS, the next
// continues. At the end of the register the walk starts over, which is how new filings are
// found. All requests are paced to BOLAGSVERKET_REQUESTS_PER_MINUTE (60: Bolagsverket's limit per
// client). Without BOLAGSVERKET_CLIENT_ID and _SECRET it is not scheduled (health says why).
// `--file`: a ZIP as `dokument/{id}` returns it, or a ZIP of such packages (`<orgnr>_<date>.zip`).
import { readFile } from 'node:fs/promises';
import { SOURCE, type FinancialInput } from '../domain/company.ts';
import {
  createBolagsverketApi,
  IxbrlError,
  parseSeIxbrl,
  readReportZip,
  type SeKeyFigures,
} from '../sources/bolagsverket-hvd/index.ts';
import { zipEntries, ZipReadError } from '../sources/zip-entries.ts';
import { createFilingWriter, type FilingWriter } from './financial-filings.ts';
import { defineJob, pick, type JobPorts } from './job.ts';

const bolagsverketFinancialsDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyWrites', 'syncRuns', 'financialFilings', 'marketingProtection'),
  config: pick(p.config, 'bolagsverketApi'),
  clock: p.clock,
});

export const BOLAGSVERKET_FINANCIALS = 'bolagsverket-financials';
/** Only aktiebolag file their annual reports digitally with Bolagsverket. */
const FILER_FORMS = ['AB'] as const;
/** A run stops after this long (the next daily slot continues the walk). */
const RUN_BUDGET_MS = 23 * 60 * 60 * 1000;
const PAGE = 200;

export const NO_CREDENTIALS =
  'BOLAGSVERKET_CLIENT_ID and BOLAGSVERKET_CLIENT_SECRET are not set (register a client for the API "värdefulla datamängder" at Bolagsverket), so the job is not scheduled; --file loads annual reports offline';

export function bolagsverketFinancialInput(k: SeKeyFigures, upstreamId: string): FinancialInput {
  return {
    upstreamId,
    accountsType: k.accountsType,
    periodFrom: k.periodFrom,
    periodTo: k.periodTo,
    currency: k.currency ?? 'SEK',
    revenue: k.revenue,
    operatingProfit: k.operatingProfit,
    netResult: k.netResult,
    equity: k.equity,
    totalAssets: k.totalAssets,
    totalLiabilities: k.totalLiabilities,
    employees: k.employees,
    source: SOURCE.bolagsverketFinancials,
  };
}

/** Stores the reports of one package, or skips it when one names another organisation. */
async function storeReports(writer: FilingWriter, filingId: string, orgNumber: string, reports: SeKeyFigures[]) {
  const other = reports.find((r) => r.orgNumber !== null && r.orgNumber !== orgNumber);
  if (other) return writer.skipped(filingId, orgNumber, other.periodTo, 'the report names another organisation number');
  await writer.stored(
    filingId,
    orgNumber,
    reports.map((r) => bolagsverketFinancialInput(r, filingId)),
  );
}

async function loadFile(file: string, writer: FilingWriter, known: (n: string) => Promise<boolean>) {
  let packages = 0;
  const handle = async (name: string, read: () => Promise<SeKeyFigures[]>) => {
    packages++;
    const filingId = `file:${name}`;
    const fromName = /^(?:.*\/)?(\d{10})_/.exec(name)?.[1] ?? null;
    let reports: SeKeyFigures[];
    try {
      reports = await read();
    } catch (err) {
      if (!(err instanceof IxbrlError)) throw err;
      return writer.skipped(filingId, fromName ?? '', null, err.message);
    }
    const org = reports[0].orgNumber ?? fromName;
    if (!org || !/^\d{10}$/.test(org))
      return writer.skipped(
        filingId,
        '',
        reports[0].periodTo,
        'no organisation number (se-cd-base:Organisationsnummer or the file name)',
      );
    if (!(await known(org))) return writer.unknown(filingId, org, reports[0].periodTo);
    await storeReports(writer, filingId, org, reports);
  };
  const bytes = await readFile(file);
  try {
    if (!bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
      await handle(file.split(/[\\/]/).pop() ?? file, async () => [parseSeIxbrl(bytes.toString('utf8'))]);
      return packages;
    }
    let nested = false;
    for await (const e of zipEntries(file, { match: (n) => /\.zip$/i.test(n) })) {
      nested = true;
      await handle(e.name, () => readReportZip(e.data));
    }
    // Not a bundle of packages: the file is one package itself.
    if (!nested) await handle(file.split(/[\\/]/).pop() ?? file, () => readReportZip(bytes));
  } catch (err) {
    if (err instanceof ZipReadError) throw new Error(`${file}: ${err.message}`, { cause: err });
    throw err;
  }
  return packages;
}

export const bolagsverketFinancialsJob = defineJob({
  name: BOLAGSVERKET_FINANCIALS,
  deps: bolagsverketFinancialsDeps,
  description:
    "Swedish annual reports: key figures from the iXBRL of each aktiebolag's digitally filed reports, and its reklamspärr (Bolagsverket's high-value-datasets API; --file: report ZIPs offline)",
  schedule: '45 5 * * *', // daily 05:45 UTC
  options: ['file', 'limit'],
  scheduled: async (deps) => Boolean(deps.config.bolagsverketApi.clientId && deps.config.bolagsverketApi.clientSecret),
  vacuum: false,
  async run(deps, opts, job) {
    const { financialFilings, marketingProtection, syncRuns } = deps.repos;
    const writer = createFilingWriter(deps.repos, BOLAGSVERKET_FINANCIALS, 'SE');
    if (opts.file) {
      const packages = await loadFile(opts.file, writer, async (n) => (await financialFilings.known('SE', [n])).has(n));
      await writer.flush();
      return { recordsProcessed: packages, details: { packages, ...writer.counts, skipSamples: writer.samples } };
    }
    const cfg = deps.config.bolagsverketApi;
    if (!cfg.clientId || !cfg.clientSecret) throw new Error(NO_CREDENTIALS);
    const api = createBolagsverketApi({
      baseUrl: cfg.baseUrl,
      tokenUrl: cfg.tokenUrl,
      clientId: cfg.clientId,
      clientSecret: cfg.clientSecret,
      requestsPerMinute: cfg.requestsPerMinute,
    });
    const state = await syncRuns.getState<{ after?: string | null; passes?: number }>(BOLAGSVERKET_FINANCIALS);
    let after = state?.after ?? null;
    let passes = state?.passes ?? 0;
    const startedAt = deps.clock.now().getTime();
    const out = { companies: 0, documentsListed: 0, alreadyHandled: 0, fetched: 0, marketingProtectedChanged: 0 };
    let stopped: string | null = null;
    walk: for (;;) {
      const batch = await financialFilings.companiesAfter('SE', FILER_FORMS, after, PAGE);
      if (!batch.length) {
        // The end of the register: the next run walks it again from the start.
        passes++;
        after = null;
        await syncRuns.setState(BOLAGSVERKET_FINANCIALS, { after, passes });
        break;
      }
      for (const org of batch) {
        if (opts.limit !== undefined && out.companies >= opts.limit) {
          stopped = 'limit';
          break walk;
        }
        if (deps.clock.now().getTime() - startedAt > RUN_BUDGET_MS) {
          stopped = 'run budget';
          break walk;
        }
        const flag = await api.marketingProtected(org);
        out.marketingProtectedChanged += await marketingProtection.set('SE', [{ orgNumber: org, value: flag }]);
        const docs = await api.documents(org);
        out.documentsListed += docs.length;
        const handled = await financialFilings.handled(
          BOLAGSVERKET_FINANCIALS,
          docs.map((d) => d.dokumentId),
        );
        for (const d of docs) {
          if (handled.has(d.dokumentId)) {
            out.alreadyHandled++;
            continue;
          }
          out.fetched++;
          const res = await api.document(d.dokumentId);
          if ('missing' in res) {
            await writer.skipped(
              d.dokumentId,
              org,
              d.periodTo,
              `Bolagsverket answered ${res.missing} for the document`,
            );
            continue;
          }
          let reports: SeKeyFigures[];
          try {
            reports = await readReportZip(res.zip);
          } catch (err) {
            if (!(err instanceof IxbrlError)) throw err;
            await writer.skipped(d.dokumentId, org, d.periodTo, err.message);
            continue;
          }
          await storeReports(writer, d.dokumentId, org, reports);
        }
        // The company is done: its reports and the walk's position are saved before the next one.
        await writer.flush();
        after = org;
        out.companies++;
        job.report(out.companies);
        await syncRuns.setState(BOLAGSVERKET_FINANCIALS, { after, passes });
      }
    }
    await writer.flush();
    if (writer.counts.skipped)
      job.progress(`SE: ${writer.counts.skipped} reports skipped; first: ${writer.samples.join(' | ')}`);
    return {
      recordsProcessed: out.companies,
      details: {
        ...out,
        ...writer.counts,
        position: after,
        passes,
        stopped,
        requests: api.stats.paced.requests,
        tokenRequests: api.stats.token.tokens,
        waited429: api.stats.paced.waited429,
        skipSamples: writer.samples,
      },
    };
  },
});
