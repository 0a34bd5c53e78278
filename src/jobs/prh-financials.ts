// prh-financials: Finnish financial statements from PRH's open XBRL API. The filings registered
// since the last complete run are listed (a first load lists from the API's earliest registration
// date, 2023-07-01), those of companies in the store fetched one by one and their key figures
// stored as the company's accounts (earlier years kept). Each handled filing goes in the ledger
// (financial_filings) in the same transaction as its figures, so a second run fetches nothing it
// has, and a run that died resumes without refetching what it stored. A document that cannot be
// read is skipped and recorded with the reason (health shows it); the run goes on. The listing
// position moves only after a complete walk. `--file` loads XBRL documents offline: one instance
// file, or a ZIP of them (each names its business ID and period itself).
import { readFile } from 'node:fs/promises';
import { SOURCE, type FinancialInput } from '../domain/company.ts';
import {
  createPrhXbrlClient,
  parsePrhXbrl,
  PRH_LISTING_START,
  PrhXbrlError,
  type PrhFiling,
  type PrhKeyFigures,
} from '../sources/prh-xbrl/index.ts';
import { zipEntries, ZipReadError } from '../sources/zip-entries.ts';
import { createFilingWriter, type FilingWriter } from './financial-filings.ts';
import { defineJob, pick, type JobPorts } from './job.ts';

const prhFinancialsDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyWrites', 'syncRuns', 'financialFilings'),
  config: pick(p.config, 'prhXbrl'),
  clock: p.clock,
});

export const PRH_FINANCIALS = 'prh-financials';
const BUSINESS_ID = /^\d{7}-\d$/;
/** A filing's ledger key: a statement registered again (corrected) is a new filing. */
const filingIdOf = (f: PrhFiling) =>
  f.registrationDate
    ? `${f.businessId}:${f.financialDate}:${f.registrationDate}`
    : `${f.businessId}:${f.financialDate}`;

/** The store's accounts row of one statement: the company's own accounts (the OYTP individual profile). */
export function prhFinancialInput(k: PrhKeyFigures, upstreamId: string): FinancialInput {
  return {
    upstreamId,
    accountsType: 'SELSKAP',
    periodFrom: k.periodFrom,
    periodTo: k.periodTo,
    currency: k.currency ?? 'EUR',
    revenue: k.revenue,
    operatingProfit: k.operatingProfit,
    netResult: k.netResult,
    equity: k.equity,
    totalAssets: k.totalAssets,
    totalLiabilities: k.totalLiabilities,
    employees: null, // PRH's statements carry the income statement and balance sheet, no headcount
    source: SOURCE.prhFinancials,
  };
}

/** Offline: every XBRL document of the file (a ZIP's `.xml` entries, or the file itself). */
async function* offlineDocuments(file: string): AsyncGenerator<{ name: string; xml: string }> {
  const bytes = await readFile(file);
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    for await (const e of zipEntries(file, { match: (n) => /\.xml$/i.test(n) }))
      yield { name: e.name, xml: e.data.toString('utf8') };
  } else yield { name: file.split(/[\\/]/).pop() ?? file, xml: bytes.toString('utf8') };
}

async function loadFile(file: string, writer: FilingWriter, known: (ids: string[]) => Promise<Set<string>>) {
  let documents = 0;
  try {
    for await (const doc of offlineDocuments(file)) {
      documents++;
      let k: PrhKeyFigures;
      try {
        k = parsePrhXbrl(doc.xml);
      } catch (err) {
        if (!(err instanceof PrhXbrlError)) throw err;
        await writer.skipped(`file:${doc.name}`, '', null, err.message);
        continue;
      }
      const id = k.businessId ?? '';
      if (!BUSINESS_ID.test(id)) {
        await writer.skipped(`file:${doc.name}`, id, k.periodTo, 'no Finnish business ID (fi_met:si289)');
        continue;
      }
      const filingId = `${id}:${k.periodTo}`;
      if (!(await known([id])).has(id)) await writer.unknown(filingId, id, k.periodTo);
      else await writer.stored(filingId, id, [prhFinancialInput(k, filingId)]);
    }
  } catch (err) {
    if (err instanceof ZipReadError) throw new Error(`${file}: ${err.message}`, { cause: err });
    throw err;
  }
  return documents;
}

