import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidFinnishBusinessId } from '../../../src/domain/org-number.ts';
import type { NordicCompanyRecord } from '../../../src/sources/nordic-record.ts';
import {
  generatePrhJsonArray,
  newPrhRejectLog,
  parsePrhAllCompaniesZip,
  parsePrhJsonArray,
} from '../../../src/sources/prh/index.ts';
import { writeZip } from './zip-writer.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'prh-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(it: AsyncIterable<NordicCompanyRecord>): Promise<NordicCompanyRecord[]> {
  const out: NordicCompanyRecord[] = [];
  for await (const r of it) out.push(r);
  return out;
}

const streamOf = (s: string) => Readable.from([Buffer.from(s, 'utf8')]);

describe('parsePrhJsonArray', () => {
  it('maps a generated array deterministically', async () => {
    const a = await collect(parsePrhJsonArray(generatePrhJsonArray(500, 7)));
    const b = await collect(parsePrhJsonArray(generatePrhJsonArray(500, 7)));
    expect(a).toHaveLength(500);
    expect(a).toEqual(b);
    expect(new Set(a.map((r) => r.orgNumber)).size).toBe(500);
    expect(a.every((r) => isValidFinnishBusinessId(r.orgNumber))).toBe(true);
    // The generator's documented pattern: i % 20 === 19 ceased, i % 50 === 7 bankrupt, 13 in liquidation.
    expect(a.filter((r) => r.isDeregistered)).toHaveLength(25);
    expect(a[19]).toMatchObject({ status: 'deregistered', deregistrationDate: '2024-12-31' });
    expect(a[7]).toMatchObject({ status: 'bankruptcy', isBankrupt: true });
    expect(a[13]).toMatchObject({ status: 'liquidation', isBeingDissolved: true });
  });

  it('counts and skips companies it cannot map, naming the array element', async () => {
    const good = JSON.stringify({ businessId: { value: '2646674-9' }, names: [{ name: 'Wolt Oy', type: '1' }] });
    const json = `[${good}, {"businessId": {"value": "123"}, "names": []}, 42, ${good}]`;
    const rejects = newPrhRejectLog();
    const records = await collect(parsePrhJsonArray(streamOf(json), { rejects }));
    expect(records.map((r) => r.name)).toEqual(['Wolt Oy', 'Wolt Oy']);
    expect(rejects.rejected).toBe(2);
    expect(rejects.samples).toEqual([
      'element 1: company 123: invalid business ID',
      'element 2: PRH company is not a JSON object',
    ]);
  });

  it('aborts on broken JSON or a top level that is not an array', async () => {
    await expect(collect(parsePrhJsonArray(streamOf('[{"businessId": ')))).rejects.toThrow(
      /PRH all_companies: cannot read the JSON array/,
    );
    await expect(collect(parsePrhJsonArray(streamOf('{"companies": []}')))).rejects.toThrow(
      /PRH all_companies: cannot read the JSON array/,
    );
  });
});

describe('parsePrhAllCompaniesZip', () => {
  it('streams the JSON entry of a ZIP given as a path', async () => {
    const zip = path.join(dir, 'all_companies.zip');
    await writeZip(zip, [
      { name: 'README.txt', data: 'not data' },
      { name: 'all_companies.json', data: generatePrhJsonArray(3000, 42) },
    ]);
    const records = await collect(parsePrhAllCompaniesZip(zip));
    expect(records).toHaveLength(3000);
    expect(records[0]).toEqual((await collect(parsePrhJsonArray(generatePrhJsonArray(1, 42))))[0]);
  });

  it('spools a Readable to a temporary file and removes it afterwards', async () => {
    const zip = path.join(dir, 'body.zip');
    await writeZip(zip, [{ name: 'data/all.JSON', data: generatePrhJsonArray(200, 1) }]);
    const before = (await readdir(os.tmpdir())).filter((n) => n.startsWith('ncd-zip-')).length;
    const records = await collect(parsePrhAllCompaniesZip(createReadStream(zip)));
    expect(records).toHaveLength(200);
    const after = (await readdir(os.tmpdir())).filter((n) => n.startsWith('ncd-zip-')).length;
    expect(after).toBe(before);
  });

  it('stops cleanly when the consumer stops early', async () => {
    const zip = path.join(dir, 'early.zip');
    await writeZip(zip, [{ name: 'all.json', data: generatePrhJsonArray(1000, 3) }]);
    let n = 0;
    for await (const _ of parsePrhAllCompaniesZip(zip)) if (++n === 10) break;
    expect(n).toBe(10);
  });

  it('fails clearly when the ZIP has no JSON entry or is not a ZIP', async () => {
    const zip = path.join(dir, 'nojson.zip');
    await writeZip(zip, [{ name: 'readme.txt', data: 'x' }]);
    await expect(collect(parsePrhAllCompaniesZip(zip))).rejects.toThrow(
      'PRH all_companies: ZIP has no *.json entry (entries: readme.txt)',
    );
    await expect(collect(parsePrhAllCompaniesZip(streamOf('plain text, not a zip')))).rejects.toThrow(
      /PRH all_companies: not a readable ZIP file/,
    );
  });
});
