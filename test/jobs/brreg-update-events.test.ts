// Issue 26: a brreg-updates sync that changes a company's address, CEO and bankruptcy flag
// appends exactly the expected typed events (before and after values of the changed fields
// only), in the sync's transaction; a re-run of identical data appends none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import type { FinancialInput, SubUnitInput } from '../../src/domain/company.ts';
import { mapEnhet, mapRoller } from '../../src/sources/brreg/map.ts';
import type { BrregRoller } from '../../src/sources/brreg/types.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let brreg: FakeBrreg;
let server: TestServer;
const quiet = () => undefined;
const companies = Array.from({ length: 60 }, (_, i) => generateCompany(i, 26)).filter(
  (c) =>
    !c.enhet.slettedato &&
    !c.enhet.konkurs &&
    c.roller.rollegrupper?.some((g) => g.type?.kode === 'DAGL') &&
    c.enhet.forretningsadresse,
);
const target = companies[0];
const orgNumber = target.enhet.organisasjonsnummer;
let nextId = 500;

function publishChange() {
  brreg.updates.enheter.push({ oppdateringsid: nextId++, organisasjonsnummer: orgNumber, endringstype: 'Endring' });
}

beforeAll(async () => {
  brreg = await startFakeBrreg();
  for (const c of companies.slice(0, 6)) brreg.add(c);
  server = await startServer({ overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url }) } } });
  await runJob(server.ctx, 'brreg', {}, quiet);
  // Roles as a bulk roles load leaves them: known roles are what a change is compared with.
  await server.ctx.repos.companyWrites.writeParts(
    'NO',
    companies.slice(0, 6).map((c) => ({ orgNumber: c.enhet.organisasjonsnummer, roles: mapRoller(c.roller) })),
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
  await brreg?.close();
});

describe('events from brreg-updates', () => {
  it('a first load of companies and their roles appends no events', async () => {
    expect((await server.ctx.repos.eventLog.list(0, {}, 100)).events).toEqual([]);
  });

  it('appends exactly the address, CEO and bankruptcy events, and none on a re-run', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    const oldAddress = target.enhet.forretningsadresse!;
    const oldCeo = target.roller.rollegrupper!.find((g) => g.type?.kode === 'DAGL')!.roller![0] as {
      person: { navn: { fornavn: string; etternavn: string } };
    };
    const newAddress = { ...oldAddress, adresse: ['Nyveien 7'], postnummer: '0150', poststed: 'OSLO' };
    brreg.enheter.set(orgNumber, { ...brreg.enheter.get(orgNumber)!, forretningsadresse: newAddress, konkurs: true });
    const roller: BrregRoller = {
      rollegrupper: target.roller.rollegrupper!.map((g) =>
        g.type?.kode === 'DAGL'
          ? {
              ...g,
              roller: [
                {
                  type: { kode: 'DAGL', beskrivelse: 'Daglig leder' },
                  person: { fodselsdato: '1970-05-05', navn: { fornavn: 'Ny', etternavn: 'Leder' }, erDoed: false },
                  avregistrert: false,
                  rekkefolge: 0,
                },
              ],
            }
          : g,
      ),
    };
    brreg.roller.set(orgNumber, roller);
    publishChange();
    await runJob(server.ctx, 'brreg-updates', {}, quiet);

    const events = (await server.ctx.repos.eventLog.list(lastSeq, {}, 100)).events;
    expect(events.map((e) => e.seq)).toEqual([lastSeq + 1, lastSeq + 2, lastSeq + 3]);
    const byCategory = Object.fromEntries(events.map((e) => [e.category, e]));
    expect(Object.keys(byCategory).sort()).toEqual(['address', 'roles', 'status']);
    for (const e of events) expect(e).toMatchObject({ orgNumber, country: 'NO', source: 'Brønnøysundregistrene' });

    expect(byCategory.status).toMatchObject({
      type: 'bankrupt',
      fieldsChanged: ['isBankrupt', 'status'],
      before: { isBankrupt: false, status: 'active' },
      after: { isBankrupt: true, status: 'bankrupt' },
    });
    const address = byCategory.address;
    expect(address.type).toBe('address_changed');
    expect(address.after).toMatchObject({
      'businessAddress.street': 'Nyveien 7',
      'businessAddress.postalCode': '0150',
    });
    expect(address.before['businessAddress.street']).toBe(oldAddress.adresse![0]);
    expect(address.fieldsChanged).toEqual(Object.keys(address.after));
    expect(address.fieldsChanged.every((f) => f.startsWith('businessAddress.'))).toBe(true);

    expect(byCategory.roles).toMatchObject({
      type: 'ceo_changed',
      fieldsChanged: ['ceo'],
      before: { ceo: `${oldCeo.person.navn.fornavn} ${oldCeo.person.navn.etternavn}` },
      after: { ceo: 'Ny Leder' },
    });
    // Never a birth date (nor a national id) in an event.
    expect(JSON.stringify(events)).not.toContain('1970-05-05');

    // The same data again: nothing new.
    publishChange();
    await runJob(server.ctx, 'brreg-updates', {}, quiet);
    expect((await server.ctx.repos.eventLog.bounds()).lastSeq).toBe(lastSeq + 3);
  });

  it('a removed company becomes a `deleted` event with no values', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    const removed = companies[1].enhet.organisasjonsnummer;
    brreg.gone.add(removed);
    brreg.updates.enheter.push({ oppdateringsid: nextId++, organisasjonsnummer: removed, endringstype: 'Fjernet' });
    await runJob(server.ctx, 'brreg-updates', {}, quiet);
    const events = (await server.ctx.repos.eventLog.list(lastSeq, {}, 10)).events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      orgNumber: removed,
      category: 'deleted',
      type: 'removed',
      before: {},
      after: {},
    });
  });

  it('a rolled-back batch leaves no event and no used seq', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    const c = companies[2];
    const core = (await import('../../src/sources/brreg/map.ts')).mapEnhet({ ...c.enhet, navn: 'RULLET TILBAKE AS' });
    // One statement that would change the same company twice fails (PostgreSQL refuses it), so
    // the whole batch rolls back, and its events with it.
    await expect(
      server.ctx.repos.companyWrites.write([{ core }, { core: { ...core, name: 'TO GANGER AS' } }]),
    ).rejects.toThrow();
    expect((await server.ctx.repos.eventLog.bounds()).lastSeq).toBe(lastSeq);
    await server.ctx.repos.companyWrites.write([{ core }]);
    const events = (await server.ctx.repos.eventLog.list(lastSeq, {}, 10)).events;
    expect(events).toEqual([expect.objectContaining({ seq: lastSeq + 1, category: 'name', type: 'name_changed' })]);
  });
});

