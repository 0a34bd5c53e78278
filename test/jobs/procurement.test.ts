// `ncd sync procurement` end to end on a real store: the recorded Doffin and TED notices from
// files (a notice in both sources stored once), a tender moving to AWARDED when its result
// arrives, re-syncs that change no updatedAt, malformed notices skipped and logged by id, and the
// network sync against fake Doffin and TED APIs (subscription key, incremental --since and state,
// the doffin/ted data sources of health).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { startFakeProcurement, type FakeProcurement } from '../fakes/procurement/server.ts';
import { noticeXml } from '../fakes/procurement/notices.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/procurement');
const COMPETITION = '3f1c9a52-6d0e-4b7a-9a7e-1c2d3e4f5a60';
const SECRET = 'procurement-sync-secret';
const clock = new FakeClock(new Date('2026-11-20T12:00:00Z'));

let fake: FakeProcurement;
let server: TestServer;
let dir: string;

const run = (opts: Parameters<typeof runJob>[2] = {}) => runJob(server.ctx, 'procurement', opts, () => undefined);
const query = async (q: string, params: unknown[] = []) =>
  (await server.ctx.store.pool.query(q, params)).rows as Record<string, any>[];
const snapshot = () =>
  query(`SELECT eforms_id, notice_id, doffin_id, ted_id, outcome, synced_at::text AS synced_at, xmin::text AS xmin
    FROM procurement_notices ORDER BY eforms_id`);

