// Shareholder views of Aksjonærregisteret: the holders of one company (natural persons only on
// request, and then with name and birth year only) and what one company holds. ownershipPct is
// computed here, at read time, from the stored counts. Danish owners (CVR) in shareholders-dk.ts.
import { ownershipPct } from '../../domain/group-tree.ts';
import { isValidNorwegianOrgNumber } from '../../domain/org-number.ts';
import { invalid } from '../../errors.ts';
import type { CvrOwnerRepository } from '../../store/cvr-owners.ts';
import type { PositionRow, ShareholderRepository } from '../../store/shareholders.ts';
import { createDanishOwnerViews, type OwnershipCountry } from './shareholders-dk.ts';

/** 400 unless a 9-digit Norwegian number with a valid check digit. */
export function norwegianOrgNumber(raw: string, path: string): string {
  const n = raw.trim();
  if (!isValidNorwegianOrgNumber(n))
    throw invalid(path, 'must be a 9-digit Norwegian organisation number with a valid check digit');
  return n;
}

function position(p: PositionRow) {
  const common = {
    shareholderName: p.holderName,
    shareholderType: p.holderType,
    shareClass: p.shareClass,
    shareCount: p.shareCount,
    totalSharesInCompany: p.totalShares,
    year: p.year,
    ownershipPct: ownershipPct(p.shareCount, p.totalShares),
  };
  // Data minimisation: a person is a name and a birth year, nothing else (no address).
  if (p.holderType === 'person') return { ...common, shareholderBirthYear: p.holderBirthYear };
  return {
    ...common,
    shareholderOrgNumber: p.holderOrgNumber,
    postalCode: p.postalCode,
    location: p.postalPlace,
    countryCode: p.countryCode,
  };
}

export interface ShareholderServiceDeps {
  shareholders: ShareholderRepository;
  cvrOwners: Pick<CvrOwnerRepository, 'ownersOf' | 'holdingsOf'>;
}

type Opts = { country?: OwnershipCountry; year?: number };

/**
 * Why an answer from Aksjonærregisteret is empty when the cause is what this server holds: no
 * year loaded, or not the asked one. Undefined when rows were found or the years are there.
 */
export function emptyNote(found: number, loaded: number[], year: number | undefined): string | undefined {
  if (found > 0) return undefined;
  if (!loaded.length)
    return 'No Aksjonærregisteret year is loaded on this server (an operator imports one with ncd sync shareholders --file)';
  if (year !== undefined && !loaded.includes(year))
    return `Register year ${year} is not loaded on this server; loaded years: ${loaded.join(', ')}`;
  return undefined;
}

export function createShareholderService(deps: ShareholderServiceDeps) {
  const repo = deps.shareholders;
  const dk = createDanishOwnerViews(deps.cvrOwners);
  return {
    async byInvestee(rawOrgNumber: string, opts: Opts & { includePersons?: boolean }) {
      if (opts.country === 'DK') return dk.byInvestee(rawOrgNumber, opts);
      const orgNumber = norwegianOrgNumber(rawOrgNumber, 'params.orgNumber');
      const [rows, availableYears, loaded] = await Promise.all([
        repo.positions(orgNumber, { year: opts.year, includePersons: opts.includePersons === true }),
        repo.yearsOf(orgNumber),
        repo.years(),
      ]);
      const note = emptyNote(rows.length, loaded, opts.year);
      return { data: rows.map(position), availableYears, ...(note ? { note } : {}) };
    },

    async byOwner(rawOrgNumber: string, opts: Opts) {
      if (opts.country === 'DK') return dk.byOwner(rawOrgNumber, opts);
      const shareholderOrgNumber = norwegianOrgNumber(rawOrgNumber, 'query.shareholderOrgNumber');
      const [rows, loaded] = await Promise.all([
        repo.holdings(shareholderOrgNumber, { year: opts.year }),
        repo.years(),
      ]);
      const note = emptyNote(rows.length, loaded, opts.year);
      return {
        shareholderOrgNumber,
        ...(note ? { note } : {}),
        data: rows.map((h) => ({
          orgNumber: h.orgNumber,
          companyName: h.companyName,
          orgFormCode: h.orgFormCode,
          employeeCount: h.employeeCount,
          shareClass: h.shareClass,
          shareCount: h.shareCount,
          totalSharesInCompany: h.totalShares,
          year: h.year,
          ownershipPct: ownershipPct(h.shareCount, h.totalShares),
        })),
      };
    },
  };
}

export type ShareholderService = ReturnType<typeof createShareholderService>;
