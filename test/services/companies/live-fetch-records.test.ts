// Live fetch of Norwegian records through the company service, on fakes: records the registry
// answers only in part (a failed roles or accounts request), records a bulk dump left incomplete,
// deleted units, and a unit removed from open data (410 Gone), which is purged.
import { describe, expect, it } from 'vitest';
import { mapEnhet } from '../../../src/sources/brreg/map.ts';
import { recordedEnhet } from '../fakes/brreg.ts';
import { companyServiceWithFakes, HOUR, NO } from '../fakes/company-service.ts';
import { apiError } from '../fakes/errors.ts';

const [A, B, C] = NO;
const pairs = (...numbers: string[]) => numbers.map((orgNumber) => ({ orgNumber, country: 'NO' as const }));

/** A record as a bulk dump stores it: the core fields only, never fetched live. */
const bulkLoad = (store: ReturnType<typeof companyServiceWithFakes>['store'], orgNumber: string) =>
  store.write([{ core: mapEnhet(recordedEnhet(orgNumber)) }]);

describe('live fetch: incomplete answers', () => {
  it('a miss whose roles request fails is 502 upstream_unavailable and nothing is stored', async () => {
    const { brreg, store, service } = companyServiceWithFakes();
    brreg.add(A).fail('roles', A, 'timeout');
    const err = await apiError(service.lookup('NO', A));
    expect(err.code).toBe('upstream_unavailable');
    expect(err.status).toBe(502);
    expect(store.has('NO', A)).toBe(false);
  });

  it('a failed accounts request fails the miss too: a record is stored whole or not at all', async () => {
    const { brreg, store, service } = companyServiceWithFakes();
    brreg.add(A).fail('accounts', A, 'network');
    expect((await apiError(service.lookup('NO', A))).code).toBe('upstream_unavailable');
    expect(store.written).toEqual([]);
    brreg.heal();
    const record = await service.lookup('NO', A);
    expect(record.financials.length).toBeGreaterThan(0);
    expect(record._sources.attribution).toContain('Regnskapsregisteret');
  });

  it('enrich names why each failed miss is unavailable and still answers the others', async () => {
    const { brreg, service } = companyServiceWithFakes();
    brreg.add(A).add(B).add(C).fail('roles', A, 'timeout').fail('subUnits', B, 'throttled');
    brreg.fail('accounts', C, 'circuit-open');
    const r = await service.enrich(pairs(A, B, C));
    expect(r.data).toEqual([]);
    expect(r.unavailable.map((p) => p.orgNumber)).toEqual([A, B, C]);
    expect(r.unavailableReasons).toEqual({
      [A]: 'upstream_error',
      [B]: 'upstream_rate_limited',
      [C]: 'upstream_circuit_open',
    });
    expect(r.notFound).toEqual([]);
  });

  it('several misses share one core search; a failed search falls back to one request per number', async () => {
    const { brreg, service } = companyServiceWithFakes();
    brreg.add(A).add(B);
    expect((await service.enrich(pairs(A, B))).data).toHaveLength(2);
    expect(brreg.count('search')).toBe(1);
    expect(brreg.count('core')).toBe(0);

    const second = companyServiceWithFakes();
    second.brreg.add(A).add(B).fail('search', `${A},${B}`, 'status');
    expect((await second.service.enrich(pairs(A, B))).data.map((d) => d.orgNumber)).toEqual([A, B]);
    expect(second.brreg.count('core')).toBe(2);
  });

  it('no accounts request is made for a unit that never filed any', async () => {
    const { brreg, service } = companyServiceWithFakes();
    brreg.add(A, { accounts: false });
    const record = await service.lookup('NO', A);
    expect(record.financials).toEqual([]);
    expect(brreg.count('accounts')).toBe(0);
    expect(brreg.count('roles', A)).toBe(1);
  });

  it('a deleted unit is stored as deleted without asking for its roles', async () => {
    const { brreg, service } = companyServiceWithFakes();
    brreg.addDeleted(A);
    const record = await service.lookup('NO', A);
    expect(record.isDeleted).toBe(true);
    expect(record.deletedDate).toBe('2017-10-20');
    expect(brreg.count('roles')).toBe(0);
  });
});

describe('live fetch: records a bulk dump left incomplete', () => {
  it('a lookup completes the record with its roles and accounts, once', async () => {
    const { brreg, store, service } = companyServiceWithFakes();
    await bulkLoad(store, A);
    brreg.add(A);
    const record = await service.lookup('NO', A);
    expect(record.roles.length).toBeGreaterThan(0);
    expect(record.financials.length).toBeGreaterThan(0);
    expect(store.get('NO', A)?.row.fetched_at).not.toBeNull();
    const calls = brreg.calls.length;
    await service.lookup('NO', A);
    expect(brreg.calls.length).toBe(calls);
  });

  it('a failed completion serves the record as stored instead of failing the lookup', async () => {
    const { brreg, store, service } = companyServiceWithFakes();
    await bulkLoad(store, A);
    brreg.add(A).fail('roles', A, 'timeout');
    const record = await service.lookup('NO', A);
    expect(record.orgNumber).toBe(A);
    expect(record.roles).toEqual([]);
    const r = await service.enrich(pairs(A));
    expect(r.data.map((d) => d.orgNumber)).toEqual([A]);
    expect(r.unavailable).toEqual([]);
  });

  it('over budget, the record is served as stored without a registry request', async () => {
    const { brreg, store, service } = companyServiceWithFakes({ budgets: { free: 3 } });
    await bulkLoad(store, A);
    brreg.add(A);
    const record = await service.lookup('NO', A, { caller: { projectId: 1, tier: 'free' } });
    expect(record.roles).toEqual([]);
    expect(brreg.calls).toEqual([]);
  });
});

describe('live fetch: a unit removed from open data (410 Gone)', () => {
  it('a stored record brreg answers 410 for is purged, the lookup is 404 and the number is remembered', async () => {
    const { brreg, store, service, clock } = companyServiceWithFakes({ negativeTtlHours: 24 });
    await bulkLoad(store, A);
    brreg.remove(A);
    const err = await apiError(service.lookup('NO', A));
    expect(err.code).toBe('company_not_found');
    expect(err.status).toBe(404);
    expect(store.purged).toEqual([A]);
    expect(store.has('NO', A)).toBe(false);
    clock.advance(12 * HOUR);
    expect((await apiError(service.lookup('NO', A))).code).toBe('company_not_found');
    expect(brreg.count('core', A)).toBe(1);
  });

  it('in enrich, a removed unit among others is notFound and purged; the others are answered', async () => {
    const { brreg, store, service } = companyServiceWithFakes();
    await bulkLoad(store, B);
    brreg.add(A).remove(B);
    const r = await service.enrich(pairs(A, B));
    expect(r.data.map((d) => d.orgNumber)).toEqual([A]);
    expect(r.notFound).toEqual([{ orgNumber: B, country: 'NO' }]);
    expect(r.unavailable).toEqual([]);
    expect(store.has('NO', B)).toBe(false);
    // The batched search leaves removed units out, so B was asked for on its own.
    expect(brreg.count('core', B)).toBe(1);
  });

  it('a miss answered 410 is 404 and remembered like an unknown number', async () => {
    const { brreg, service, misses, clock } = companyServiceWithFakes();
    brreg.remove(A);
    expect((await apiError(service.lookup('NO', A))).code).toBe('company_not_found');
    expect(await misses.remembered('brreg', [A], clock.now())).toEqual(new Set([A]));
  });
});
