// The company service's own rules around the live fetch, on fakes: the lookup body is cached per
// process except while a bulk-loaded record waits for its completion; enrich answers each
// (country, number) once; only Norwegian (and, with credentials, Danish) misses go upstream.
import { describe, expect, it, vi } from 'vitest';
import { createRecordCache } from '../../../src/services/support/record-cache.ts';
import { mapEnhet } from '../../../src/sources/brreg/map.ts';
import { createCompanyChangeSignal } from '../../../src/store/company-changes.ts';
import { recordedEnhet } from '../fakes/brreg.ts';
import { companyServiceWithFakes, NO } from '../fakes/company-service.ts';
import { apiError } from '../fakes/errors.ts';

const [A, B] = NO;
const serialize = (r: { orgNumber: string; roles: unknown[] }) =>
  JSON.stringify({ n: r.orgNumber, roles: r.roles.length });

async function withCache(budgets?: { free: number }) {
  const cache = createRecordCache({
    maxEntries: 100,
    maxBytes: 1_000_000,
    pollMs: 60_000,
    follower: { poll: async () => ({ keys: [] }) },
    signal: createCompanyChangeSignal(),
    log: { warn: () => undefined },
    now: () => 0, // always within the freshness bound of the one poll start() makes
  });
  await cache.start();
  const s = companyServiceWithFakes({ cache, budgets });
  const loads = vi.spyOn(s.store, 'load');
  return { ...s, cache, loads };
}

describe('company service: the lookup body and the record cache', () => {
  it('a complete record is built once and then served from the cache', async () => {
    const { service, brreg, loads, cache } = await withCache();
    brreg.add(A);
    const first = await service.lookupBody('NO', A, { serialize });
    const reads = loads.mock.calls.length;
    const second = await service.lookupBody('NO', A, { serialize });
    expect(second.equals(first)).toBe(true);
    expect(loads.mock.calls.length).toBe(reads);
    expect(cache.diagnostics().hits).toBe(1);
    cache.stop();
  });

  it('a bulk-loaded record waiting for its completion is served but not cached', async () => {
    const { service, store, loads, cache } = await withCache({ free: 3 }); // less than one miss costs
    await store.write([{ core: mapEnhet(recordedEnhet(A)) }]);
    const caller = { projectId: 1, tier: 'free' };
    expect(JSON.parse((await service.lookupBody('NO', A, { serialize, caller })).toString())).toEqual({
      n: A,
      roles: 0,
    });
    const reads = loads.mock.calls.length;
    await service.lookupBody('NO', A, { serialize, caller });
    expect(loads.mock.calls.length).toBeGreaterThan(reads);
    expect(cache.diagnostics().entries).toBe(0);
    cache.stop();
  });

  it('errors are not cached: a miss that failed upstream is asked again', async () => {
    const { service, brreg, cache } = await withCache();
    brreg.add(A).fail('core', A, 'timeout');
    expect((await apiError(service.lookupBody('NO', A, { serialize }))).code).toBe('upstream_unavailable');
    brreg.heal();
    expect(JSON.parse((await service.lookupBody('NO', A, { serialize })).toString()).n).toBe(A);
    cache.stop();
  });
});

describe('company service: enrich and the other countries', () => {
  it('answers each (country, number) once, in the order asked', async () => {
    const { service, brreg } = companyServiceWithFakes();
    brreg.add(A).add(B);
    const r = await service.enrich([
      { orgNumber: B, country: 'NO' },
      { orgNumber: A, country: 'NO' },
      { orgNumber: B, country: 'NO' },
    ]);
    expect(r.data.map((d) => d.orgNumber)).toEqual([B, A]);
    expect(brreg.count('search')).toBe(1);
  });

  it('Finnish and Swedish companies come from the store only; Danish ones too without CVR credentials', async () => {
    const { service, brreg } = companyServiceWithFakes();
    for (const [country, n] of [
      ['FI', '0112038-9'],
      ['SE', '5560360793'],
      ['DK', '10103940'],
    ] as const) {
      expect((await apiError(service.lookup(country, n))).code, country).toBe('company_not_found');
    }
    const r = await service.enrich([{ orgNumber: '0112038-9', country: 'FI' }]);
    expect(r).toMatchObject({ data: [], notFound: [{ orgNumber: '0112038-9', country: 'FI' }], unavailable: [] });
    expect(brreg.calls).toEqual([]);
  });
});
