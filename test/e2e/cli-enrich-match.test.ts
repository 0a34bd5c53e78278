// `ncd enrich --match-names` as a user runs it: a separate process against the real server with
// 1,000 generated companies. The input is a spreadsheet of names (with the city), most without an
// organisation number. A counting proxy in front of the server records every name sent to
// POST /api/companies/match and every number sent to enrich, and can hold one match call so the
// CLI is killed at a known point; the rerun with --resume must ask for no name or number again.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NcdClient } from '../../clients/js/src/index.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { ROOT } from '../helpers/env.ts';
import { HoldingProxy } from '../helpers/holding-proxy.ts';
import { createKey } from '../helpers/keys.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

type Query = { name: string; city?: string; country?: string };

/** Records match queries and enrich numbers; never answers match call `holdAt`. */
class CountingProxy extends HoldingProxy {
  matched: Query[][] = [];
  enriched: string[][] = [];
  constructor(target: string) {
    super(target, '/api/companies/match');
  }
  protected override record(path: string, body: string) {
    if (path === '/api/companies/match') this.matched.push((JSON.parse(body) as { queries: Query[] }).queries);
    if (path === '/api/companies/enrich') {
      const b = JSON.parse(body) as { orgNumbers?: string[]; pairs?: { orgNumber: string }[] };
      this.enriched.push(b.orgNumbers ?? b.pairs!.map((p) => p.orgNumber));
    }
  }
}

const COMPANIES = 1000;
/** Rows that keep their own number (not matched, enriched as before). */
const NUMBERED = (i: number) => i % 10 === 0;
const NO_NAME_AT = 333;
const UNKNOWN_AT = [111, 555, 777];

let server: TestServer;
let proxy: CountingProxy;
let proxyUrl: string;
let apiKey: string;
let client: NcdClient;
let dir: string;
let input: string;
/** Input rows: id, orgnr, name, city; and the company each row was made from. */
let inputRows: string[][];
let sourceOf: string[];

beforeAll(async () => {
  server = await startServer();
  // Bulk dumps leave deleted units out: load more than 1,000 and use the first 1,000 in the store.
  await loadGeneratedCompanies(server, COMPANIES + 100, 28);
  apiKey = (await createKey(server, { limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } })).raw;
  client = new NcdClient({ baseUrl: server.url, apiKey });
  proxy = new CountingProxy(server.url);
  proxyUrl = await proxy.start();
  // The names and cities as the API serves them; a third written without the legal form.
  const all = Array.from({ length: COMPANIES + 100 }, (_, i) => orgNumberFor(i));
  const records = new Map<string, { name: string; city: string }>();
  for (let i = 0; i < all.length; i += 100)
    for (const r of (await client.companies.enrich(all.slice(i, i + 100))).data)
      records.set(r.orgNumber, { name: r.name, city: r.businessAddressCity ?? '' });
  const numbers = all.filter((n) => records.has(n)).slice(0, COMPANIES);
  expect(numbers).toHaveLength(COMPANIES);
  inputRows = [];
  sourceOf = [];
  for (let i = 0; i < COMPANIES; i++) {
    const org = numbers[i];
    const rec = records.get(org);
    let name = rec?.name ?? '';
    if (i % 3 === 1) name = name.replace(/ (AS|ASA|ENK|DA|ANS|SA|NUF)$/, '');
    if (UNKNOWN_AT.includes(i)) name = `Qzxwv Plørk Ymbrt ${i} AS`;
    if (i === NO_NAME_AT) name = ' - ';
    inputRows.push([`row-${i}`, NUMBERED(i) ? org : '', name, rec?.city ?? '']);
    sourceOf.push(org);
  }
  dir = mkdtempSync(path.join(tmpdir(), 'ncd-enrich-match-'));
  input = path.join(dir, 'names.csv');
  writeFileSync(input, stringify([['id', 'orgnr', 'firmanavn', 'city'], ...inputRows]));
}, 300_000);
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const args = (out: string, extra: string[] = []) => [
  CLI,
  'enrich',
  input,
  '--column',
  'orgnr',
  '--match-names',
  '--name-column',
  'firmanavn',
  '--city-column',
  'city',
  '--out',
  out,
  '--url',
  proxyUrl,
  '--fields',
  'name,orgForm',
  ...extra,
];

