// Issue 26: the sources beside the registries append typed events in their sync's transaction —
// licences (TBR file over the fake file server), inspections (Mattilsynet's CSV from
// INSPECTIONS_URL), procurement (the fake Doffin API) and ownership (Aksjonærregisteret files).
// A first load appends none, a sync that changes data appends exactly the expected events with
// only the changed fields, and a re-run of identical data appends none. (The ownership events in
// full: test/e2e/owner-change-events.test.ts.)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import type { StoredEvent } from '../../src/store/events/event-log.ts';
import { byCompany, byPerson, org, removeRegisters, writeRegister } from '../fixtures/aksjonaer/build.ts';
import { startFakeFileServer, type FakeFileServer } from '../fakes/file-server.ts';
import { noticeXml } from '../fakes/procurement/notices.ts';
import { startFakeProcurement, type FakeProcurement } from '../fakes/procurement/server.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let files: FakeFileServer;
let procurement: FakeProcurement;
let server: TestServer;
const quiet = () => undefined;
const clock = new FakeClock(new Date('2026-11-20T12:00:00Z'));
const [BAR, KIOSK, WINNER1, WINNER2] = [orgNumberFor(1), orgNumberFor(2), orgNumberFor(3), orgNumberFor(4)];
const BUYER = '974760673';

