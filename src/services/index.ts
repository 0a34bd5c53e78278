// Use cases, built once per app on the shared context.
import type { AppContext } from '../context.ts';
import { createCompanyService } from './companies.ts';
import { createKeyService } from './keys.ts';
import { createDestinationService } from './destinations.ts';
import { createPushService } from './push.ts';
import { createMarketContext } from './market-context.ts';
import { createPagination } from './pagination.ts';
import { createSearchService } from './search.ts';
import { createShareholderService } from './shareholders.ts';
import { createGroupService } from './groups.ts';
import { createWebProfileService } from './web-profile.ts';
import { createInspectionService } from './inspections.ts';
import { createLicenseService } from './licenses.ts';
import { createScreeningService } from './screening.ts';
import { createCoverageService } from './coverage.ts';
import { createLiveFetchBudget } from './live-fetch-budget.ts';

export function createServices(ctx: AppContext) {
  const pagination = createPagination(ctx);
  const market = createMarketContext(ctx);
  const companies = createCompanyService({
    ctx,
    reads: ctx.repos.companyReads,
    writes: ctx.repos.companyWrites,
    brreg: ctx.upstreams.brreg,
    market,
    misses: ctx.repos.liveFetchMisses,
    budget: createLiveFetchBudget({
      windows: ctx.rateWindows,
      budgets: ctx.config.liveFetch.dailyBudget,
      now: () => ctx.clock.now(),
    }),
    negativeTtlMs: ctx.config.liveFetch.negativeTtlMs,
  });
  const destinations = createDestinationService(ctx);
  return {
    keys: createKeyService(ctx),
    pagination,
    market,
    search: createSearchService(ctx, pagination, market),
    companies,
    destinations,
    push: createPushService({ ctx, companies, destinations }),
    shareholders: createShareholderService(ctx),
    groups: createGroupService(ctx),
    webProfile: createWebProfileService(ctx),
    inspections: createInspectionService(ctx, pagination),
    licenses: createLicenseService(ctx, pagination),
    screening: createScreeningService({
      sanctions: ctx.repos.sanctions,
      companyReads: ctx.repos.companyReads,
      shareholders: ctx.repos.shareholders,
      clock: ctx.clock,
    }),
    coverage: createCoverageService(ctx),
  };
}

export type Services = ReturnType<typeof createServices>;
