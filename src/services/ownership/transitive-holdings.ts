// GET /api/shareholders/by-owner: what a company holds directly (the shareholder service) or,
// with transitive=true, every company it holds directly or through the companies it holds, with
// the effective share and the paths, derived from the shareholder registers (NO
// Aksjonærregisteret, DK CVR's owner bands). The walk is capped (depth, paths, companies) and its
// result paged: each page walks again and a signed cursor, bound to the holder, country, year and
// depth, says where the page starts.
import type { HoldingsQuery } from '../../contract/shareholders.ts';
import { isPoint, pct } from '../../domain/ownership-summary.ts';
import { walkHoldings, type HeldCompany, type HoldingEdge } from '../../domain/ownership-holdings.ts';
import type { Band } from '../../domain/ownership-walk.ts';
import { invalid } from '../../errors.ts';
import type { OwnershipChainRepository } from '../../store/ownership-chains.ts';
import type { ShareholderRepository } from '../../store/shareholders.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { Pagination } from '../support/pagination.ts';
import { danishCvrNumber } from './shareholders-dk.ts';
import { norwegianOrgNumber, type ShareholderService } from './shareholders.ts';
import { BASIS } from './ultimate-owners.ts';

/** Caps of one walk: past them it stops and says truncated. */
export const HOLDINGS_LIMITS = { maxPaths: 5_000, maxCompanies: 2_000 };
/** Paths shown per company (the share always sums all of them). */
const PATHS_SHOWN = 20;

export interface TransitiveHoldingDeps {
  chains: Pick<OwnershipChainRepository, 'norwegianHoldings' | 'danishHoldings'>;
  shareholders: Pick<ShareholderRepository, 'years'>;
  /** The direct holdings (transitive=false). */
  direct: Pick<ShareholderService, 'byOwner'>;
  pagination: Pagination;
}

const range = (b: Band) => ({ low: pct(b.low), high: pct(b.high) });

function hopView(h: HoldingEdge, banded: boolean) {
  return {
    orgNumber: h.orgNumber,
    name: h.name,
    pct: isPoint(h.share) ? pct(h.share.low) : null,
    ...(banded ? { pctRange: range(h.share) } : {}),
    year: h.year,
    shareClass: h.shareClass,
  };
}

function row(c: HeldCompany, banded: boolean) {
  return {
    orgNumber: c.orgNumber,
    companyName: c.name,
    orgFormCode: c.orgFormCode,
    employeeCount: c.employeeCount,
    ...(c.year !== null ? { year: c.year } : {}),
    ownershipPct: pct(c.share.low),
    ...(banded ? { ownershipPctRange: range(c.share) } : {}),
    effectivePct: isPoint(c.share) ? pct(c.share.low) : null,
    ...(banded ? { effectivePctRange: range(c.share) } : {}),
    controls: c.controls,
    depth: c.depth,
    pathCount: c.paths.length,
    paths: c.paths.slice(0, PATHS_SHOWN).map((p) => p.map((h) => hopView(h, banded))),
  };
}

export function createTransitiveHoldingService(deps: TransitiveHoldingDeps) {
  return {
    async byOwner(caller: AuthContext, q: HoldingsQuery) {
      if (!q.transitive) {
        for (const k of ['maxDepth', 'limit', 'cursor'] as const)
          if (q[k] !== undefined) throw invalid(`query.${k}`, 'applies only with transitive=true');
        return deps.direct.byOwner(q.shareholderOrgNumber, { country: q.country, year: q.year });
      }
      const country = q.country ?? 'NO';
      const dk = country === 'DK';
      let holder: string;
      let year: number | null;
      if (dk) {
        holder = danishCvrNumber(q.shareholderOrgNumber, 'query.shareholderOrgNumber');
        if (q.year !== undefined)
          throw invalid('query.year', "Danish owners are CVR's current register: there are no years to choose from");
        year = null;
      } else {
        holder = norwegianOrgNumber(q.shareholderOrgNumber, 'query.shareholderOrgNumber');
        year = q.year ?? (await deps.shareholders.years())[0] ?? null;
      }
      const maxDepth = q.maxDepth ?? 10;
      const bound = { holder, country, year, maxDepth };
      const req = { scope: 'holdings-transitive', bound, cursor: q.cursor, limit: q.limit, depthGuard: true };
      const { after, limit } = await deps.pagination.start(caller, req);
      const load = dk
        ? (holders: string[]) => deps.chains.danishHoldings(holders)
        : (holders: string[]) => deps.chains.norwegianHoldings(holders, { year: year ?? undefined });
      const walk = await walkHoldings(holder, load, { maxDepth, ...HOLDINGS_LIMITS });
      // The position is the index of the last row served and its number (the list is walked anew each page).
      const from = after ? Number(after[1]) + 1 : 0;
      const slice = walk.companies.slice(from, from + limit + 1);
      const page = deps.pagination.finish(req, limit, {
        rows: slice,
        positions: slice.map((c, i) => [c.orgNumber, from + i]),
      });
      return {
        shareholderOrgNumber: holder,
        transitive: true,
        basis: BASIS,
        year,
        maxDepth,
        totalCompanies: walk.companies.length,
        truncated: walk.truncated,
        cycle: walk.cycle,
        data: page.rows.map((c) => row(c, dk)),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },
  };
}
