// The derived fields Orakel's clients read beside the stored ones: the size class and the
// municipality name (record and list rows), and the signals (lookup and enrich).
import { SOURCE } from '../../domain/company.ts';
import { companySignals, filedYears, type CompanySignals } from '../../domain/company-signals.ts';
import type { ReferenceData } from '../../domain/reference-data.ts';
import { revenueInEur, sizeClass, type SizeClass } from '../../domain/size-class.ts';
import type { FinancialRow, StoredCompany } from '../../store/company-reads.ts';
import type { RecordBasis } from '../../store/record-json.ts';

const signalYear = (f: FinancialRow) => ({
  periodTo: f.period_to,
  accountsType: f.accounts_type,
  revenue: f.revenue,
  netResult: f.net_result,
  equity: f.equity,
  totalAssets: f.total_assets,
  currency: f.currency,
});

/** sizeClass on the latest employees and the latest filed revenue; the business address's municipality name. */
export function sizeAndPlace(
  r: RecordBasis,
  financials: FinancialRow[],
  reference: ReferenceData,
): { sizeClass: SizeClass | null; businessAddressMuni: string | null } {
  const latest = filedYears(financials.map(signalYear))[0];
  const eur = latest ? revenueInEur(latest.revenue, latest.currency) : null;
  return {
    sizeClass: sizeClass(r.employee_count, eur),
    // The reference list's name where the code is known (SSB's spelling), else the registry's own.
    businessAddressMuni: reference.municipality(r.business_address_muni_no)?.name ?? r.business_address_municipality,
  };
}

/**
 * Reconstruction or debt negotiation as each registry shows it. brreg marks it
 * (underRekonstruksjonsforhandlingDato) whenever it applies, so a Norwegian company without the
 * mark is not in it. PRH (open situation SANE, yrityssaneeraus), Bolagsverket (pending FR/AC,
 * företagsrekonstruktion) and CVR (status REKONSTRUKTION) give it as the company's situation,
 * stored as status "restructuring"; any other stated status means no (the procedures end with a
 * bankruptcy, liquidation or deregistration). null when the registry states no status.
 */
function debtNegotiation(
  r: Pick<StoredCompany['row'], 'country' | 'status' | 'is_in_debt_negotiation'>,
): boolean | null {
  if (r.is_in_debt_negotiation !== null) return r.is_in_debt_negotiation;
  if (r.country === 'NO') return false;
  return r.status === null ? null : r.status === 'restructuring';
}

export interface SignalContext {
  now: Date;
}

/** The signals of one company from what the store holds, with their _sources entry. */
/** The row columns the signals read. */
type SignalRow = Pick<
  StoredCompany['row'],
  | 'country'
  | 'status'
  | 'is_in_debt_negotiation'
  | 'is_bankrupt'
  | 'is_being_dissolved'
  | 'is_in_forced_dissolution'
  | 'sources'
>;

export function recordSignals(
  c: Pick<StoredCompany, 'financials' | 'owners' | 'foreignShare' | 'danishLargestOwner'> & { row: SignalRow },
  ctx: SignalContext,
): { signals: CompanySignals; source: { source: string; computed: true } } {
  const r = c.row;
  const largest = c.owners?.largestShareholder ?? null;
  // Denmark: CVR registers each owner's share as a band; the largest owner at its lower bound.
  const band = c.danishLargestOwner ?? null;
  const signals = companySignals({
    financials: c.financials.map(signalYear),
    isBankrupt: r.is_bankrupt,
    isDissolving: r.is_being_dissolved || r.is_in_forced_dissolution,
    isInDebtNegotiation: debtNegotiation(r),
    largestOwner: largest
      ? { pct: largest.ownershipPct, year: largest.year }
      : band
        ? { pct: band.pctLow, year: null, bandHighPct: band.pctHigh }
        : null,
    foreignShare: c.foreignShare ?? null,
    now: ctx.now,
  });
  const stored = r.sources as Record<string, string>;
  const source = c.financials.length ? (stored.financials ?? SOURCE.regnskap) : stored.companyCore;
  return { signals, source: { source, computed: true } };
}
