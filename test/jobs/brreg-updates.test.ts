// The brreg update feed against the fake brreg: new, changed, deleted (Sletting) and removed
// (Fjernet) units, the stored position, accounts refreshed when a newer year was filed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPDATES_STATE } from '../../src/jobs/brreg.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import type { BrregUpdate } from '../../src/sources/brreg/types.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let brreg: FakeBrreg;
let server: TestServer;
const quiet = () => undefined;
const company = (i: number) => generateCompany(i, 21);
const live = Array.from({ length: 40 }, (_, i) => company(i)).filter(
  (c) => !c.enhet.slettedato && c.enhet.sisteInnsendteAarsregnskap,
);

beforeAll(async () => {
  brreg = await startFakeBrreg();
  for (const c of live.slice(0, 10)) brreg.add(c);
  server = await startServer({ overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url }) } } });
  // A full load from the (fake) registry sets the feed position.
  const r = await runJob(server.ctx, 'brreg', {}, quiet);
  expect(r.recordsProcessed).toBeGreaterThanOrEqual(10);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await brreg?.close();
});

const row = async (n: string) =>
  (
    await server.ctx.store.pool.query(
      'SELECT name, is_deleted, status, updated_at, last_submitted_accounts_year FROM companies WHERE org_number = $1',
      [n],
    )
  ).rows[0];

let nextId = 100;
function publish(entries: [string, BrregUpdate['endringstype']][]) {
  for (const [organisasjonsnummer, endringstype] of entries) {
    brreg.updates.enheter.push({
      oppdateringsid: nextId++,
      dato: new Date().toISOString(),
      organisasjonsnummer,
      endringstype,
    });
  }
}

describe('brreg-updates', () => {
  it('does nothing without a feed position', async () => {
    const fresh = await startServer({ overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url }) } } });
    try {
      brreg.resetCounters();
      const r = await runJob(fresh.ctx, 'brreg-updates', {}, quiet);
      expect(r).toMatchObject({ recordsProcessed: 0, details: { skipped: 'no position' } });
      expect(brreg.requests).toHaveLength(0);
    } finally {
      await fresh.close();
    }
  });

  it('applies new, changed, deleted and removed units and stores the position', async () => {
    const state = await server.ctx.repos.syncRuns.getState<{ enheterId: number }>(UPDATES_STATE);
    expect(state).toBeDefined();
    const [changed, deleted, removed, untouched] = live.slice(0, 4).map((c) => c.enhet.organisasjonsnummer);
    const fresh = live[12];
    const before = await row(untouched);

    brreg.add(fresh);
    brreg.enheter.set(changed, {
      ...brreg.enheter.get(changed)!,
      navn: 'NYTT NAVN AS',
      sisteInnsendteAarsregnskap: '2025',
    });
    brreg.regnskap.set(changed, [
      ...(brreg.regnskap.get(changed) ?? []),
      {
        id: 1,
        regnskapstype: 'SELSKAP',
        regnskapsperiode: { fraDato: '2025-01-01', tilDato: '2025-12-31' },
        valuta: 'NOK',
        resultatregnskapResultat: { driftsresultat: { driftsinntekter: { sumDriftsinntekter: 123456 } } },
      },
    ]);
    brreg.enheter.set(deleted, {
      organisasjonsnummer: deleted,
      navn: brreg.enheter.get(deleted)!.navn,
      slettedato: '2026-11-01',
    });
    brreg.gone.add(removed);
    publish([
      [fresh.enhet.organisasjonsnummer, 'Ny'],
      [changed, 'Endring'],
      [deleted, 'Sletting'],
      [removed, 'Fjernet'],
      [changed, 'Endring'],
    ]);

    const r = await runJob(server.ctx, 'brreg-updates', {}, quiet);
    expect(r.recordsProcessed).toBe(5);
    expect(await row(fresh.enhet.organisasjonsnummer)).toMatchObject({ is_deleted: false });
    expect(await row(changed)).toMatchObject({ name: 'NYTT NAVN AS', last_submitted_accounts_year: '2025' });
    const accounts = await server.ctx.store.pool.query(
      `SELECT f.revenue FROM financials f JOIN companies c ON c.id = f.company_id WHERE c.org_number = $1 AND f.period_to = '2025-12-31'`,
      [changed],
    );
    expect(accounts.rows[0].revenue).toBe(123456);
    expect(await row(deleted)).toMatchObject({ is_deleted: true, status: 'deleted' });
    expect(await row(removed)).toBeUndefined();
    expect((await row(untouched)).updated_at).toEqual(before.updated_at);

    const after = await server.ctx.repos.syncRuns.getState<{ enheterId: number }>(UPDATES_STATE);
    expect(after!.enheterId).toBe(nextId);

    // A second run has nothing new: no requests beyond the (empty) feed pages.
    brreg.resetCounters();
    const again = await runJob(server.ctx, 'brreg-updates', {}, quiet);
    expect(again.recordsProcessed).toBe(0);
    expect(brreg.requests.every((q) => q.path.includes('/oppdateringer/'))).toBe(true);
  });

  it('applies pages in feed order while reading the next page ahead', async () => {
    // Page 1 (1,000 entries) renames a unit; page 2 removes it. The job reads page 2 while it
    // writes page 1, so this checks that the read ahead never lets page 2's purge overtake
    // page 1's write: the unit must end removed, and the position after page 2.
    const target = live.find((c) => !brreg.gone.has(c.enhet.organisasjonsnummer) && c !== live[12])!;
    const n = target.enhet.organisasjonsnummer;
    brreg.enheter.set(n, { ...brreg.enheter.get(n)!, navn: 'SIDE EN AS' });
    publish(Array.from({ length: 1000 }, () => [n, 'Endring'] as [string, BrregUpdate['endringstype']]));
    publish([[n, 'Fjernet']]);
    const r = await runJob(server.ctx, 'brreg-updates', {}, quiet);
    brreg.gone.add(n);
    expect(r.recordsProcessed).toBe(1001);
    expect(await row(n)).toBeUndefined();
    const after = await server.ctx.repos.syncRuns.getState<{ enheterId: number }>(UPDATES_STATE);
    expect(after!.enheterId).toBe(nextId);
  });

  it('applies sub-unit updates: new, closed and removed', async () => {
    const parent = live.find((c) => c.underenheter.length > 0 && !brreg.gone.has(c.enhet.organisasjonsnummer))!;
    const unit = parent.underenheter[0];
    brreg.underenheter.set(unit.organisasjonsnummer, { ...unit, navn: 'FLYTTET AVDELING' });
    brreg.updates.underenheter.push({
      oppdateringsid: 7,
      organisasjonsnummer: unit.organisasjonsnummer,
      endringstype: 'Endring',
    });
    await runJob(server.ctx, 'brreg-updates', {}, quiet);
    const sub = await server.ctx.store.pool.query('SELECT name FROM sub_units WHERE org_number = $1', [
      unit.organisasjonsnummer,
    ]);
    expect(sub.rows[0].name).toBe('FLYTTET AVDELING');

    brreg.gone.add(unit.organisasjonsnummer);
    brreg.updates.underenheter.push({
      oppdateringsid: 8,
      organisasjonsnummer: unit.organisasjonsnummer,
      endringstype: 'Fjernet',
    });
    await runJob(server.ctx, 'brreg-updates', {}, quiet);
    expect(
      (await server.ctx.store.pool.query('SELECT 1 FROM sub_units WHERE org_number = $1', [unit.organisasjonsnummer]))
        .rowCount,
    ).toBe(0);
  });
});
