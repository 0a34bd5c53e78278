// An `ncd enrich --excel` file as a spreadsheet program reads it: LibreOffice (Debian's
// libreoffice-calc-nogui, installed by .ci/run) converts it to .xlsx with the Nordic-Excel
// reading (";" separated, UTF-8), and back to a comma CSV; the columns and Æ/Ø/Å must survive.
// In the browser suite because it needs that heavy Debian package, not in `npm test`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvAppender } from '../../src/cli/enrich/csv-output.ts';
import { TMP } from '../helpers/env.ts';

const dir = mkdtempSync(path.join(TMP, 'excel-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = ['orgnr', 'sted', 'name', 'enrichStatus'];
const ROWS = [
  ['923609016', 'Ærøy Øst, "Å"', 'Blåbær Ørsta AS', 'found'],
  ['', 'tom', '', 'empty'],
];

const soffice = (args: string[]) =>
  execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${dir}/profile`, ...args], {
    cwd: dir,
    timeout: 180_000,
    stdio: 'pipe',
  });

describe('an --excel CSV in LibreOffice', () => {
  it('opens with the right columns and Æ/Ø/Å intact', () => {
    const csv = path.join(dir, 'enriched.csv');
    const out = CsvAppender.create(csv, HEADER, { delimiter: ';', bom: true, recordDelimiter: '\r\n' });
    out.append(ROWS);
    out.close();
    // Field separator 59 (;), text delimiter 34 ("), character set 76 (UTF-8): Excel's reading.
    soffice(['--infilter=CSV:59,34,76,1', '--convert-to', 'xlsx', '--outdir', dir, csv]);
    const xlsx = path.join(dir, 'enriched.xlsx');
    expect(statSync(xlsx).size).toBeGreaterThan(0);
    soffice(['--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1', '--outdir', path.join(dir, 'back'), xlsx]);
    const back = parse(readFileSync(path.join(dir, 'back', 'enriched.csv')), { bom: true }) as string[][];
    expect(back[0]).toEqual(HEADER);
    expect(back[1]).toEqual(ROWS[0]);
    expect(back[2].slice(1, 2)).toEqual(['tom']);
  }, 400_000);
});