beforeAll(async () => {
  files = await startFakeFileServer();
  procurement = await startFakeProcurement();
  server = await startServer({
    env: {
      INSPECTIONS_URL: `${files.url}/smilefjes-tilsyn.csv`,
      DOFFIN_BASE_URL: `${procurement.url}/doffin`,
      TED_BASE_URL: `${procurement.url}/ted`,
      DOFFIN_API_KEY: 'doffin-test-key',
    },
    overrides: { clock },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await files?.close();
  await procurement?.close();
  removeRegisters();
});

/** Runs a sync and returns the events it appended. */
async function eventsOf(sync: () => Promise<unknown>): Promise<StoredEvent[]> {
  const { lastSeq } = await server.ctx.repos.eventLog.bounds();
  await sync();
  return (await server.ctx.repos.eventLog.list(lastSeq, {}, 1000)).events;
}

const byType = (events: StoredEvent[]) => Object.fromEntries(events.map((e) => [`${e.type}:${e.orgNumber}`, e]));

describe('licence events', () => {
  const HEADER =
    'licenseNumber;registerType;licenseTypeCode;orgNumber;venueName;postnr;municipality;municipalityNo;validFrom;validTo';
  const sync = (rows: string[]) => {
    files.files.set('/tbr.csv', [HEADER, ...rows, ''].join('\n'));
    return runJob(server.ctx, 'licenses', { url: `${files.url}/tbr.csv` }, quiet);
  };
  const L1 = `L-1;Alkoholsbevilling;01SKJE;${BAR};Baren;0150;;;2024-01-01;2028-09-30`;
  const L2 = `L-2;Tobakksbevilling;19TBEK;${KIOSK};Kiosken;0150;;;2023-01-01;`;

  it('a first load appends none; a grant, a change and a removal append one event each; a re-run none', async () => {
    expect(await eventsOf(() => sync([L1, L2]))).toEqual([]);

    const changed = [
      L1.replace('2028-09-30', '2030-09-30'),
      `L-3;Alkoholsbevilling;01SKJE;${BAR};Terrassen;0150;;;2025-06-01;`,
    ];
    const events = await eventsOf(() => sync(changed));
    expect(events).toHaveLength(3);
    for (const e of events) expect(e).toMatchObject({ category: 'licence', country: 'NO' });
    const got = byType(events);
    expect(got[`licence_changed:${BAR}`]).toMatchObject({
      fieldsChanged: ['licences.Alkoholsbevilling:L-1.validTo'],
      before: { 'licences.Alkoholsbevilling:L-1.validTo': '2028-09-30T00:00:00.000Z' },
      after: { 'licences.Alkoholsbevilling:L-1.validTo': '2030-09-30T00:00:00.000Z' },
    });
    expect(got[`licence_granted:${BAR}`]).toMatchObject({
      before: { 'licences.Alkoholsbevilling:L-3.venueName': null },
      after: {
        'licences.Alkoholsbevilling:L-3.venueName': 'Terrassen',
        'licences.Alkoholsbevilling:L-3.licenseTypeCode': '01SKJE',
      },
    });
    // A field that is null before and after is no change.
    expect(got[`licence_granted:${BAR}`].fieldsChanged).not.toContain('licences.Alkoholsbevilling:L-3.validTo');
    expect(got[`licence_removed:${KIOSK}`]).toMatchObject({
      before: { 'licences.Tobakksbevilling:L-2.venueName': 'Kiosken' },
      after: { 'licences.Tobakksbevilling:L-2.venueName': null },
    });

    expect(await eventsOf(() => sync(changed))).toEqual([]);
  });
});

describe('inspection events', () => {
  let header: string;
  let sample: string;
  const row = (id: string, orgNumber: string, date: string, rating: number) =>
    sample
      .replace('999999999', orgNumber)
      .replace('Z2406251324396200239ZDBTB_TilsynAvtale', id)
      .replace(';25062024;1;', `;${date};${rating};`);
  const sync = (rows: string[]) => {
    files.files.set('/smilefjes-tilsyn.csv', [header, ...rows, ''].join('\n'));
    return runJob(server.ctx, 'inspections', {}, quiet);
  };

  beforeAll(async () => {
    const fixture = path.resolve(
      import.meta.dirname,
      '../fixtures/mattilsynet/smilefjes-tilsyn-header-and-illustrative-row.csv',
    );
    [header, sample] = (await readFile(fixture, 'utf8')).split(/\r?\n/);
  });

  it('a first load appends none; a new visit and a changed one append one event each; a re-run none', async () => {
    expect(await eventsOf(() => sync([row('T-1', BAR, '01022026', 0), row('T-2', KIOSK, '02022026', 1)]))).toEqual([]);

    const next = [row('T-1', BAR, '01022026', 2), row('T-2', KIOSK, '02022026', 1), row('T-3', KIOSK, '10112026', 3)];
    const events = await eventsOf(() => sync(next));
    expect(events).toHaveLength(2);
    const got = byType(events);
    expect(got[`inspection_changed:${BAR}`]).toMatchObject({
      category: 'inspection',
      source: 'Mattilsynet',
      fieldsChanged: ['inspections.T-1.totalRating'],
      before: { 'inspections.T-1.totalRating': 0 },
      after: { 'inspections.T-1.totalRating': 2 },
    });
    expect(got[`inspection_recorded:${KIOSK}`]).toMatchObject({
      category: 'inspection',
      before: { 'inspections.T-3.date': null, 'inspections.T-3.totalRating': null },
      after: { 'inspections.T-3.date': '2026-11-10', 'inspections.T-3.totalRating': 3 },
    });

    expect(await eventsOf(() => sync(next))).toEqual([]);
  });
});

describe('procurement events', () => {
  const PROCEDURE = 'pp000000-0000-4000-8000-00000000aaaa';
  const publish = (id: string, spec: Parameters<typeof noticeXml>[0]) =>
    procurement.doffin.set(id, { issueDate: spec.issuedAt.slice(0, 10), xml: noticeXml(spec) });
  const sync = () => runJob(server.ctx, 'procurement', { since: '2026-11-01' }, quiet);

  it('a first load appends none; an award appends one per winner, a new tender one on its buyer; a re-run none', async () => {
    const competition = {
      eformsId: 'ee000000-0000-4000-8000-000000000001',
      procedureId: PROCEDURE,
      kind: 'competition' as const,
      title: 'Renhold av rådhuset',
      buyerOrg: BUYER,
      cpv: ['90910000'],
      issuedAt: '2026-11-02T08:00:00Z',
      deadline: '2026-12-01T12:00:00Z',
    };
    publish('2026-300001', competition);
    expect(await eventsOf(sync)).toEqual([]);

    publish('2026-300002', {
      ...competition,
      eformsId: 'ee000000-0000-4000-8000-000000000002',
      kind: 'result',
      issuedAt: '2026-11-10T08:00:00Z',
      winners: [
        { org: WINNER1, name: 'Vask AS', value: 400_000 },
        { org: WINNER2, name: 'Skrubb AS', value: 300_000 },
      ],
    });
    publish('2026-300003', {
      ...competition,
      eformsId: 'ee000000-0000-4000-8000-000000000003',
      procedureId: 'pp000000-0000-4000-8000-00000000bbbb',
      title: 'Snøbrøyting',
      issuedAt: '2026-11-12T08:00:00Z',
    });
    const events = await eventsOf(sync);
    expect(events.map((e) => `${e.type}:${e.orgNumber}`).sort()).toEqual(
      [`contract_awarded:${WINNER1}`, `contract_awarded:${WINNER2}`, `tender_published:${BUYER}`].sort(),
    );
    const got = byType(events);
    expect(got[`contract_awarded:${WINNER1}`]).toMatchObject({
      category: 'procurement',
      source: 'Doffin',
      before: { 'awards.2026-300002.title': null },
      after: { 'awards.2026-300002.title': 'Renhold av rådhuset' },
    });
    expect(got[`tender_published:${BUYER}`]).toMatchObject({
      after: { 'tenders.2026-300003.title': 'Snøbrøyting', 'tenders.2026-300003.deadline': '2026-12-01T12:00:00.000Z' },
    });

    expect(await eventsOf(sync)).toEqual([]);
  });
});

describe('ownership events', () => {
  const [ACME, HOLD, OTHER] = [org(300), org(301), org(302)];
  const year = (y: number, lines: Parameters<typeof writeRegister>[1]) => () =>
    runJob(server.ctx, 'shareholders', { file: writeRegister(`aksjeeierbok_${y}.csv`, lines) }, quiet);

  it('a first import appends none; a new year that moves a holder by 5 points appends one event; the same again none', async () => {
    expect(
      await eventsOf(
        year(2023, [
          byCompany(ACME, 'ACME AS', HOLD, 'HOLDING AS', 500, 1000),
          byPerson(ACME, 'ACME AS', 'OLA NORDMANN', 1980, 500, 1000),
          byPerson(OTHER, 'ANDRE AS', 'KARI NORDMANN', 1975, 100, 100),
        ]),
      ),
    ).toEqual([]);

    const y2024 = [
      byCompany(ACME, 'ACME AS', HOLD, 'HOLDING AS', 600, 1000),
      byPerson(ACME, 'ACME AS', 'OLA NORDMANN', 1980, 390, 1000),
      byPerson(ACME, 'ACME AS', 'SMÅ SPARER', 1999, 10, 1000), // 1 %: not named
      byPerson(OTHER, 'ANDRE AS', 'KARI NORDMANN', 1975, 100, 100),
    ];
    const events = await eventsOf(year(2024, y2024));
    expect(events).toEqual([
      expect.objectContaining({
        orgNumber: ACME,
        category: 'ownership',
        type: 'owners_changed',
        source: 'Aksjonærregisteret',
        // As GET /ownership-changes lists 2023 → 2024: HOLDING rose 10 points; the persons (OLA fell
        // 11 points, SMÅ SPARER entered) are hidden; the largest owner stays HOLDING.
        fieldsChanged: ['year', 'rose'],
        before: { year: 2023, rose: [`HOLDING AS (${HOLD}): 50 %`] },
        after: { year: 2024, rose: [`HOLDING AS (${HOLD}): 60 %`] },
      }),
    ]);
    // No person is named, let alone with a birth year.
    expect(JSON.stringify(events)).not.toMatch(/1980|NORDMANN|SPARER/);

    expect(await eventsOf(year(2024, y2024))).toEqual([]);
  });
});