async function waitFor(what: string, check: () => boolean, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ncd enrich --match-names', () => {
  it('matches and enriches 1,000 rows; a run killed mid-batch resumes without repeating a name or number', async () => {
    const out = path.join(dir, 'matched.csv');
    proxy.holdAt = 4;
    const first = spawn(process.execPath, ['--import', 'tsx', ...args(out)], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NCD_API_KEY: apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let firstErr = '';
    first.stderr.on('data', (c: Buffer) => (firstErr += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => first.on('exit', (_c, signal) => resolve(signal)));
    await waitFor('the fourth match call', () => proxy.held.length === 1 || first.exitCode !== null);
    expect(first.exitCode, firstErr).toBeNull();
    first.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const partial = parse(readFileSync(out)) as string[][];
    expect(partial.length - 1).toBeGreaterThan(0);
    expect(proxy.matched).toHaveLength(3);

    proxy.holdAt = undefined;
    const resumed = await runProcess(args(out, ['--resume']), { NCD_API_KEY: apiKey });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Resuming: ${partial.length - 1} of ${COMPANIES} rows`);
    expect(resumed.stdout).toMatch(/names matched\s+\d+/);

    const [header, ...rows] = parse(readFileSync(out)) as string[][];
    expect(header).toEqual([
      'id',
      'orgnr',
      'firmanavn',
      'city',
      'match',
      'matchCountry',
      'matchScore',
      'matchStatus',
      'name',
      'orgForm',
      'enrichStatus',
    ]);
    expect(rows.map((r) => r.slice(0, 4))).toEqual(inputRows);

    // Across both runs every distinct name reached the server once, in calls of at most 100,
    // and every number was enriched once: --resume repeated nothing.
    const asked = proxy.matched.flat().map((q) => `${q.name}|${q.city ?? ''}`);
    expect(new Set(asked).size).toBe(asked.length);
    const toMatch = inputRows.filter((r) => r[1] === '' && /[\p{L}\p{N}]/u.test(r[2]));
    expect(new Set(asked)).toEqual(new Set(toMatch.map((r) => `${r[2]}|${r[3]}`)));
    expect(proxy.matched.every((b) => b.length <= 100)).toBe(true);
    const numbers = proxy.enriched.flat();
    expect(new Set(numbers).size).toBe(numbers.length);

    // Each row's match columns are the API's answer for its name and city.
    const api = new Map<string, { match: { orgNumber: string; score: number } | null; candidates: unknown[] }>();
    for (let i = 0; i < toMatch.length; i += 100) {
      const batch = toMatch.slice(i, i + 100).map((r) => ({ name: r[2], ...(r[3] ? { city: r[3] } : {}) }));
      const res = await client.companies.match({ queries: batch, limit: 2 });
      res.results.forEach((r, j) => api.set(`${batch[j].name}|${batch[j].city ?? ''}`, r));
    }
    let right = 0;
    rows.forEach((row, i) => {
      const [, orgnr, name, city, match, country, score, status, gotName, , enrichStatus] = row;
      if (orgnr !== '') {
        expect(row.slice(4, 8)).toEqual(['', '', '', '']);
        expect(enrichStatus).toBe('found');
        return;
      }
      if (i === NO_NAME_AT) return expect(row.slice(4, 8)).toEqual(['', '', '', 'none']);
      const a = api.get(`${name}|${city}`)!;
      const want = a.match ? 'matched' : a.candidates.length ? 'ambiguous' : 'none';
      expect(status, `row ${i} ${name}`).toBe(want);
      if (status !== 'matched') {
        expect([match, country, enrichStatus]).toEqual(['', '', 'empty']);
        return;
      }
      expect([match, country, Number(score)]).toEqual([a.match!.orgNumber, 'NO', a.match!.score]);
      expect(enrichStatus).toBe('found');
      expect(gotName).not.toBe('');
      if (match === sourceOf[i]) right++;
    });
    for (const i of UNKNOWN_AT) expect(rows[i][7]).not.toBe('matched');
    // Most names find their own company; a wrong auto-match is rare (names repeat in the generator).
    const matchedRows = rows.filter((r) => r[7] === 'matched');
    expect(matchedRows.length).toBeGreaterThan(toMatch.length / 2);
    expect(right / matchedRows.length).toBeGreaterThanOrEqual(0.98);
  }, 600_000);

  it('matches every row by name when there is no number column', async () => {
    const small = path.join(dir, 'small.csv');
    writeFileSync(small, stringify([['firma'], [inputRows[2][2]], [' - ']]));
    const out = path.join(dir, 'small-out.csv');
    const r = await runProcess(
      [CLI, 'enrich', small, '--match-names', '--name-column', 'firma', '--out', out, '--url', server.url],
      { NCD_API_KEY: apiKey },
    );
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = parse(readFileSync(out)) as string[][];
    expect(header.slice(0, 5)).toEqual(['firma', 'match', 'matchCountry', 'matchScore', 'matchStatus']);
    expect(rows[1].slice(1, 5)).toEqual(['', '', '', 'none']);
    expect(rows[1].at(-1)).toBe('empty');
    const bad = await runProcess([CLI, 'enrich', small, '--match-names', '--out', out], { NCD_API_KEY: apiKey });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Missing --name-column');
  }, 300_000);
});