describe('events of accounts and sub-units written beside the core', () => {
  const owner = companies[3].enhet.organisasjonsnummer;
  const accounts = (periodTo: string, revenue: number): FinancialInput => ({
    upstreamId: null,
    accountsType: 'SELSKAP',
    periodFrom: `${periodTo.slice(0, 4)}-01-01`,
    periodTo,
    currency: 'NOK',
    revenue,
    operatingProfit: 120_000,
    netResult: 90_000,
    equity: 400_000,
    totalAssets: 1_000_000,
    totalLiabilities: 600_000,
    source: 'Regnskapsregisteret',
  });
  const appended = async (write: () => Promise<unknown>) => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    await write();
    return (await server.ctx.repos.eventLog.list(lastSeq, {}, 10)).events;
  };
  const writeAccounts = (financials: FinancialInput[]) =>
    appended(() => server.ctx.repos.companyWrites.writeParts('NO', [{ orgNumber: owner, financials }]));

  it('new and restated accounts raise accounts events with only the moved figures; a first load and a re-run none', async () => {
    expect(await writeAccounts([accounts('2024-12-31', 5_000_000)])).toEqual([]);
    const filed = await writeAccounts([accounts('2024-12-31', 5_000_000), accounts('2025-12-31', 6_500_000)]);
    expect(filed).toHaveLength(1);
    expect(filed[0]).toMatchObject({
      orgNumber: owner,
      category: 'accounts',
      type: 'accounts_figures_published',
      source: 'Regnskapsregisteret',
    });
    expect(filed[0].fieldsChanged).toContain('accounts.2025-12-31:SELSKAP.revenue');
    expect(filed[0].after).toMatchObject({ 'accounts.2025-12-31:SELSKAP.revenue': 6_500_000 });
    expect(filed[0].before).toMatchObject({ 'accounts.2025-12-31:SELSKAP.revenue': null });
    expect(await writeAccounts([accounts('2024-12-31', 5_000_000), accounts('2025-12-31', 6_500_000)])).toEqual([]);
    const restated = await writeAccounts([accounts('2025-12-31', 6_400_000)]);
    expect(restated).toEqual([
      expect.objectContaining({
        type: 'accounts_figures_corrected',
        fieldsChanged: ['accounts.2025-12-31:SELSKAP.revenue'],
        before: { 'accounts.2025-12-31:SELSKAP.revenue': 6_500_000 },
        after: { 'accounts.2025-12-31:SELSKAP.revenue': 6_400_000 },
      }),
    ]);
  });

  it('a changed sub-unit written with its parent raises a subUnits event; a new one and a re-run none', async () => {
    const unit = (name: string): SubUnitInput => ({
      orgNumber: '999888777',
      parentOrgNumber: owner,
      name,
      orgFormCode: 'BEDR',
      naceCode1: '47.110',
      naceDescription1: null,
      employeeCount: 4,
      address: null,
      startDate: '2020-01-01',
      closureDate: null,
      isDeleted: false,
    });
    const core = mapEnhet(brreg.enheter.get(owner)!);
    const writeUnits = (subUnits: SubUnitInput[]) =>
      appended(() => server.ctx.repos.companyWrites.write([{ core, subUnits }]));
    expect(await writeUnits([unit('FILIAL SENTRUM')])).toEqual([]);
    expect(await writeUnits([unit('FILIAL TORGET')])).toEqual([
      expect.objectContaining({
        orgNumber: owner,
        category: 'subUnits',
        type: 'sub_units_changed',
        after: { subUnits: ['999888777'] },
      }),
    ]);
    expect(await writeUnits([unit('FILIAL TORGET')])).toEqual([]);
  });
});
