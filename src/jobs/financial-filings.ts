// What the Finnish and Swedish financials jobs share: the writer that stores a filing's accounts
// and its ledger row in one transaction (so a crash never leaves a stored filing unrecorded, nor
// a recorded one unstored), and records skipped filings with their reason.
import type { FinancialInput } from '../domain/company.ts';
import type { Repositories } from '../store/repositories.ts';
import type { FilingRow } from '../store/financial-filings.ts';

type WriterRepos = Pick<Repositories, 'companyWrites' | 'financialFilings'>;

/** Filings written per transaction. */
const BATCH = 100;

export function createFilingWriter(repos: WriterRepos, source: string, country: string) {
  let parts: { orgNumber: string; financials: FinancialInput[] }[] = [];
  let ledger: FilingRow[] = [];
  const counts = { stored: 0, skipped: 0, unknownCompanies: 0, changed: 0 };
  const samples: string[] = [];

  async function flush() {
    if (!ledger.length) return;
    const rows = ledger;
    const batch = parts;
    ledger = [];
    parts = [];
    if (batch.length) {
      const w = await repos.companyWrites.writeParts(country, batch, (trx) => repos.financialFilings.record(rows, trx));
      counts.changed += w.changed;
    } else await repos.financialFilings.record(rows);
  }
  const add = async (row: FilingRow) => {
    ledger.push(row);
    if (ledger.length >= BATCH) await flush();
  };

  return {
    counts,
    /** The first few skip reasons, for the run's details. */
    samples,
    async stored(filingId: string, orgNumber: string, financials: FinancialInput[]) {
      parts.push({ orgNumber, financials });
      counts.stored++;
      await add({
        source,
        filingId,
        country,
        orgNumber,
        periodTo: financials[0]?.periodTo ?? null,
        status: 'stored',
        reason: null,
      });
    },
    async skipped(filingId: string, orgNumber: string, periodTo: string | null, reason: string) {
      counts.skipped++;
      if (samples.length < 5) samples.push(`${filingId}: ${reason}`);
      await add({ source, filingId, country, orgNumber, periodTo, status: 'skipped', reason: reason.slice(0, 300) });
    },
    async unknown(filingId: string, orgNumber: string, periodTo: string | null) {
      counts.unknownCompanies++;
      await add({ source, filingId, country, orgNumber, periodTo, status: 'unknown', reason: null });
    },
    flush,
  };
}

export type FilingWriter = ReturnType<typeof createFilingWriter>;
