// Danish legal owners (CVR's EJERREGISTER) in the shareholder views. CVR registers no share counts
// and no years, only the band each owner's share falls in (Selskabsloven § 55): ownershipPct is
// the band's lower bound and ownershipPctRange the whole band. The register is the current state,
// so there is one "year" only and availableYears is empty.
import { isValidOrgNumber, ORG_NUMBER_FORMAT } from '../../domain/org-number.ts';
import { invalid } from '../../errors.ts';
import type { CvrHoldingRow, CvrOwnerRepository, CvrOwnerRow } from '../../store/cvr-owners.ts';

/** Countries with an open shareholder register: Norway (Aksjonærregisteret) and Denmark (CVR). */
export type OwnershipCountry = 'NO' | 'DK';

/** 400 unless an 8-digit CVR number with a valid check digit. */
export function danishCvrNumber(raw: string, path: string): string {
  const n = raw.trim();
  if (!isValidOrgNumber('DK', n)) throw invalid(path, `must be ${ORG_NUMBER_FORMAT.DK}`);
  return n;
}

/** CVR has no years: a year asked for a Danish company is a mistake the caller should see. */
function noYearForDk(year: number | undefined): void {
  if (year !== undefined)
    throw invalid('query.year', "Danish owners are CVR's current register: there are no years to choose from");
}

const range = (r: { pctLow: number; pctHigh: number }) => ({ low: r.pctLow, high: r.pctHigh });

/** 'other' is an owner that is neither a person nor a company with a CVR number (foreign, fund …). */
const holderType = (t: string) => (t === 'person' ? 'person' : t === 'company' ? 'company' : 'other');

function ownerPosition(o: CvrOwnerRow) {
  const common = {
    shareholderName: o.ownerName,
    shareholderType: holderType(o.ownerType),
    ownershipPct: o.pctLow,
    ownershipPctRange: range(o),
  };
  // Data minimisation: a person is a name only (CVR gives no birth year; enhedsNummer is never kept).
  if (o.ownerType === 'person') return common;
  return { ...common, shareholderOrgNumber: o.ownerCvr };
}

function holding(h: CvrHoldingRow) {
  return {
    orgNumber: h.investeeCvr,
    companyName: h.investeeName,
    orgFormCode: h.orgFormCode,
    employeeCount: h.employeeCount,
    ownershipPct: h.pctLow,
    ownershipPctRange: range(h),
  };
}

export function createDanishOwnerViews(repo: Pick<CvrOwnerRepository, 'ownersOf' | 'holdingsOf'>) {
  return {
    async byInvestee(rawCvr: string, opts: { year?: number; includePersons?: boolean }) {
      const cvr = danishCvrNumber(rawCvr, 'params.orgNumber');
      noYearForDk(opts.year);
      const owners = await repo.ownersOf(cvr);
      const shown = opts.includePersons === true ? owners : owners.filter((o) => o.ownerType !== 'person');
      return { data: shown.map(ownerPosition), availableYears: [] as number[] };
    },

    async byOwner(rawCvr: string, opts: { year?: number }) {
      const shareholderOrgNumber = danishCvrNumber(rawCvr, 'query.shareholderOrgNumber');
      noYearForDk(opts.year);
      return { shareholderOrgNumber, data: (await repo.holdingsOf(shareholderOrgNumber)).map(holding) };
    },
  };
}
