// The CVR generator's documents through the real `--file` path: written gzipped, opened by
// openSyncInput as the cvr job does, parsed and mapped by parseCvrNdjson, and no line rejected.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidDanishCvrNumber } from '../../../src/domain/org-number.ts';
import { newCvrRejectLog, parseCvrNdjson, type CvrCompany } from '../../../src/sources/cvr/index.ts';
import { danishCheckDigit, generateCvrNdjson, generatedStatus } from '../../../src/sources/cvr/generate.ts';
import { openSyncInput } from '../../../src/sources/sync-input.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cvr-generate-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function parseFile(file: string): Promise<{ companies: CvrCompany[]; rejected: number }> {
  const rejects = newCvrRejectLog();
  const companies: CvrCompany[] = [];
  for await (const c of parseCvrNdjson((await openSyncInput({ file }, {})).stream, rejects)) companies.push(c);
  return { companies, rejected: rejects.rejected };
}

async function text(count: number, seed: number): Promise<string> {
  let out = '';
  for await (const chunk of generateCvrNdjson(count, seed)) out += String(chunk);
  return out;
}

describe('generated CVR NDJSON', () => {
  it('gives the check digit that makes the weighted sum divisible by 11, none when it would be 10', () => {
    expect(danishCheckDigit('3554000')).toBe(8); // 35540008, a fixture number
    expect(danishCheckDigit('4177000')).toBe(7);
    expect(danishCheckDigit('2000000')).toBe(7); // the first generated number, 20000007
    expect(danishCheckDigit('6000000')).toBeNull(); // 6·2 = 12 ≡ 1: the check would be 10
  });

  it('maps every document, gzipped through the sync input, with valid unique CVR numbers', async () => {
    const file = path.join(dir, 'virksomheder.ndjson.gz');
    await pipeline(generateCvrNdjson(400, 3), createGzip(), createWriteStream(file));
    const { companies, rejected } = await parseFile(file);
    expect(rejected).toBe(0);
    expect(companies).toHaveLength(400);
    const numbers = companies.map((c) => c.core.orgNumber);
    expect(numbers.every(isValidDanishCvrNumber)).toBe(true);
    expect(new Set(numbers).size).toBe(400);
    expect(numbers[0]).toBe('20000007');
    expect([...numbers].sort()).toEqual(numbers);

    for (const [i, c] of companies.entries()) {
      const status = generatedStatus(i);
      expect(c.core).toMatchObject({ country: 'DK', source: 'CVR', isDeleted: status === 'ceased' });
      if (status === 'ceased') {
        expect(c.core).toMatchObject({ status: 'deregistered' });
        expect(c.core.deletedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(c.roles).toEqual([]); // a ceased company's people are not mapped
        expect(c.subUnits.every((u) => u.isDeleted && u.closureDate === c.core.deletedDate)).toBe(true);
      } else {
        expect(c.core.deletedDate).toBeNull();
        expect(c.roles.length).toBeGreaterThan(0);
        expect(c.core.businessAddress).toMatchObject({
          countryCode: 'DK',
          postalCode: expect.stringMatching(/^\d{4}$/),
        });
        expect(c.core.businessAddress?.municipalityNumber).toMatch(/^\d{3}$/);
      }
      if (status === 'UNDER KONKURS') expect(c.core).toMatchObject({ status: 'bankruptcy', isBankrupt: true });
      if (status === 'UNDER FRIVILLIG LIKVIDATION')
        expect(c.core).toMatchObject({ status: 'liquidation', isBeingDissolved: true });
      expect(c.core.naceCode1).toMatch(/^\d{6}$/);
      expect(c.subUnits.length).toBeGreaterThan(0);
      expect(c.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
  });

  it('maps each legal form to its people, owners and employee figures', async () => {
    const file = path.join(dir, 'forms.ndjson.gz');
    await pipeline(generateCvrNdjson(400, 3), createGzip(), createWriteStream(file));
    const live = (await parseFile(file)).companies.filter((c) => !c.core.isDeleted);
    const byForm = (code: string) => live.filter((c) => c.core.orgFormCode === code);

    const soleTraders = byForm('ENK');
    expect(soleTraders.length).toBeGreaterThan(50);
    for (const c of soleTraders) {
      expect(c.core.name).toMatch(/ v\/\S+ \S+$/);
      expect(c.core.orgFormDescription).toBe('Enkeltmandsvirksomhed');
      expect(c.roles.map((r) => r.roleTypeCode)).toEqual(['INNH']);
      expect(c.owners).toEqual([]);
    }

    const aps = byForm('APS');
    expect(aps.length).toBeGreaterThan(50);
    for (const c of aps) {
      expect(c.core.name).toMatch(/ ApS$/);
      expect(c.roles[0]).toMatchObject({
        groupCode: 'Direktion',
        roleTypeCode: 'DAGL',
        roleTypeDescription: 'DIREKTØR',
      });
      expect(c.owners.length).toBeGreaterThan(0);
      // "Reelle ejere" are in every document and never become owners.
      expect(c.owners.every((o) => [100, 66.67, 50, 25, 33.33, 10].includes(o.pctLow))).toBe(true);
      if (c.core.employeeCount !== null) expect(c.core.employeeCountRange).toMatch(/^\d+-\d+$/);
    }
    // A holding owning 100 % is the registry parent; it is the previous generated company.
    const held = aps.find((c) =>
      c.owners.some((o) => o.ownerType === 'company' && o.pctLow === 100 && o.ownerCvr !== c.core.orgNumber),
    );
    expect(held?.core.registryParentOrgNumber).toMatch(/^\d{8}$/);
    expect(Number(held?.core.registryParentOrgNumber)).toBeLessThan(Number(held?.core.orgNumber));

    const as = byForm('A/S');
    expect(as.length).toBeGreaterThan(0);
    for (const c of as) {
      const codes = c.roles.map((r) => r.roleTypeCode);
      expect(codes).toEqual(expect.arrayContaining(['DAGL', 'LEDE', 'MEDL', 'REVI']));
      expect(c.core.employeeCountRange).toBeNull(); // an exact monthly count
      expect(c.core.employeeCount).toBeGreaterThan(0);
    }
  });

  it('is the same text for the same seed and differs for another', async () => {
    const a = await text(50, 9);
    expect(await text(50, 9)).toBe(a);
    expect(await text(50, 10)).not.toBe(a);
    expect(a.trim().split('\n')).toHaveLength(50);
  });
});
