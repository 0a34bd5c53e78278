// The web console's weight and first render: `node --import tsx bench/console.ts`.
// Starts the server as deployed (bin/serve.mjs) on a fresh embedded store with the demo data,
// registers a key, and opens a company page in headless Chromium (Debian's, CHROMIUM_PATH
// overrides) 10 times with a cold cache (a new browser context each time) and 10 times warm
// (the same context: script and stylesheet from the HTTP cache). First render is the time from
// the navigation's start to the company's name in the page heading, read by the page's own
// performance clock. Writes bench/results/console.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { percentiles } from './harness.ts';
import { machine, ROOT, startServer } from './proc.ts';

const RUNS = 10;
const dataDir = mkdtempSync(path.join(tmpdir(), 'ncd-console-bench-'));
const server = await startServer({ DATA_DIR: dataDir, DEMO_DATA: 'auto' }, 600_000);
try {
  const reg = await fetch(`${server.url}/api/keys/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectName: `console-bench-${Date.now()}`, email: 'bench@example.com' }),
  });
  const { raw: key, keyPrefix } = (await reg.json()) as { raw: string; keyPrefix: string };
  // A company page makes about ten API calls: the free tier's 20 a minute would throttle the runs.
  // The operator command is handed over to the running server, as an operator would run it.
  for (const args of [
    ['keys', 'set-tier', keyPrefix, 'internal'],
    ['keys', 'set-limits', keyPrefix, '--rpm', '0'],
  ])
    execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: 'ignore',
    });
  await new Promise((r) => setTimeout(r, 1500)); // verified keys are cached for at most 1 s
  const search = await fetch(`${server.url}/api/companies?orgForm=AS&limit=1`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const [company] = ((await search.json()) as { data: { orgNumber: string; name: string }[] }).data;

  const shell = await (await fetch(`${server.url}/console`)).text();
  const assets = [...shell.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const sizes = await Promise.all(
    assets.map(async (a) => {
      const body = Buffer.from(await (await fetch(server.url + a)).arrayBuffer());
      return { asset: a.replace(/\.[0-9a-f]{16}\./, '.'), bytes: body.length, gzipBytes: gzipSync(body).length };
    }),
  );

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const url = `${server.url}/console/companies/${company.orgNumber}`;
  // A function, not a string: a string predicate is evaluated in the page, which the CSP forbids.
  const heading = (name: string) => {
    const g = globalThis as unknown as {
      document: { querySelector(s: string): { textContent: string } | null };
      performance: { now(): number };
    };
    const h1 = g.document.querySelector('main h1');
    return h1 !== null && h1.textContent.includes(name) && g.performance.now();
  };
  const render = async (page: import('playwright-core').Page) => {
    await page.goto(url, { waitUntil: 'commit' });
    try {
      const handle = await page.waitForFunction(heading, company.name, { polling: 'raf', timeout: 30_000 });
      return Number(await handle.jsonValue());
    } catch (err) {
      throw new Error(`no heading for ${company.name}: ${(await page.innerText('body')).slice(0, 400)}`, {
        cause: err,
      });
    }
  };
  const cold: number[] = [];
  const warm: number[] = [];
  const warmContext = await browser.newContext();
  await warmContext.addInitScript(`sessionStorage.setItem('ncd.console.key', ${JSON.stringify(key)})`);
  const warmPage = await warmContext.newPage();
  await render(warmPage); // fills the HTTP cache and the server's bundle
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    await context.addInitScript(`sessionStorage.setItem('ncd.console.key', ${JSON.stringify(key)})`);
    cold.push(await render(await context.newPage()));
    await context.close();
    warm.push(await render(warmPage));
  }
  await browser.close();
  const result = {
    scenario: 'console',
    command: 'node --import tsx bench/console.ts',
    startedAt: new Date().toISOString(),
    machine: machine(),
    store: 'embedded (PGlite), demo data',
    page: '/console/companies/{orgNumber} (a demo AS)',
    assets: sizes,
    totalGzipBytes: sizes.reduce((s, a) => s + a.gzipBytes, 0),
    firstRenderMs: { cold: percentiles(cold), warm: percentiles(warm) },
  };
  writeFileSync(path.join(ROOT, 'bench/results/console.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
