// How the direct owners of a Norwegian company changed from one register year to the next it
// has rows in: owners that entered or left, rose or fell by at least 5 percentage points, and a
// change of the largest owner. Shares as in the ultimate-owner walk (all classes, treasury shares
// out of the base). Natural persons are compared too, but shown only on request; hidden, a person
// is neither listed nor named as the largest owner (it is then `{ kind: 'person', name: null }`).
import { pct } from '../../domain/ownership-summary.ts';
import { invalid } from '../../errors.ts';
import type { OwnershipChainRepository, YearHolder } from '../../store/ownership-chains.ts';
import type { ShareholderRepository } from '../../store/shareholders.ts';
import type { OwnershipCountry } from './shareholders-dk.ts';
import { norwegianOrgNumber } from './shareholders.ts';
import { BASIS } from './ultimate-owners.ts';

/** A rise or fall is listed from this many percentage points. */
export const CHANGE_PP = 5;

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

const keyOf = (h: YearHolder) =>
  h.orgNumber ? `org|${h.orgNumber}` : [h.kind, h.name ?? '', h.birthYear ?? '', h.country ?? ''].join('|');

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
      // Persons are always loaded, so the largest owner is right; they are masked below.
      const rows = await deps.chains.norwegianHoldersByYear(orgNumber, years, true);
      const byYear = new Map<number, Map<string, YearHolder>>(years.map((y) => [y, new Map()]));
      for (const r of rows) byYear.get(r.year)?.set(keyOf(r), r);

      const shown = (h: YearHolder) => includePersons || h.kind !== 'person';
      const owner = (h: YearHolder) => ({
        kind: h.kind,
        orgNumber: h.kind === 'person' ? null : h.orgNumber,
        name: shown(h) ? h.name : null,
        country: shown(h) ? h.country : null,
        ...(h.kind === 'person' && shown(h) ? { birthYear: h.birthYear } : {}),
      });
      const share = (h: YearHolder | undefined) => (h ? pct(h.shares / h.base) : 0);
      const largest = (m: Map<string, YearHolder>) =>
        [...m.values()].sort((a, b) => b.shares / b.base - a.shares / a.base || keyOf(a).localeCompare(keyOf(b)))[0];

      const changes = [];
      for (let i = 1; i < years.length; i++) {
        const [before, after] = [byYear.get(years[i - 1])!, byYear.get(years[i])!];
        const row = (k: string) => {
          const [b, a] = [before.get(k), after.get(k)];
          const h = (a ?? b)!;
          return { ...owner(h), pctBefore: share(b), pctAfter: share(a), changePp: pct((share(a) - share(b)) / 100) };
        };
        const keys = [...new Set([...before.keys(), ...after.keys()])].filter((k) =>
          shown((after.get(k) ?? before.get(k))!),
        );
        const moved = (k: string) => (share(after.get(k)) - share(before.get(k))) * 1e6;
        const [lb, la] = [largest(before), largest(after)];
        changes.push({
          fromYear: years[i - 1],
          toYear: years[i],
          entered: keys.filter((k) => !before.has(k)).map(row),
          left: keys.filter((k) => !after.has(k)).map(row),
          rose: keys.filter((k) => before.has(k) && after.has(k) && moved(k) >= CHANGE_PP * 1e6 - 1).map(row),
          fell: keys.filter((k) => before.has(k) && after.has(k) && -moved(k) >= CHANGE_PP * 1e6 - 1).map(row),
          largestOwner: {
            before: lb ? { ...owner(lb), pct: share(lb) } : null,
            after: la ? { ...owner(la), pct: share(la) } : null,
            changed: (lb ? keyOf(lb) : null) !== (la ? keyOf(la) : null),
          },
        });
      }
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
