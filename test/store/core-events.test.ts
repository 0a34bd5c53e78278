// Core events (issue 26), made by the database in the company upsert's own statement
// (store/core-events-sql.ts): one event per changed category, `fieldsChanged` in the order of
// MONITORED_CORE, before/after holding only those fields as the store holds them, and the status
// type read from which flag rose or fell. Written and read through the repositories, on the
// engine of this run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyCore } from '../../src/domain/company.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

let next = 0;
/** A new stored company with `stored` over a generated core; returns it. */
async function storedCompany(stored: Partial<CompanyCore>): Promise<CompanyCore> {
  const core = { ...mapEnhet(generateCompany(next++, 4242).enhet), ...stored };
  await server.ctx.repos.companyWrites.write([{ core }]);
  return core;
}

/** The events that writing `core` appends, without seq, id and time. */
async function eventsOf(core: CompanyCore) {
  const log = server.ctx.repos.eventLog;
  const start = (await log.bounds()).lastSeq;
  await server.ctx.repos.companyWrites.write([{ core }]);
  const { events } = await log.list(start, {}, 100);
  return events.map(({ orgNumber, country, category, type, fieldsChanged, before, after, source }) => ({
    orgNumber,
    country,
    category,
    type,
    fieldsChanged,
    before,
    after,
    source,
  }));
}

describe('core events of a company write', () => {
  it('raises nothing when only unmonitored fields change', async () => {
    const core = await storedCompany({ description: 'old' });
    expect(await eventsOf({ ...core, description: 'new', website: 'fjord.example' })).toEqual([]);
  });

  it('groups changed fields by category in MONITORED_CORE order, with only those fields', async () => {
    const core = await storedCompany({
      name: 'FJORD AS',
      naceCode1: '62.010',
      businessAddress: {
        street: 'Gate 1',
        postalCode: '0150',
        city: null,
        municipality: 'OSLO',
        municipalityNumber: '0301',
        countryCode: 'NO',
      },
    });
    const events = await eventsOf({
      ...core,
      name: 'FJORD HOLDING AS',
      naceCode1: '62.020',
      businessAddress: { ...core.businessAddress!, street: 'Gate 2', city: 'OSLO' },
    });
    const key = { orgNumber: core.orgNumber, country: 'NO', source: core.source };
    expect(events).toEqual([
      {
        ...key,
        category: 'name',
        type: 'name_changed',
        fieldsChanged: ['name'],
        before: { name: 'FJORD AS' },
        after: { name: 'FJORD HOLDING AS' },
      },
      {
        ...key,
        category: 'address',
        type: 'address_changed',
        fieldsChanged: ['businessAddress.street', 'businessAddress.city'],
        before: { 'businessAddress.street': 'Gate 1', 'businessAddress.city': null },
        after: { 'businessAddress.street': 'Gate 2', 'businessAddress.city': 'OSLO' },
      },
      {
        ...key,
        category: 'industry',
        type: 'industry_changed',
        fieldsChanged: ['naceCode1'],
        before: { naceCode1: '62.010' },
        after: { naceCode1: '62.020' },
      },
    ]);
  });

  it.each<[Partial<CompanyCore>, Partial<CompanyCore>, string, Record<string, unknown>]>([
    [{ isBankrupt: false }, { isBankrupt: true }, 'bankrupt', { isBankrupt: true }],
    [
      { isDeleted: false, deletedDate: null },
      { isDeleted: true, deletedDate: '2026-11-27' },
      'deregistered',
      { isDeleted: true, deletedDate: '2026-11-27' },
    ],
    [{ isInForcedDissolution: false }, { isInForcedDissolution: true }, 'dissolved', { isInForcedDissolution: true }],
    [{ isBankrupt: true }, { isBankrupt: false }, 'reinstated', { isBankrupt: false }],
    [{ status: 'ACTIVE' }, { status: 'INACTIVE' }, 'status_changed', { status: 'INACTIVE' }],
  ])('types a status change %j → %j as %s', async (before, after, type, shown) => {
    const core = await storedCompany(before);
    const events = await eventsOf({ ...core, ...after });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ category: 'status', type, after: shown, fieldsChanged: Object.keys(shown) });
  });

  it('stages nothing on a re-write of the same core, and numbers a batch in its order', async () => {
    const cores = await Promise.all([0, 1, 2].map(() => storedCompany({})));
    const renamed = cores.map((c, i) => ({ core: { ...c, name: `RENAMED ${i} AS` } }));
    const log = server.ctx.repos.eventLog;
    const start = (await log.bounds()).lastSeq;
    await server.ctx.repos.companyWrites.write(renamed);
    await server.ctx.repos.companyWrites.write(renamed);
    const { events } = await log.list(start, {}, 100);
    expect(events.map((e) => [e.seq, e.orgNumber, e.after])).toEqual(
      cores.map((c, i) => [start + 1 + i, c.orgNumber, { name: `RENAMED ${i} AS` }]),
    );
  });
});
