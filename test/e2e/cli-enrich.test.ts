// `ncd enrich` as a user runs it: a separate process against the real server with 1,000
// companies. A counting proxy in front of the server records which org numbers reached it and
// can hold one enrich call, so the CLI is killed at a known point (mid-request, after three
// written batches); the rerun with --resume must finish without asking for any number again.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NcdClient, type CompanyRecord } from '../../clients/js/src/index.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { ROOT } from '../helpers/env.ts';
import { HoldingProxy } from '../helpers/holding-proxy.ts';
import { createKey } from '../helpers/keys.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/** Records the numbers of each forwarded enrich call; the `holdAt`-th enrich call is never answered. */
class EnrichProxy extends HoldingProxy {
  forwarded: string[][] = [];
  constructor(target: string) {
    super(target, '/api/companies/enrich');
  }
  protected override record(path: string, body: string) {
    if (path === '/api/companies/enrich')
      this.forwarded.push((JSON.parse(body) as { orgNumbers: string[] }).orgNumbers);
  }
}

const COMPANIES = 1000;
const INVALID_AT = new Map([
  [50, ''],
  [250, '12345'],
  [450, 'abc'],
  [650, '923609017'],
  [850, '81000000 1'],
]);
const UNKNOWN_AT = [120, 320, 520, 720, 920];

let brreg: FakeBrreg;
let server: TestServer;
let proxy: EnrichProxy;
let proxyUrl: string;
let apiKey: string;
let keyPrefix: string;
let dir: string;
let input: string;
let inputRows: string[][];

/** 1,000 rows: 990 stored companies (some in VAT or spaced spelling), 5 unknown, 5 invalid. */
function buildInput(): string[][] {
  const rows: string[][] = [];
  let known = 0;
  let unknown = 0;
  for (let i = 0; i < COMPANIES; i++) {
    let org: string;
    if (INVALID_AT.has(i)) org = INVALID_AT.get(i)!;
    else if (UNKNOWN_AT.includes(i)) org = orgNumberFor(50_000 + unknown++);
    else {
      org = orgNumberFor(known++);
      if (i % 97 === 0) org = `NO ${org.slice(0, 3)} ${org.slice(3, 6)} ${org.slice(6)} MVA`;
    }
    rows.push([`row-${i}`, org, i % 3 === 0 ? `Ålesund, "sentrum"\nline two` : `note ${i}`]);
  }
  return rows;
}

const validNumbers = () =>
  inputRows.filter((_, i) => !INVALID_AT.has(i)).map((r) => r[1].replace(/^NO |[ ]|MVA$/g, ''));

