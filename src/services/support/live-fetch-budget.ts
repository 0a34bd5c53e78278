// Per-key daily budget of live fetches. Budgets are counted in upstream requests per
// project and UTC day, by tier (LIVE_FETCH_BUDGET_<TIER>), in the shared rate windows. A miss is
// charged before it is fetched, at the most it can cost (core record, roles, sub-units, accounts),
// plus one request for the batched core search of a call with several misses, so a key can
// never make the registry answer more than its budget, across every process: the charge is one
// atomic reservation in the shared store. Misses beyond it are not fetched.
import type { LiveFetchConfig } from '../../config/index.ts';
import { utcDay } from '../../domain/limits.ts';
import type { RateWindows } from '../../store/access/rate-windows.ts';

/** The most upstream requests one miss can cost (DESIGN "Concurrency 10": core, roles, sub-units, accounts). */
export const REQUESTS_PER_MISS = 4;
const DAY_SECONDS = 86_400;

export interface LiveFetchBudgetDeps {
  windows: RateWindows;
  budgets: LiveFetchConfig['dailyBudget'];
  now: () => Date;
}

export interface BudgetCaller {
  projectId: number;
  tier: string;
}

export function createLiveFetchBudget(deps: LiveFetchBudgetDeps) {
  const limitOf = (tier: string): number | null =>
    tier in deps.budgets ? deps.budgets[tier as keyof LiveFetchConfig['dailyBudget']] : deps.budgets.free;
  const cost = (misses: number) => (misses === 0 ? 0 : misses * REQUESTS_PER_MISS + (misses > 1 ? 1 : 0));

  return {
    limitOf,
    budgets: deps.budgets,

    /**
     * How many of `wanted` misses the caller may fetch now; their cost is charged. Calls without
     * a caller (operator tools) are not budgeted.
     */
    async admit(caller: BudgetCaller | undefined, wanted: number): Promise<number> {
      const limit = caller ? limitOf(caller.tier) : null;
      if (!caller || limit === null || wanted === 0) return wanted;
      const key = `${caller.projectId}:${utcDay(deps.now())}`;
      // Reserve, then keep what fits: one atomic increment in the shared store, so two processes
      // admitting at once cannot both spend the same remainder (a read-then-write could). The
      // part of the reservation that did not fit is given back.
      const reserved = cost(wanted);
      const w = await deps.windows.consume('live-fetch', key, limit, DAY_SECONDS, reserved);
      const used = w.used ?? limit - w.remaining;
      const available = Math.max(0, limit - (used - reserved));
      let admitted = wanted;
      while (admitted > 0 && cost(admitted) > available) admitted--;
      await deps.windows.release('live-fetch', key, DAY_SECONDS, reserved - cost(admitted));
      return admitted;
    },

    /** What a caller has left today (null: unlimited). */
    async remaining(caller: BudgetCaller): Promise<number | null> {
      const limit = limitOf(caller.tier);
      if (limit === null) return null;
      const key = `${caller.projectId}:${utcDay(deps.now())}`;
      return (await deps.windows.peek('live-fetch', key, limit, DAY_SECONDS)).remaining;
    },
  };
}

export type LiveFetchBudget = ReturnType<typeof createLiveFetchBudget>;
