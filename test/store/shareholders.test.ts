// Shareholder import through the sync job and the repository, on the engine of this run.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importYear, redactPersonalNumbers } from '../../src/jobs/shareholders.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { ShareholderParseError } from '../../src/sources/aksjonaer/parse.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import {
  byCompany,
  byForeign,
  byPerson,
  company,
  csvText,
  org,
  SAMPLE,
  writeRegister,
  removeRegisters,
} from '../fixtures/aksjonaer/build.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
  removeRegisters();
});

const db = () => server.ctx.store.db;
const run = (opts: { file: string; year?: number }) => runJob(server.ctx, 'shareholders', opts, () => undefined);
const count = async (where = sql`true`) =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM shareholdings WHERE ${where}`.execute(db())).rows[0].n;
const visible = async (year: number) =>
  (
    await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM shareholdings s JOIN shareholder_years y ON y.year = s.year AND y.run_id = s.run_id WHERE s.year = ${year}`.execute(
      db(),
    )
  ).rows[0].n;

describe('shareholders import', () => {
  it('imports the real sample rows with the expected classification, keeping no address for persons', async () => {
    const r = await run({ file: SAMPLE, year: 2019 });
    expect(r.recordsProcessed).toBe(5);
    expect(r.details).toMatchObject({
      year: 2019,
      rows: 5,
      holders: { company: 0, person: 2, foreign: 3 },
      replacedEarlierImport: false,
    });
    const rows = await db()
      .selectFrom('shareholdings')
      .selectAll()
      .where('year', '=', 2019)
      .orderBy('org_number')
      .orderBy('share_count')
      .execute();
    expect(
      rows.map((x) => [
        x.org_number,
        x.holder_type,
        x.holder_name,
        x.holder_birth_year,
        x.postal_code,
        x.country_code,
        x.share_count,
        x.total_shares,
      ]),
    ).toEqual([
      ['916258720', 'foreign', 'UAB "ERA CAPITAL" (SELSKAP)', null, '08240', 'LT', 115178, 93957660],
      ['979938799', 'person', 'OLA NORDMANN', 1980, null, 'NO', 10, 1838457834],
      ['979938799', 'person', null, 1980, null, 'NO', 10, 1838457834],
      ['998367891', 'foreign', 'PARIR AB', null, 'S-51', 'SE', 60, 100],
      ['998858690', 'foreign', '"IF P INSURANCE HOLDING LTD (PUBL', null, '10680', 'SE', 820378, 820528],
    ]);
    expect(rows.filter((x) => x.holder_type === 'person').every((x) => x.postal_place === null)).toBe(true);
    expect(await server.ctx.repos.shareholders.years()).toContain(2019);
  });

  it('rejects a malformed file naming the line, and keeps the year as it was', async () => {
    const good = writeRegister('aksjeeierbok_2020.csv', [
      byCompany(org(1), 'A AS', org(2), 'B AS', 60, 100),
      byPerson(org(1), 'A AS', 'KARI NORDMANN', 1970, 40, 100),
    ]);
    expect((await run({ file: good })).details).toMatchObject({ year: 2020, rows: 2 });
    const lines = [byCompany(org(3), 'C AS', org(2), 'B AS', 10, 100)];
    const text = csvText(Array(7000).fill(lines[0])) + `${org(3)};C AS;Ordinære aksjer;X;1980;;NO;ti;100\r\n`;
    const bad = writeRegister('aksjeeierbok_2020.csv', text);
    const err = await run({ file: bad }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ShareholderParseError);
    expect((err as Error).message).toBe(
      'Aksjonærregisteret CSV line 7002: Antall aksjer must be a whole number, got "ti"',
    );
    // The first 7000 lines were written in batches before the bad line: all of them are gone.
    expect(await visible(2020)).toBe(2);
    expect(await count(sql`year = 2020`)).toBe(2);
    const runs = await db()
      .selectFrom('sync_runs')
      .selectAll()
      .where('source', '=', 'shareholders')
      .orderBy('id', 'desc')
      .execute();
    expect(runs[0]).toMatchObject({ status: 'error', message: expect.stringContaining('line 7002') });
  });

  it('replaces a re-imported year atomically and leaves other years alone', async () => {
    await run({ file: writeRegister('aksjeeierbok_2021.csv', [byCompany(org(10), 'D AS', org(11), 'E AS', 1, 2)]) });
    const before2020 = await visible(2020);
    const r = await run({
      file: writeRegister('x.csv', [
        byCompany(org(10), 'D AS', org(11), 'E AS', 3, 4),
        byForeign(org(10), 'D AS', 'F AB', 1, 4),
      ]),
      year: 2021,
    });
    expect(r.details).toMatchObject({ year: 2021, rows: 2, replacedEarlierImport: true });
    const rows = await db()
      .selectFrom('shareholdings')
      .select(['share_count', 'holder_type'])
      .where('year', '=', 2021)
      .orderBy('share_count')
      .execute();
    expect(rows).toEqual([
      { share_count: 1, holder_type: 'foreign' },
      { share_count: 3, holder_type: 'company' },
    ]);
    expect(await visible(2020)).toBe(before2020);
    expect(await visible(2019)).toBe(5);
    // No rows of replaced or failed runs are left behind.
    expect(await count()).toBe((await visible(2019)) + (await visible(2020)) + (await visible(2021)));
  });

  it('removes what a killed import left behind', async () => {
    const killed = await server.ctx.repos.syncRuns.start('shareholders');
    await server.ctx.repos.shareholders.stage(killed, 2021, [
      {
        orgNumber: org(20),
        companyName: 'G AS',
        shareClass: 'A',
        holderType: 'foreign',
        holderName: 'H',
        holderOrgNumber: null,
        holderBirthYear: null,
        postalCode: null,
        postalPlace: null,
        countryCode: 'SE',
        shareCount: 1,
        totalSharesInCompany: 1,
      },
    ]);
    expect(await count(sql`run_id = ${killed}`)).toBe(1);
    await run({ file: writeRegister('aksjeeierbok_2022.csv', [byForeign(org(21), 'I AS', 'J AB', 1, 1)]) });
    expect(await count(sql`run_id = ${killed}`)).toBe(0);
  });

  it('refuses a file with no rows rather than emptying the year', async () => {
    const err = await run({ file: writeRegister('aksjeeierbok_2022.csv', csvText([])) }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/no shareholder rows; nothing imported/);
    expect(await visible(2022)).toBe(1);
  });

  it('never repeats a national id or birth date from a bad line', async () => {
    const text = csvText([]) + `${org(30)};K AS;Ordinære aksjer;PER HANSEN;01017012345;0150 OSLO;NO;1;1\r\n`;
    const err = await run({ file: writeRegister('aksjeeierbok_2023.csv', text) }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ShareholderParseError);
    expect((err as Error).message).toContain('line 2');
    expect((err as Error).message).not.toContain('01017012345');
    const last = await db()
      .selectFrom('sync_runs')
      .select('message')
      .where('source', '=', 'shareholders')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.message).not.toContain('01017012345');
    expect(redactPersonalNumbers('got "01.01.1970" and "1970-01-01" and "010170"')).toBe(
      'got "[date removed]" and "[date removed]" and "[number removed]"',
    );
  });

  it('takes the year from --year, else from the file name, else asks for --year', () => {
    expect(importYear({ file: '/x/aksjeeierbok_2024.csv' })).toBe(2024);
    expect(importYear({ file: '/x/Aksjeeierbok-2023.csv.gz', year: 2019 })).toBe(2019);
    expect(importYear({ url: 'https://example.test/files/aksjeeierbok_2022.csv?token=1' })).toBe(2022);
    expect(() => importYear({ file: '/x/register.csv' })).toThrow(/--year/);
  });
});

