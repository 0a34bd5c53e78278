// `ncd enrich --match-names` against a server whose work bound leaves names out of a match call
// (status not_attempted): the CLI sends them again in smaller batches, and a name the bound never
// reaches is reported as `not_attempted`, not as `none` (which would claim a search that never ran).
// The server's bound is set to nothing through the test seam, so every name is left out each time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { HoldingProxy } from '../helpers/holding-proxy.ts';
import { createKey } from '../helpers/keys.ts';
import { CLI, runProcess } from '../helpers/process.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let proxy: HoldingProxy;
let proxyUrl: string;
let apiKey: string;
let dir: string;

beforeAll(async () => {
  server = await startServer({ overrides: { matchBounds: { callBudgetMs: 0 } } });
  await loadGeneratedCompanies(server, 20, 5);
  apiKey = (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw;
  proxy = new HoldingProxy(server.url, '/api/companies/match');
  proxyUrl = await proxy.start();
  dir = mkdtempSync(path.join(tmpdir(), 'ncd-match-bound-'));
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ncd enrich --match-names when the server leaves names out', () => {
  it('sends them again, then reports them as not_attempted', async () => {
    const input = path.join(dir, 'names.csv');
    writeFileSync(input, 'firma\nNordlys Bygg AS\nFjordkraft Regnskap AS\nSolberg Fysioterapi AS\n');
    const out = path.join(dir, 'out.csv');
    const r = await runProcess(
      [CLI, 'enrich', input, '--match-names', '--name-column', 'firma', '--out', out, '--url', proxyUrl],
      { NCD_API_KEY: apiKey },
    );
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = parse(readFileSync(out)) as string[][];
    expect(header.slice(0, 5)).toEqual(['firma', 'match', 'matchCountry', 'matchScore', 'matchStatus']);
    expect(rows.map((row) => row[4])).toEqual(['not_attempted', 'not_attempted', 'not_attempted']);
    // Three calls: the batch, then the names left out, twice, in ever smaller batches.
    expect(proxy.calls).toBe(3);
    expect(r.stdout + r.stderr).toContain('names not tried 3');
  }, 120_000);
});