export const prhFinancialsJob = defineJob({
  name: PRH_FINANCIALS,
  deps: prhFinancialsDeps,
  description:
    "Finnish financial statements: key figures from the XBRL of filings registered since the last run (PRH's open XBRL API; --file: XBRL documents offline)",
  schedule: '15 5 * * *', // daily 05:15 UTC
  options: ['file', 'limit'],
  vacuum: false,
  async run(deps, opts, job) {
    const { financialFilings, syncRuns } = deps.repos;
    const writer = createFilingWriter(deps.repos, PRH_FINANCIALS, 'FI');
    const known = (ids: string[]) => financialFilings.known('FI', ids);
    if (opts.file) {
      const documents = await loadFile(opts.file, writer, known);
      await writer.flush();
      return { recordsProcessed: documents, details: { documents, ...writer.counts, skipSamples: writer.samples } };
    }

    const client = createPrhXbrlClient({
      baseUrl: deps.config.prhXbrl.baseUrl,
      requestsPerMinute: deps.config.prhXbrl.requestsPerMinute,
    });
    const state = await syncRuns.getState<{ since?: string }>(PRH_FINANCIALS);
    const start = state?.since ?? PRH_LISTING_START;
    const end = deps.clock.now().toISOString().slice(0, 10);
    const out = { listed: 0, alreadyHandled: 0, fetched: 0 };
    let complete = true;
    try {
      walk: for await (const page of client.listRegistered(start, end)) {
        const ids = page.map(filingIdOf);
        const [handled, inStore] = await Promise.all([
          financialFilings.handled(PRH_FINANCIALS, ids),
          known(page.map((f) => f.businessId)),
        ]);
        for (const f of page) {
          const filingId = filingIdOf(f);
          out.listed++;
          job.report(out.listed);
          if (handled.has(filingId)) {
            out.alreadyHandled++;
            continue;
          }
          handled.add(filingId); // listed twice in one walk: handled once
          if (!inStore.has(f.businessId)) {
            await writer.unknown(filingId, f.businessId, f.financialDate);
            continue;
          }
          if (opts.limit !== undefined && out.fetched >= opts.limit) {
            complete = false;
            break walk;
          }
          out.fetched++;
          const doc = await client.fetchStatement(f);
          if ('missing' in doc) {
            await writer.skipped(
              filingId,
              f.businessId,
              f.financialDate,
              `PRH answered ${doc.missing} for the document`,
            );
            continue;
          }
          let k: PrhKeyFigures;
          try {
            k = parsePrhXbrl(doc.xml);
          } catch (err) {
            if (!(err instanceof PrhXbrlError)) throw err;
            await writer.skipped(filingId, f.businessId, f.financialDate, err.message);
            continue;
          }
          if (k.businessId !== null && k.businessId !== f.businessId) {
            await writer.skipped(filingId, f.businessId, f.financialDate, 'the document names another business ID');
            continue;
          }
          await writer.stored(filingId, f.businessId, [prhFinancialInput(k, filingId)]);
        }
      }
    } finally {
      // What was stored before a failure stays stored and recorded: the next run skips it.
      await writer.flush();
    }
    // The next run lists from today again (inclusive): a filing registered later today is not missed.
    if (complete) await syncRuns.setState(PRH_FINANCIALS, { since: end });
    if (writer.counts.skipped)
      job.progress(`FI: ${writer.counts.skipped} filings skipped; first: ${writer.samples.join(' | ')}`);
    return {
      recordsProcessed: out.listed,
      details: {
        ...out,
        ...writer.counts,
        complete,
        listedFrom: start,
        listedTo: end,
        requests: client.stats.requests,
        waited429: client.stats.waited429,
        skipSamples: writer.samples,
      },
    };
  },
});