describe('derived owners', () => {
  it('finds the majority owner and the largest shareholder over all share classes of the latest year', async () => {
    const [x, y, p, q] = [org(40), org(41), org(42), org(43)];
    await server.ctx.repos.companyWrites.write([company(x, 'X AS'), company(y, 'Y AS')]);
    await run({
      year: 2030,
      file: writeRegister('a.csv', [
        // X: P holds 30 of 100 A-shares and all 50 B-shares (no total given: the sum of positions)
        byCompany(x, 'X AS', p, 'P AS', 30, 100, 'A-aksjer'),
        byPerson(x, 'X AS', 'OLA NORDMANN', 1980, 70, 100, 'A-aksjer'),
        byCompany(x, 'X AS', p, 'P AS', 50, null, 'B-aksjer'),
        // Y: nobody above 50 %; the largest is a person (named only)
        byPerson(y, 'Y AS', 'KARI NORDMANN', 1975, 40, 100),
        byCompany(y, 'Y AS', q, 'Q AS', 35, 100),
        byForeign(y, 'Y AS', 'R AB', 25, 100),
      ]),
    });
    const owners = await server.ctx.repos.shareholders.ownersOf([x, y, org(44)]);
    // P: (30 + 50) / (100 + 50) = 53.33 %
    expect(owners.get(x)).toEqual({
      majorityOwner: { name: 'P AS', orgNumber: p, ownershipPct: 53.333333, year: 2030 },
      largestShareholder: { name: 'P AS', orgNumber: p, ownershipPct: 53.333333, year: 2030 },
    });
    expect(owners.get(y)).toEqual({
      majorityOwner: null,
      largestShareholder: { name: 'KARI NORDMANN', orgNumber: null, ownershipPct: 40, year: 2030 },
    });
    expect(owners.has(org(44))).toBe(false);
    const [stored] = await server.ctx.repos.companyReads.load('NO', [x], {});
    expect(stored.owners?.majorityOwner?.orgNumber).toBe(p);
    const row = await db()
      .selectFrom('companies')
      .select(['parent_org_number', 'parent_source', 'is_in_group'])
      .where('org_number', '=', x)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ parent_org_number: p, parent_source: 'shareholders', is_in_group: true });
  });
});
