// The company service over in-memory fakes: a recorded-payload registry, the store, the negative
// cache and the shared rate windows behind the real live-fetch budget, all on one movable clock.
import type { LiveFetchConfig } from '../../../src/config/index.ts';
import { ReferenceData } from '../../../src/domain/reference-data.ts';
import { createCompanyService } from '../../../src/services/companies/companies.ts';
import { createLiveFetchBudget } from '../../../src/services/support/live-fetch-budget.ts';
import type { RecordCache } from '../../../src/services/support/record-cache.ts';
import { FakeClock } from '../../helpers/fake-clock.ts';
import { FakeBrreg } from './brreg.ts';
import { FakeCompanyStore, FakeLiveFetchMisses } from './company-store.ts';
import { FakeRateWindows } from './rate-windows.ts';

export const HOUR = 3_600_000;
/** Valid Norwegian organisation numbers (mod-11 check digit). */
export const NO = ['912345009', '912345017', '912345025', '912345033', '912345041', '912345068'] as const;

export interface CompanySetup {
  budgets?: Partial<LiveFetchConfig['dailyBudget']>;
  negativeTtlHours?: number;
  cache?: RecordCache;
}

export function companyServiceWithFakes(opts: CompanySetup = {}) {
  const clock = new FakeClock(new Date('2026-03-02T10:00:00Z'));
  const windows = new FakeRateWindows(clock);
  const brreg = new FakeBrreg();
  const store = new FakeCompanyStore(clock);
  const misses = new FakeLiveFetchMisses();
  const budgets = { free: 400, pro: 20_000, enterprise: 200_000, internal: null, ...opts.budgets };
  const service = createCompanyService({
    reference: new ReferenceData({ counties: [], municipalities: [], nace: [], orgForms: [], postalCodes: [] }),
    clock,
    reads: store,
    writes: store,
    brreg,
    market: { forCompany: () => Promise.reject(new Error('include=context is not part of these tests')) },
    misses,
    budget: createLiveFetchBudget({ windows, budgets, now: () => clock.now() }),
    negativeTtlMs: (opts.negativeTtlHours ?? 24) * HOUR,
    cache: opts.cache,
  });
  return { clock, windows, brreg, store, misses, service };
}