function readOutput(file: string): string[][] {
  return parse(readFileSync(file)) as string[][];
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const enrichArgs = (out: string, extra: string[] = []) => [
  CLI,
  'enrich',
  input,
  '--column',
  'orgnr',
  '--out',
  out,
  '--url',
  proxyUrl,
  ...extra,
];

beforeAll(async () => {
  brreg = await startFakeBrreg();
  server = await startServer({
    overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 2000 }) } },
  });
  await loadGeneratedCompanies(server, COMPANIES, 17);
  const key = await createKey(server, { limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } });
  apiKey = key.raw;
  keyPrefix = key.keyPrefix;
  proxy = new EnrichProxy(server.url);
  proxyUrl = await proxy.start();
  dir = mkdtempSync(path.join(tmpdir(), 'ncd-enrich-'));
  input = path.join(dir, 'input.csv');
  inputRows = buildInput();
  writeFileSync(input, stringify([['id', 'orgnr', 'note'], ...inputRows]));
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  await brreg?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ncd enrich', () => {
  it('enriches 1,000 rows; a run killed mid-batch resumes without asking for a finished number again', async () => {
    const out = path.join(dir, 'enriched.csv');
    proxy.holdAt = 4;
    const first = spawn(process.execPath, ['--import', 'tsx', ...enrichArgs(out)], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NCD_API_KEY: apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let firstErr = '';
    first.stderr.on('data', (c: Buffer) => (firstErr += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      first.on('exit', (_code, signal) => resolve(signal)),
    );
    // The fourth call is held, so three batches are on disk and the fourth is in flight.
    await waitFor('the fourth enrich call', () => proxy.held.length === 1 || first.exitCode !== null);
    expect(first.exitCode, firstErr).toBeNull();
    first.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const partial = readOutput(out);
    expect(partial.length - 1).toBeGreaterThanOrEqual(300);
    expect(partial.length - 1).toBeLessThan(400);
    expect(proxy.forwarded).toHaveLength(3);
    expect(firstErr).not.toContain(apiKey);

    // Without --resume an existing output is refused and left alone.
    const before = readFileSync(out);
    const refused = await runProcess(enrichArgs(out), { NCD_API_KEY: apiKey });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already exists');
    expect(refused.stderr).toContain('--resume');
    expect(readFileSync(out).equals(before)).toBe(true);

    // A write torn by the kill (no final newline) is cut off when resuming.
    appendFileSync(out, 'row-torn,81000');
    proxy.holdAt = undefined;
    const resumed = await runProcess(enrichArgs(out, ['--resume']), { NCD_API_KEY: apiKey });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Resuming: ${partial.length - 1} of ${COMPANIES} rows`);
    expect(resumed.stderr).toContain(`100% ${COMPANIES}/${COMPANIES} rows`);
    expect(resumed.stdout).toContain(`already done ${partial.length - 1}`);
    expect(`${resumed.stdout}${resumed.stderr}`).not.toContain(apiKey);

    // Every input row exactly once, in order, with its own cells intact.
    const [header, ...rows] = readOutput(out);
    expect(header).toEqual([
      'id',
      'orgnr',
      'note',
      'name',
      'employeeCount',
      'revenue',
      'ceoName',
      'website',
      'enrichStatus',
    ]);
    expect(rows.map((r) => r.slice(0, 3))).toEqual(inputRows);
    // A blank number cell is reported as empty, one that cannot be a number as invalid.
    for (const [i, org] of INVALID_AT)
      expect(rows[i].slice(3)).toEqual(['', '', '', '', '', org === '' ? 'empty' : 'invalid']);
    for (const i of UNKNOWN_AT) expect(rows[i].slice(3)).toEqual(['', '', '', '', '', 'not_found']);

    // The server saw every valid number exactly once across both runs (the held call never reached it).
    const asked = proxy.forwarded.flat();
    expect(new Set(asked).size).toBe(asked.length);
    expect(new Set(asked)).toEqual(new Set(validNumbers()));
    expect(proxy.forwarded.every((b) => b.length <= 100)).toBe(true);
    expect(proxy.forwarded).toHaveLength(10);
    const usage = await new NcdClient({ baseUrl: server.url, apiKey }).keys.usage();
    expect(usage.keyPrefix).toBe(keyPrefix);
    expect(usage.usage.today).toBeGreaterThanOrEqual(10);
    expect(usage.usage.today).toBeLessThanOrEqual(11);

    // The values are the API's: every valid row against the record the API serves for it.
    const client = new NcdClient({ baseUrl: server.url, apiKey });
    const records = new Map<string, CompanyRecord>();
    const valid = validNumbers();
    for (let i = 0; i < valid.length; i += 100)
      for (const r of (await client.companies.enrich(valid.slice(i, i + 100))).data) records.set(r.orgNumber, r);
    expect(records.size).toBeGreaterThan(950);
    rows.forEach((row, i) => {
      if (INVALID_AT.has(i)) return;
      const record = records.get(row[1].replace(/^NO |[ ]|MVA$/g, ''));
      if (!record) return expect(row.slice(3)).toEqual(['', '', '', '', '', 'not_found']);
      expect(row[8]).toBe('found');
      expect(row[3]).toBe(record.name);
      expect(row[4]).toBe(record.employeeCount === null ? '' : String(record.employeeCount));
      const own = record.financials
        .filter((f) => f.regnskapstype === 'SELSKAP')
        .sort((a, b) => b.periodTo.localeCompare(a.periodTo))[0];
      expect(row[5]).toBe(own?.revenue == null ? '' : String(own.revenue));
      const ceo = record.roles.find((r) => r.roleTypeCode === 'DAGL');
      if (!ceo) expect(row[6]).toBe('');
      if (ceo?.personLastName) expect(row[6]).toContain(ceo.personLastName);
      expect(row[7]).toBe(record.primaryDomain ?? record.website ?? '');
    });
    expect(rows.filter((r) => r[8] === 'found' && r[6] !== '').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r[8] === 'found' && r[5] !== '').length).toBeGreaterThan(0);
  }, 300_000);

  it('adds the fields asked for with --fields', async () => {
    const small = path.join(dir, 'small.csv');
    writeFileSync(small, stringify([['orgnr'], [orgNumberFor(7)], [orgNumberFor(8)]]));
    const out = path.join(dir, 'small-out.csv');
    const r = await runProcess(
      [
        CLI,
        'enrich',
        small,
        '--column',
        'orgnr',
        '--out',
        out,
        '--url',
        server.url,
        '--fields',
        'orgForm,postalCode,isBankrupt',
      ],
      { NCD_API_KEY: apiKey },
    );
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = readOutput(out);
    expect(header).toEqual(['orgnr', 'orgForm', 'postalCode', 'isBankrupt', 'enrichStatus']);
    expect(rows.map((x) => x[4])).toEqual(['found', 'found']);
    expect(['true', 'false']).toContain(rows[0][3]);
    expect(r.stdout).toMatch(/found\s+2/);
  }, 120_000);

  it('writes an Excel CSV with --excel: BOM, ";" and CRLF, Æ/Ø/Å intact; --delimiter sets the delimiter', async () => {
    const nordic = path.join(dir, 'nordic.csv');
    writeFileSync(
      nordic,
      stringify([
        ['orgnr', 'sted'],
        [orgNumberFor(7), 'Ærøy Øst, Å'],
        ['', 'tom'],
      ]),
    );
    const excel = path.join(dir, 'nordic-excel.csv');
    const r = await runProcess(
      [CLI, 'enrich', nordic, '--column', 'orgnr', '--out', excel, '--url', server.url, '--excel', '--fields', 'name'],
      { NCD_API_KEY: apiKey },
    );
    expect(r.code, r.stderr).toBe(0);
    const bytes = readFileSync(excel);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    expect(text.split('\r\n')[0]).toBe('orgnr;sted;name;enrichStatus');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    const rows = parse(bytes, { bom: true, delimiter: ';' }) as string[][];
    expect(rows[1].slice(0, 2)).toEqual([orgNumberFor(7), 'Ærøy Øst, Å']);
    expect(rows[1][3]).toBe('found');
    expect(rows[2]).toEqual(['', 'tom', '', 'empty']);
    expect(r.stdout).toMatch(/empty\s+1/);

    // By default the output keeps the input's BOM and delimiter; --delimiter overrides it.
    const semi = path.join(dir, 'semi.csv');
    writeFileSync(semi, '\uFEFForgnr;sted\n' + `${orgNumberFor(8)};Tromsø\n`);
    const kept = path.join(dir, 'semi-out.csv');
    const tabbed = path.join(dir, 'semi-tab.csv');
    const args = (out: string, extra: string[] = []) => [
      CLI,
      'enrich',
      semi,
      '--column',
      'orgnr',
      '--out',
      out,
      '--url',
      server.url,
      '--fields',
      'name',
      ...extra,
    ];
    expect((await runProcess(args(kept), { NCD_API_KEY: apiKey })).code).toBe(0);
    expect(readFileSync(kept, 'utf8')).toMatch(/^\uFEFForgnr;sted;name;enrichStatus\n/);
    expect((await runProcess(args(tabbed, ['--delimiter', 'tab']), { NCD_API_KEY: apiKey })).code).toBe(0);
    expect(readFileSync(tabbed, 'utf8')).toMatch(/^\uFEFForgnr\tsted\tname\tenrichStatus\n\d{9}\tTromsø\t/);
  }, 240_000);

  it('stops on a bad key with a clear message that says how to continue', async () => {
    const out = path.join(dir, 'badkey.csv');
    const r = await runProcess(enrichArgs(out), { NCD_API_KEY: 'ncd_wrong_key_0000000000000000' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('401 invalid_api_key');
    expect(r.stdout).toContain('--resume');
    expect(r.stdout + r.stderr).not.toContain('ncd_wrong_key_0000000000000000');
    expect(readOutput(out)).toHaveLength(1);
  }, 120_000);

  it('rejects bad input with a clear message and writes nothing', async () => {
    const out = path.join(dir, 'never.csv');
    const noColumn = await runProcess(
      [CLI, 'enrich', input, '--column', 'orgnummer', '--out', out, '--url', server.url],
      { NCD_API_KEY: apiKey },
    );
    expect(noColumn.code).toBe(1);
    expect(noColumn.stderr).toContain('Column "orgnummer" is not in');
    expect(noColumn.stderr).toContain('id, orgnr, note');
    const noFile = await runProcess([CLI, 'enrich', path.join(dir, 'missing.csv'), '--column', 'orgnr', '--out', out], {
      NCD_API_KEY: apiKey,
    });
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain('Input file not found');
    const noKey = await runProcess([CLI, 'enrich', input, '--column', 'orgnr', '--out', out], {});
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('NCD_API_KEY');
    const badField = await runProcess(
      [CLI, 'enrich', input, '--column', 'orgnr', '--out', out, '--fields', 'name,shoeSize'],
      { NCD_API_KEY: apiKey },
    );
    expect(badField.code).toBe(1);
    expect(badField.stderr).toContain('Unknown field: shoeSize');
    expect(existsSync(out)).toBe(false);
  }, 240_000);
});
