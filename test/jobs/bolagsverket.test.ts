// The Swedish sync end to end on a real store: the Bolagsverket bulk file from a local fake
// download (ZIP), or from --file as ZIP or plain text.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { startFakePrh, zipOf, type FakePrh } from '../fakes/prh/server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const BULK_PATH = '/bolagsverket/bolagsverket_bulkfil.zip';
const quirks = readFileSync(new URL('../fixtures/bolagsverket/bulkfil-quirks.txt', import.meta.url), 'utf8');
const lines = quirks.split('\n');
/** The quirks file without the line of one company. */
const without = (orgNumber: string) => lines.filter((l) => !l.includes(`${orgNumber}$ORGNR`)).join('\n');

let host: FakePrh;
let server: TestServer;
let dir: string;
const messages: string[] = [];
const run = (opts: Parameters<typeof runJob>[2] = {}) =>
  runJob(server.ctx, 'bolagsverket', opts, (m) => messages.push(m));

async function swedishRows() {
  const r = await sql<{ org_number: string; updated_at: Date; is_deleted: boolean; status: string }>`
    SELECT org_number, updated_at, is_deleted, status FROM companies WHERE country = 'SE' ORDER BY org_number`.execute(
    server.ctx.store.db,
  );
  return new Map(r.rows.map((x) => [x.org_number, { ...x, updated_at: new Date(x.updated_at).toISOString() }]));
}

async function textFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

beforeAll(async () => {
  host = await startFakePrh();
  host.files.set(BULK_PATH, { body: await zipOf('bolagsverket_bulkfil.txt', quirks), contentType: 'application/zip' });
  server = await startServer({ env: { BOLAGSVERKET_BULK_URL: `${host.url}${BULK_PATH}` } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'bolagsverket-job-'));
});
afterAll(async () => {
  await server?.close();
  await host?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ncd sync bolagsverket', () => {
  it('downloads BOLAGSVERKET_BULK_URL and stores the organisations, never the sole traders', async () => {
    const r = await run();
    expect(host.requests.map((x) => x.path)).toEqual([BULK_PATH]);
    expect(r.recordsProcessed).toBe(8);
    expect(r.details).toMatchObject({
      inserted: 8,
      deregistered: 0,
      absentMarked: true,
      skippedPersons: 2,
      duplicates: 1,
      rejected: 2,
    });

    const rows = await swedishRows();
    expect([...rows.keys()]).toEqual([
      '5560000001',
      '5560001009',
      '5561234500',
      '5566778899',
      '5569999906',
      '7164555554',
      '7696123459',
      '9697123454',
    ]);
    // Personnummer-identified rows (sole traders) are neither stored nor echoed in reasons.
    expect(JSON.stringify(r.details)).not.toMatch(/191212121212|1212121212/);

    const c = await server.services.companies.lookup('SE', '5566778899');
    expect(c).toMatchObject({
      orgNumber: '5566778899',
      country: 'SE',
      name: 'Nordlys Logistik AB', // the FORETAGSNAMN, not the foreign-language name listed first
      orgFormCode: 'AB',
      orgFormDescription: 'Aktiebolag',
      orgFormName: 'Aktiebolag',
      countryName: 'Sverige',
      registrationDate: '2001-02-03',
      description: 'Transport och "logistik".',
      postalAddressStreet: 'c/o Ekonomibyrån, Storgatan 1',
      postalAddressPostalCode: '41101',
      postalAddressCity: 'GÖTEBORG',
      postalAddressCountryCode: 'SE',
      businessAddressStreet: null,
      naceCode1: null,
      isDeleted: false,
      status: 'registered',
    });
    expect(c._sources.fields).toMatchObject({ companyCore: 'Bolagsverket', orgFormLabel: 'Bolagsverket' });
    expect(await server.services.companies.lookup('SE', '9697123454')).toMatchObject({
      isDeleted: true,
      deletedDate: '2019-11-30',
      isBankrupt: true,
      status: 'deregistered',
    });
    expect(await server.services.companies.lookup('SE', '5561234500')).toMatchObject({
      isBeingDissolved: true,
      status: 'liquidation',
    });
    expect(await server.services.companies.lookup('SE', '5560001009')).toMatchObject({ name: 'Dubbel AB' });
  });

  it('changes no updatedAt on a second identical run, from a ZIP or the plain text file', async () => {
    const before = await swedishRows();
    const zip = path.join(dir, 'bulk.zip');
    await writeFile(zip, await zipOf('bolagsverket_bulkfil.txt', quirks));
    expect((await run({ file: zip })).details).toMatchObject({
      inserted: 0,
      changed: 0,
      unchanged: 8,
      deregistered: 0,
    });
    expect((await run({ file: await textFile('bulk.txt', quirks) })).details).toMatchObject({
      inserted: 0,
      changed: 0,
      unchanged: 8,
    });
    expect(await swedishRows()).toEqual(before);
  });

  it('marks a company removed from the file as deregistered (a change), and only that one', async () => {
    const before = await swedishRows();
    const r = await run({ file: await textFile('less.txt', without('5566778899')) });
    expect(r.details).toMatchObject({ processed: 7, changed: 0, deregistered: 1 });
    const after = await swedishRows();
    const changed = [...after.values()].filter((x) => x.updated_at !== before.get(x.org_number)!.updated_at);
    expect(changed).toEqual([
      expect.objectContaining({ org_number: '5566778899', is_deleted: true, status: 'deregistered' }),
    ]);
    const c = await server.services.companies.lookup('SE', '5566778899');
    expect(c).toMatchObject({ isDeleted: true, status: 'deregistered', name: 'Nordlys Logistik AB' });
    expect(c.updatedAt > before.get('5566778899')!.updated_at).toBe(true);
  });

  it('keeps absent companies when the file holds fewer than half of the live ones', async () => {
    const before = await swedishRows();
    messages.length = 0;
    const truncated = lines.slice(0, 2).join('\n') + '\n';
    const r = await run({ file: await textFile('truncated.txt', truncated) });
    expect(r.details).toMatchObject({ processed: 1, deregistered: 0, absentMarked: false });
    expect(messages.join('\n')).toContain('looks truncated');
    const after = await swedishRows();
    // The one company in the file is written back (it had been marked absent); nothing else moves.
    for (const [n, row] of after) if (n !== '5566778899') expect(row).toEqual(before.get(n));
    expect(after.get('5566778899')).toMatchObject({ is_deleted: false, status: 'registered' });
  });

  it('fails on a file with the wrong header, writing nothing', async () => {
    const before = await swedishRows();
    await expect(run({ file: await textFile('wrong.txt', 'a;b;c\n1;2;3\n') })).rejects.toThrow(/unexpected header/);
    expect(await swedishRows()).toEqual(before);
  });
});
