import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidSwedishOrgNumber } from '../../../src/domain/org-number.ts';
import {
  expectedGeneratedCompanies,
  generateBolagsverketText,
  generatedOrgNumber,
  newBolagsverketStats,
  parseBolagsverketText,
  parseBolagsverketZip,
} from '../../../src/sources/bolagsverket/index.ts';
import { writeZip } from '../prh/zip-writer.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bolagsverket-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('generated Bolagsverket files', () => {
  it('parse to the documented number of companies, quoted or not, the same for the same seed', async () => {
    for (const quoted of [true, false]) {
      const stats = newBolagsverketStats(0); // any rejected line fails the test
      const orgs: string[] = [];
      for await (const r of parseBolagsverketText(generateBolagsverketText(2000, 11, { quoted }), { stats }))
        orgs.push(r.orgNumber);
      expect(orgs).toHaveLength(expectedGeneratedCompanies(2000));
      expect(stats).toMatchObject({ lines: 2000, skippedPersons: 200, duplicates: 20, rejects: { rejected: 0 } });
      expect(new Set(orgs).size).toBe(orgs.length);
      expect(orgs.every(isValidSwedishOrgNumber)).toBe(true);
      expect(orgs[0]).toBe(generatedOrgNumber(0));
    }
  });

  it('streams the text entry of a ZIP, from a path or a stream', async () => {
    const zip = path.join(dir, 'bolagsverket_bulkfil.zip');
    await writeZip(zip, [{ name: 'bolagsverket_bulkfil.txt', data: generateBolagsverketText(1500, 5) }]);
    const names: string[] = [];
    for await (const r of parseBolagsverketZip(zip)) names.push(r.name);
    expect(names).toHaveLength(expectedGeneratedCompanies(1500));
    const again: string[] = [];
    const { createReadStream } = await import('node:fs');
    for await (const r of parseBolagsverketZip(createReadStream(zip))) again.push(r.name);
    expect(again).toEqual(names);
    const empty = path.join(dir, 'empty.zip');
    await writeZip(empty, [{ name: 'data.csv', data: 'x' }]);
    await expect(parseBolagsverketZip(empty).next()).rejects.toThrow(
      'Bolagsverket bulkfil: ZIP has no *.txt entry (entries: data.csv)',
    );
  });
});
