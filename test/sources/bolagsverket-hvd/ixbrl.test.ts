// Swedish iXBRL annual reports (hand-written to the se-gen-base / K2 / K3 format, see
// test/fixtures/bolagsverket/README.md): three reports field for field (a loss in whole kronor, a
// report in thousands, a K3 group report apart from the parent's own), the ix:nonFraction number
// rules (format, scale, sign), packages, and the reasons bad documents are refused.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { IxbrlError, ixNumber, parseSeIxbrl, readReportZip } from '../../../src/sources/bolagsverket-hvd/index.ts';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/bolagsverket/${name}`, import.meta.url), 'utf8');
const zipOf = (files: Record<string, string>) =>
  new Promise<Buffer>((resolve) => {
    const z = new yazl.ZipFile();
    for (const [n, d] of Object.entries(files)) z.addBuffer(Buffer.from(d), n);
    z.end();
    const chunks: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks)));
  });

describe('ix:nonFraction values', () => {
  it('reads format, scale and sign exactly', () => {
    expect(ixNumber('2 924 586', { format: 'ixt:num-dot-decimal' })).toBe(2924586);
    expect(ixNumber('12 480', { format: 'ixt:numspacecomma', scale: '3' })).toBe(12480000);
    expect(ixNumber('1 735,5', { format: 'ixt:numspacecomma', scale: '3' })).toBe(1735500);
    expect(ixNumber('1.234.567,89', { format: 'ixt4:num-comma-decimal' })).toBe(1234567.89);
    expect(ixNumber('10 536', { format: 'ixt:num-dot-decimal', sign: '-' })).toBe(-10536);
    expect(ixNumber('0,5', { format: 'ixt:num-comma-decimal', scale: '6' })).toBe(500000);
    expect(ixNumber('12345', { scale: '-2' })).toBe(123.45);
    expect(ixNumber('–', { format: 'ixt:fixed-zero' })).toBe(0);
    expect(ixNumber('-', { format: 'ixt:zerodash' })).toBe(0);
  });

  it('refuses what does not fit the format', () => {
    expect(() => ixNumber('12.480.7x', { format: 'ixt:num-comma-decimal' })).toThrow(/not a number/);
    expect(() => ixNumber('-5', {})).toThrow(/not a number/); // the displayed text is never signed
    expect(() => ixNumber('5', { format: 'ixt:num-roman' })).toThrow(/unknown format/);
    expect(() => ixNumber('5', { scale: 'three' })).toThrow(/scale/);
  });
});

describe('Swedish annual report key figures', () => {
  it('a K2 report in whole kronor with a loss: the result stays negative', () => {
    expect(parseSeIxbrl(fixture('5560047010_2024-12-31.xhtml'))).toEqual({
      orgNumber: '5560047010',
      accountsType: 'SELSKAP',
      framework: 'k2',
      periodFrom: '2024-01-01',
      periodTo: '2024-12-31',
      currency: 'SEK',
      revenue: 2924586,
      operatingProfit: -8912,
      netResult: -10536,
      equity: 508409,
      totalAssets: 515409,
      totalLiabilities: 7000,
      employees: 2,
    });
  });

  it('a report stated in thousands (scale 3) is stored in kronor', () => {
    expect(parseSeIxbrl(fixture('5560047028_2024-08-31.xhtml'))).toEqual({
      orgNumber: '5560047028',
      accountsType: 'SELSKAP',
      framework: 'k2',
      periodFrom: '2023-09-01',
      periodTo: '2024-08-31',
      currency: 'SEK',
      revenue: 12480000,
      operatingProfit: 1310000,
      netResult: 955000,
      equity: 4210000,
      totalAssets: 8640000,
      totalLiabilities: 4235500,
      employees: 14,
    });
  });

  it('a K3 group report (k3k profile) is KONSERN, the parent report of the same year SELSKAP', () => {
    expect(parseSeIxbrl(fixture('5560047036_2024-12-31_koncern.xhtml'))).toEqual({
      orgNumber: '5560047036',
      accountsType: 'KONSERN',
      framework: 'k3k',
      periodFrom: '2024-01-01',
      periodTo: '2024-12-31',
      currency: 'SEK',
      revenue: 212730000,
      operatingProfit: 14902000,
      netResult: 9845000,
      equity: 77310000,
      totalAssets: 176520000,
      totalLiabilities: 92360000,
      employees: 188,
    });
    expect(parseSeIxbrl(fixture('5560047036_2024-12-31_moderbolag.xhtml'))).toMatchObject({
      accountsType: 'SELSKAP',
      framework: 'k3',
      revenue: 84512000,
      netResult: 4377000,
      employees: 41,
    });
  });

  it.each([
    ['bad-truncated.xhtml', /not well-formed XHTML/],
    ['bad-unknown-taxonomy.xhtml', /unknown taxonomy \(schemaRef http:\/\/www\.esma/],
    ['bad-figure.xhtml', /se-gen-base:Nettoomsattning: "12\.480\.7x" is not a number/],
  ])('refuses %s with its reason', (name, reason) => {
    expect(() => parseSeIxbrl(fixture(name))).toThrow(IxbrlError);
    expect(() => parseSeIxbrl(fixture(name))).toThrow(reason);
  });
});

describe('report packages (dokument/{id} ZIPs)', () => {
  it('reads the annual report and passes over an audit report beside it', async () => {
    const zip = await zipOf({
      'a1b2c3.xhtml': fixture('5560047010_2024-12-31.xhtml'),
      'revisionsberattelse.xhtml': fixture('revisionsberattelse.xhtml'),
    });
    const reports = await readReportZip(zip);
    expect(reports.map((r) => [r.accountsType, r.netResult])).toEqual([['SELSKAP', -10536]]);
  });

  it('refuses a ZIP without a report, one with only an audit report, and bytes that are no ZIP', async () => {
    await expect(readReportZip(await zipOf({ 'readme.txt': 'Årsredovisning saknas' }))).rejects.toThrow(/no report/);
    await expect(readReportZip(await zipOf({ 'r.xhtml': fixture('revisionsberattelse.xhtml') }))).rejects.toThrow(
      /no annual report/,
    );
    await expect(readReportZip(Buffer.from('<html>Service Unavailable</html>'))).rejects.toThrow(/not a readable ZIP/);
  });
});
