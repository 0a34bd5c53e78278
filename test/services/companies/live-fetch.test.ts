// Live fetch of Norwegian misses through the company service, on fakes: the per-key daily budget
// (charged before any registry request, reset at UTC midnight) and the negative cache (a number
// the registry does not know is not asked for again within its TTL).
import { describe, expect, it } from 'vitest';
import { REQUESTS_PER_MISS } from '../../../src/services/support/live-fetch-budget.ts';
import { companyServiceWithFakes, HOUR, NO } from '../fakes/company-service.ts';
import { apiError } from '../fakes/errors.ts';

const free = { projectId: 7, tier: 'free' };
const [A, B, C, D] = NO;

describe('live fetch: the daily budget', () => {
  it('fetches a miss within the budget and charges what a miss can cost', async () => {
    const { brreg, store, windows, service } = companyServiceWithFakes({ budgets: { free: 8 } });
    brreg.add(A);
    const record = await service.lookup('NO', A, { caller: free });
    expect(record.orgNumber).toBe(A);
    expect(record.roles.length).toBeGreaterThan(0);
    expect(store.has('NO', A)).toBe(true);
    expect(windows.used('live-fetch', '7:2026-03-02', 86_400)).toBe(REQUESTS_PER_MISS);
  });

  it('once spent, a miss gets 429 live_fetch_budget_exceeded until UTC midnight and brreg is not asked', async () => {
    const { brreg, service } = companyServiceWithFakes({ budgets: { free: 8 } });
    brreg.add(A).add(B).add(C);
    await service.lookup('NO', A, { caller: free });
    await service.lookup('NO', B, { caller: free });
    const before = brreg.calls.length;
    const err = await apiError(service.lookup('NO', C, { caller: free }));
    expect(err.code).toBe('live_fetch_budget_exceeded');
    expect(err.status).toBe(429);
    expect(err.opts.headers?.['Retry-After']).toBe(14 * 3600); // 10:00 -> midnight
    expect(brreg.calls.length).toBe(before);
    // A stored company is still served, and costs nothing.
    expect((await service.lookup('NO', A, { caller: free })).orgNumber).toBe(A);
    // Another project has its own budget.
    expect((await service.lookup('NO', C, { caller: { projectId: 8, tier: 'free' } })).orgNumber).toBe(C);
  });

  it('a new UTC day brings a new budget', async () => {
    const { brreg, service, clock } = companyServiceWithFakes({ budgets: { free: 4 } });
    brreg.add(A).add(B);
    await service.lookup('NO', A, { caller: free });
    expect((await apiError(service.lookup('NO', B, { caller: free }))).code).toBe('live_fetch_budget_exceeded');
    clock.set('2026-03-03T00:00:01Z');
    expect((await service.lookup('NO', B, { caller: free })).orgNumber).toBe(B);
  });

  it('enrich fetches as many misses as the budget admits and reports the rest unavailable, never fatal', async () => {
    // Two misses cost 2 × 4 + 1 (the batched core search) = 9; three would cost 13.
    const { brreg, service } = companyServiceWithFakes({ budgets: { free: 9 } });
    brreg.add(A).add(B).add(C);
    const r = await service.enrich(
      [A, B, C].map((orgNumber) => ({ orgNumber, country: 'NO' as const })),
      free,
    );
    expect(r.data.map((d) => d.orgNumber)).toEqual([A, B]);
    expect(r.unavailable).toEqual([{ orgNumber: C, country: 'NO' }]);
    expect(r.unavailableReasons).toEqual({ [C]: 'live_fetch_budget' });
    expect(r.notFound).toEqual([]);
    expect(brreg.calls.some((c) => c.includes(C))).toBe(false);
  });

  it('each tier has its own budget; an unknown tier gets the free one; null is unlimited, as is a call without a caller', async () => {
    const { brreg, service } = companyServiceWithFakes({ budgets: { free: 4, pro: 8, enterprise: null } });
    brreg.add(A).add(B).add(C).add(D);
    const pro = { projectId: 1, tier: 'pro' };
    await service.lookup('NO', A, { caller: pro });
    await service.lookup('NO', B, { caller: pro });
    expect((await apiError(service.lookup('NO', C, { caller: pro }))).code).toBe('live_fetch_budget_exceeded');
    const custom = { projectId: 2, tier: 'partner' };
    await service.lookup('NO', C, { caller: custom });
    expect((await apiError(service.lookup('NO', D, { caller: custom }))).code).toBe('live_fetch_budget_exceeded');
    expect((await service.lookup('NO', D, { caller: { projectId: 3, tier: 'enterprise' } })).orgNumber).toBe(D);
    const operator = await service.enrich([A, B, C, D].map((orgNumber) => ({ orgNumber, country: 'NO' as const })));
    expect(operator.data).toHaveLength(4);
  });

  it('an invalid number is a 400 before any budget or registry use', async () => {
    const { brreg, windows, service } = companyServiceWithFakes({ budgets: { free: 4 } });
    const err = await apiError(service.lookup('NO', '912345000', { caller: free }));
    expect(err.code).toBe('validation_failed');
    expect(err.opts.details?.[0].path).toBe('params.orgNumber');
    expect(brreg.calls).toEqual([]);
    expect(windows.used('live-fetch', '7:2026-03-02', 86_400)).toBe(0);
  });
});

