// How the direct owners of a Norwegian company changed from one register year to the next it
// has rows in (the rule in domain/ownership-changes.ts, which the `ownership` events of an import
// follow too). Shares as in the ultimate-owner walk (all classes, treasury shares out of the base).
import { CHANGE_PP, ownershipChange } from '../../domain/ownership-changes.ts';
import { invalid } from '../../errors.ts';
import type { OwnershipChainRepository, YearHolder } from '../../store/ownership-chains.ts';
import type { ShareholderRepository } from '../../store/shareholders.ts';
import type { OwnershipCountry } from './shareholders-dk.ts';
import { norwegianOrgNumber } from './shareholders.ts';
import { BASIS } from './ultimate-owners.ts';

export interface OwnershipChangeDeps {
  chains: Pick<OwnershipChainRepository, 'norwegianHoldersByYear'>;
  shareholders: Pick<ShareholderRepository, 'yearsOf'>;
}

export interface OwnershipChangeOpts {
  country?: OwnershipCountry;
  fromYear?: number;
  toYear?: number;
  includePersons?: boolean;
}

export function createOwnershipChangeService(deps: OwnershipChangeDeps) {
  return {
    async changes(rawOrgNumber: string, opts: OwnershipChangeOpts) {
      if (opts.country === 'DK')
        throw invalid('query.country', "CVR's owner register is the current state only: there are no years to compare");
      const orgNumber = norwegianOrgNumber(rawOrgNumber, 'params.orgNumber');
      if (opts.fromYear !== undefined && opts.toYear !== undefined && opts.fromYear > opts.toYear)
        throw invalid('query.fromYear', 'must not be after toYear');
      const includePersons = opts.includePersons === true;
      const years = (await deps.shareholders.yearsOf(orgNumber))
        .filter(
          (y) => (opts.fromYear === undefined || y >= opts.fromYear) && (opts.toYear === undefined || y <= opts.toYear),
        )
        .sort((a, b) => a - b);
      // Persons are always loaded, so the largest owner is right; they are masked in the change.
      const rows = await deps.chains.norwegianHoldersByYear(orgNumber, years, true);
      const byYear = new Map<number, YearHolder[]>(years.map((y) => [y, []]));
      for (const r of rows) byYear.get(r.year)?.push(r);
      const changes = years
        .slice(1)
        .map((y, i) => ownershipChange(years[i], y, byYear.get(years[i])!, byYear.get(y)!, includePersons));
      return {
        orgNumber,
        country: 'NO' as const,
        basis: BASIS,
        changeThresholdPp: CHANGE_PP,
        years,
        changes,
      };
    },
  };
}
