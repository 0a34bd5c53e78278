// Aggregate context (include=context): companies and median employee count in the same
// municipality and in the same NACE division, computed from the store and cached for ten
// minutes, so a page of search results costs at most a few aggregate queries.
import type { Clock } from '../domain/clock.ts';
import type { CompanyReadRepository } from '../store/company-reads.ts';

const TTL_MS = 10 * 60_000;

export interface MarketContext {
  municipality: { code: string | null; companies: number; medianEmployees: number | null };
  industry: { naceDivision: string | null; companies: number; medianEmployees: number | null };
}

export interface MarketContextDeps {
  reads: CompanyReadRepository;
  clock: Clock;
}

export function createMarketContext(deps: MarketContextDeps) {
  const cache = new Map<string, { at: number; value: MarketContext }>();

  return {
    async for(municipalityNo: string | null, naceCode: string | null): Promise<MarketContext> {
      const division = naceCode?.slice(0, 2) ?? null;
      const k = `${municipalityNo}|${division}`;
      const now = deps.clock.now().getTime();
      const hit = cache.get(k);
      if (hit && now - hit.at < TTL_MS) return hit.value;
      const rows = await deps.reads.context(municipalityNo, division);
      const m = rows.find((r) => r.scope === 'municipality')!;
      const i = rows.find((r) => r.scope === 'industry')!;
      const value: MarketContext = {
        municipality: { code: municipalityNo, companies: m.companies, medianEmployees: m.median_employees },
        industry: { naceDivision: division, companies: i.companies, medianEmployees: i.median_employees },
      };
      if (cache.size > 5000) cache.clear();
      cache.set(k, { at: now, value });
      return value;
    },
  };
}

export type MarketContextService = ReturnType<typeof createMarketContext>;