describe('live fetch: the negative cache', () => {
  it('a number brreg does not know is 404 and not asked again within the TTL, and asked again after it', async () => {
    const { brreg, service, clock, misses } = companyServiceWithFakes({ negativeTtlHours: 24 });
    expect((await apiError(service.lookup('NO', A))).code).toBe('company_not_found');
    expect(brreg.count('core', A)).toBe(1);
    expect(await misses.countActive(clock.now())).toBe(1);

    clock.advance(23 * HOUR);
    expect((await apiError(service.lookup('NO', A))).code).toBe('company_not_found');
    expect(brreg.count('core', A)).toBe(1);

    clock.advance(HOUR + 1);
    brreg.add(A); // registered meanwhile
    expect((await service.lookup('NO', A)).orgNumber).toBe(A);
    expect(brreg.count('core', A)).toBe(2);
  });

  it('a remembered miss costs no budget and comes back in enrich as notFound', async () => {
    const { brreg, service, windows } = companyServiceWithFakes({ budgets: { free: 4 } });
    await apiError(service.lookup('NO', A, { caller: free }));
    const spent = windows.used('live-fetch', '7:2026-03-02', 86_400);
    const r = await service.enrich([{ orgNumber: A, country: 'NO' }], free);
    expect(r.notFound).toEqual([{ orgNumber: A, country: 'NO' }]);
    expect(r.unavailable).toEqual([]);
    expect(windows.used('live-fetch', '7:2026-03-02', 86_400)).toBe(spent);
    expect(brreg.count('core', A)).toBe(1);
  });

  it('a failed fetch is not remembered: the next lookup asks again', async () => {
    const { brreg, service } = companyServiceWithFakes();
    brreg.add(A).fail('core', A, 'timeout');
    expect((await apiError(service.lookup('NO', A))).code).toBe('upstream_unavailable');
    brreg.heal();
    expect((await service.lookup('NO', A)).orgNumber).toBe(A);
    expect(brreg.count('core', A)).toBe(2);
  });

  it('the diagnostics show the TTL, the remembered numbers and the budgets', async () => {
    const { service } = companyServiceWithFakes({ negativeTtlHours: 6, budgets: { free: 12 } });
    await apiError(service.lookup('NO', A));
    await apiError(service.lookup('NO', B));
    expect(await service.liveFetchDiagnostics()).toEqual({
      negativeCacheHours: 6,
      rememberedNotFound: 2,
      dailyBudgets: { free: 12, pro: 20_000, enterprise: 200_000, internal: null },
    });
  });
});