beforeAll(async () => {
  fake = await startFakeProcurement();
  dir = await mkdtemp(path.join(os.tmpdir(), 'ncd-procurement-'));
  server = await startServer({
    env: {
      DOFFIN_BASE_URL: `${fake.url}/doffin`,
      TED_BASE_URL: `${fake.url}/ted`,
      DOFFIN_API_KEY: 'doffin-test-key',
      SYNC_SECRET: SECRET,
    },
    overrides: { clock },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('procurement sync from files', () => {
  it('moves a tender to AWARDED when the result of its procedure arrives', async () => {
    const first = await run({ file: path.join(FIXTURES, 'doffin/2026-107304.xml') });
    expect(first.details).toMatchObject({ read: 1, skipped: 0, inserted: 1 });
    const [before] = await query(`SELECT outcome, doffin_id, synced_at FROM procurement_notices WHERE eforms_id = $1`, [
      COMPETITION,
    ]);
    expect(before).toMatchObject({ outcome: null, doffin_id: '2026-107304' });

    clock.advance(1000);
    const second = await run({ file: path.join(FIXTURES, 'doffin/2026-109851.xml') });
    expect(second.details).toMatchObject({ read: 1, inserted: 1, linked: 2 });
    const rows = await query(`SELECT eforms_id, notice_type, outcome, synced_at FROM procurement_notices ORDER BY id`);
    expect(rows.map((r) => [r.notice_type, r.outcome])).toEqual([
      ['competition', 'AWARDED'],
      ['result', 'AWARDED'],
    ]);
    expect(new Date(rows[0].synced_at).getTime()).toBeGreaterThan(new Date(before.synced_at).getTime());
  });

  it('stores a notice that Doffin and TED both publish once, with both ids', async () => {
    await run({ file: path.join(FIXTURES, 'doffin') });
    const ted = await run({ file: path.join(FIXTURES, 'ted') });
    expect(ted.details).toMatchObject({ read: 3, skipped: 0, inserted: 2, changed: 1 });
    const rows = await snapshot();
    expect(rows).toHaveLength(5);
    const competition = rows.find((r) => r.eforms_id === COMPETITION)!;
    expect(competition).toMatchObject({ notice_id: '2026-107304', doffin_id: '2026-107304', ted_id: '712345-2026' });
    expect(rows.filter((r) => r.doffin_id === null).map((r) => r.notice_id)).toEqual(['745678-2026', '751234-2026']);
    expect(Object.fromEntries(rows.map((r) => [r.notice_id, r.outcome]))).toEqual({
      '2026-107304': 'AWARDED',
      '2026-109851': 'AWARDED',
      '2026-110422': 'CANCELLED',
      '745678-2026': 'AWARDED',
      '751234-2026': 'CANCELLED',
    });
  });

  it('changes no row (and no updatedAt) when the same notices are synced again', async () => {
    const before = await snapshot();
    clock.advance(60_000);
    for (const source of ['doffin', 'ted', 'doffin']) {
      const again = await run({ file: path.join(FIXTURES, source) });
      expect(again.details).toMatchObject({ inserted: 0, changed: 0, linked: 0 });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('skips malformed notices, logs each by id, and loads the rest', async () => {
    const good = noticeXml({
      eformsId: 'aa000000-0000-4000-8000-000000000001',
      procedureId: 'pp000000-0000-4000-8000-000000000001',
      kind: 'competition',
      title: 'Levering av kontorrekvisita',
      buyerOrg: '974760673',
      cpv: ['30192000'],
      issuedAt: '2026-11-18T08:00:00Z',
      deadline: '2026-12-20T12:00:00Z',
    });
    const xml = await readFile(path.join(FIXTURES, 'doffin/2026-107304.xml'), 'utf8');
    await writeFile(path.join(dir, '2026-200001.xml'), good);
    await writeFile(path.join(dir, '2026-200002.xml'), xml.slice(0, 1500));
    await writeFile(path.join(dir, '2026-200003.xml'), '{"not": "xml"}');
    await writeFile(
      path.join(dir, '2026-200004.xml'),
      xml.replace(/<cbc:ID schemeName="notice-id">[^<]*<\/cbc:ID>/, ''),
    );
    const warn = vi.spyOn(server.ctx.log, 'warn');
    try {
      const r = await run({ file: dir });
      expect(r.details).toMatchObject({ read: 4, skipped: 3, inserted: 1 });
      expect(r.recordsProcessed).toBe(1);
      const logged = warn.mock.calls.map((c) => (c[0] as { noticeId?: string }).noticeId).sort();
      expect(logged).toEqual(['2026-200002.xml', '2026-200003.xml', '2026-200004.xml']);
    } finally {
      warn.mockRestore();
    }
    const [stored] = await query(`SELECT notice_id, org_number FROM procurement_notices WHERE eforms_id = $1`, [
      'aa000000-0000-4000-8000-000000000001',
    ]);
    expect(stored).toEqual({ notice_id: '2026-200001', org_number: '974760673' });
  });
});

describe("procurement sync of the SDKs' example notices", () => {
  it('cancels the EU SDK competition by its void change notice, and links Narvik kommune by org number', async () => {
    const r = await run({ file: path.join(FIXTURES, 'sdk') });
    expect(r.details).toMatchObject({ read: 3, skipped: 0, inserted: 3 });
    const rows = await query(
      `SELECT eforms_id, notice_type, outcome FROM procurement_notices
        WHERE procedure_id IN ('4805c409-5939-4be9-8abd-837f7a5fee23', '022d0ef9-6338-42d9-afa4-a87709128061')
        ORDER BY eforms_id`,
    );
    expect(rows).toEqual([
      { eforms_id: '1d192942-a4a3-4833-8775-ca38f7ec09ca', notice_type: 'cancellation', outcome: 'CANCELLED' },
      { eforms_id: '65667997-031a-4198-bd25-7225449ef479', notice_type: 'result', outcome: 'AWARDED' },
      { eforms_id: 'f42be27e-09cf-4f0e-a745-63ec689631e6', notice_type: 'competition', outcome: 'CANCELLED' },
    ]);
    await run({ file: path.join(FIXTURES, 'sdk-nor/2023-100270.xml') });
    const [narvik] = await query(
      `SELECT notice_id, org_number, buyer_name, deadline, estimated_value::float AS value, currency
        FROM procurement_notices WHERE eforms_id = '88a624c9-bf0d-401b-a569-a87a6ce9a669'`,
    );
    expect({ ...narvik, deadline: new Date(narvik.deadline).toISOString() }).toEqual({
      notice_id: '2023-100270',
      org_number: '959469059',
      buyer_name: 'Narvik kommune',
      deadline: '2023-11-29T22:59:59.000Z',
      value: 15900000,
      currency: 'NOK',
    });
  });
});

describe('procurement sync from the Doffin and TED APIs', () => {
  it('downloads the notices published since --since from both, with the Doffin key, and records both sources', async () => {
    await server.ctx.store.pool.query('DELETE FROM procurement_notices');
    for (const file of ['2026-107304', '2026-109851', '2026-110422']) {
      const xml = await readFile(path.join(FIXTURES, `doffin/${file}.xml`), 'utf8');
      fake.doffin.set(file, { issueDate: file === '2026-109851' ? '2027-01-25' : '2026-11-02', xml });
    }
    for (const file of ['00712345-2026', '00745678-2026', '00751234-2026']) {
      const xml = await readFile(path.join(FIXTURES, `ted/${file}.xml`), 'utf8');
      fake.ted.set(file.replace(/^0+/, ''), { publicationDate: '2026-11-13', xml });
    }
    // Listed but not downloadable: skipped like a malformed notice.
    fake.doffin.set('2026-999999', { issueDate: '2026-11-03', xml: undefined as unknown as string });

    const r = await run({ since: '2026-11-01' });
    expect(r.details).toMatchObject({ read: 7, skipped: 1, inserted: 5, changed: 1 });
    expect((await snapshot()).map((s) => s.notice_id).sort()).toEqual([
      '2026-107304',
      '2026-109851',
      '2026-110422',
      '745678-2026',
      '751234-2026',
    ]);
    const doffinCalls = fake.requests.filter((q) => q.path.startsWith('/doffin/'));
    expect(doffinCalls.length).toBeGreaterThan(0);
    expect(doffinCalls.every((q) => q.apiKey === 'doffin-test-key')).toBe(true);
    expect(fake.requests.filter((q) => q.path.startsWith('/ted/')).every((q) => q.apiKey === undefined)).toBe(true);
    expect(doffinCalls[0].query).toContain('issueDateFrom=2026-11-01');
    expect(JSON.parse(fake.requests.find((q) => q.path === '/ted/v3/notices/search')!.body).query).toContain(
      'publication-date>=20261101',
    );

    const health = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } });
    expect(health.body.records.procurementNotices).toBe(5);
    expect(health.body.dataSources.doffin).toMatchObject({ status: 'ok', recordsProcessed: 4 });
    expect(health.body.dataSources.ted).toMatchObject({ status: 'ok', recordsProcessed: 3 });
  });

  it('continues from the newest notice of the last run (Doffin 10 days behind), downloading no stored notice', async () => {
    fake.requests.length = 0;
    const r = await run();
    expect(r.details).toMatchObject({ read: 0, inserted: 0, changed: 0 });
    const doffin = fake.requests.find((q) => q.path === '/doffin/search')!;
    // The newest Doffin notice was issued 2027-01-25; Doffin publishes up to a week after issue.
    expect(doffin.query).toContain('issueDateFrom=2027-01-15');
    const ted = fake.requests.find((q) => q.path === '/ted/v3/notices/search')!;
    expect(JSON.parse(ted.body).query).toContain('publication-date>=20261112');
    // Every listed notice is stored already: none is downloaded again.
    expect(fake.requests.filter((q) => q.path.startsWith('/doffin/download/') || q.path.endsWith('/xml'))).toEqual([]);
  });

  it('downloads a notice new since the last run, issued before its newest notice', async () => {
    fake.requests.length = 0;
    const late = noticeXml({
      eformsId: 'bb000000-0000-4000-8000-000000000001',
      procedureId: 'bb000000-0000-4000-8000-0000000000f1',
      kind: 'competition',
      title: 'Drift av sentralbord',
      buyerOrg: '974760673',
      cpv: ['79511000'],
      issuedAt: '2027-01-20T09:00:00Z',
      deadline: '2027-02-20T12:00:00Z',
    });
    fake.doffin.set('2027-100050', { issueDate: '2027-01-20', xml: late });
    const r = await run();
    expect(r.details).toMatchObject({ read: 1, inserted: 1 });
    expect(fake.requests.filter((q) => q.path.startsWith('/doffin/download/')).map((q) => q.path)).toEqual([
      '/doffin/download/2027-100050',
    ]);
    // The state does not move back to the late notice's day.
    const again = await run();
    expect(again.details).toMatchObject({ read: 0 });
    expect(fake.requests.filter((q) => q.path === '/doffin/search').at(-1)!.query).toContain(
      'issueDateFrom=2027-01-15',
    );
  });

  it('reads stored notices again when --since is given', async () => {
    fake.requests.length = 0;
    const r = await run({ since: '2026-11-01' });
    expect(r.details).toMatchObject({ read: 8, skipped: 1, inserted: 0, changed: 0 });
  });
});
