// The web console in headless Chromium on the demo data: sign in with a key, search and open a
// company, see its financial chart, owner graph and timeline (checked by their text and by
// screenshots: painted in the series' colours, and pixel-identical when drawn again), create a
// destination and a watchlist and see a delivery, rotate the key; axe-core finds no serious
// violation on any page; no console error and no CSP violation; the key never shows in a URL, the
// page's source or the server's log. Screenshots go to test-artifacts/ (UPDATE_DOCS_SCREENSHOTS=1
// writes the README's copies into docs/console/).
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Writable } from 'node:stream';
import pixelmatch from 'pixelmatch';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/jobs/demo-data.ts';
import { createLogger } from '../../src/logger.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { launchChromium } from './chromium.ts';

const ARTIFACTS = path.resolve('test-artifacts/console');
const DOCS = path.resolve('docs/console');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const log: string[] = [];
const watched = mapEnhet(generateCompany(7, 4242).enhet);

let server: TestServer;
let receiver: WebhookReceiver;
let browser: Browser;
let key: string;
let showcase: { orgNumber: string; name: string; ownerNames: string[]; years: string[] };
let timelineCompany: { orgNumber: string; events: number };

const shot = async (page: Page, name: string) => {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env.UPDATE_DOCS_SCREENSHOTS === '1') writeFileSync(path.join(DOCS, `${name}.png`), readFileSync(file));
};

async function api(p: string) {
  const res = await http(server.url, 'GET', p, { key });
  expect(res.status, p).toBe(200);
  return res.body;
}

/** A Norwegian demo company with two filed years and owners at least two layers up. */
async function findShowcase() {
  const page = await api('/api/companies?country=NO&orgForm=AS&limit=100');
  for (const row of page.data) {
    const owners = await api(`/api/companies/${row.orgNumber}/owners?includePersons=true&threshold=0`);
    if (owners.flags.layers < 2) continue;
    const rec = await api(`/api/companies/${row.orgNumber}`);
    if (rec.financials.length < 2) continue;
    const ownerNames = [
      ...new Set(owners.candidates.flatMap((c: any) => c.paths[0].map((h: any) => h.name))),
    ] as string[];
    return {
      orgNumber: row.orgNumber,
      name: rec.name,
      ownerNames,
      years: rec.financials.map((f: any) => f.periodTo.slice(0, 4)),
    };
  }
  throw new Error('the demo data has no company with two filed years and two layers of owners');
}

/** Records console errors, failed requests and CSP violations (the listener is injected by the
 *  browser before any page script, so it is not itself subject to the policy). */
async function openPage(viewport = { width: 1200, height: 900 }) {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP: ' + e.violatedDirective + ' ' + e.blockedURI))",
  );
  return { page, errors };
}

async function axeSerious(page: Page) {
  await page.evaluate(AXE);
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Pixels within a small distance of an RGB colour. */
function countColour(png: PNG, [r, g, b]: [number, number, number]) {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4)
    if (Math.abs(png.data[i] - r) + Math.abs(png.data[i + 1] - g) + Math.abs(png.data[i + 2] - b) < 60) n++;
  return n;
}

async function signIn(page: Page) {
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const nav = page.getByRole('navigation', { name: 'Console' });
  const refused = page.locator('#sign-in-error');
  await nav.or(refused).waitFor();
  if (await refused.isVisible()) throw new Error(`sign-in refused: ${await refused.innerText()}`);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  if (process.env.UPDATE_DOCS_SCREENSHOTS === '1') mkdirSync(DOCS, { recursive: true });
  receiver = await startWebhookReceiver();
  const sink = new Writable({
    write(chunk, _enc, done) {
      log.push(String(chunk));
      done();
    },
  });
  server = await startServer({
    env: { ALLOW_PRIVATE_DESTINATIONS: 'true', LOG_LEVEL: 'info' },
    overrides: { logger: createLogger('info', sink) },
  });
  await loadDemoData(server.ctx, () => undefined);
  await server.ctx.repos.companyWrites.write([{ core: watched }]);
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  showcase = await findShowcase();
  const events = await api('/api/events?country=NO&limit=1000');
  const counts = new Map<string, number>();
  for (const e of events.data) counts.set(e.orgNumber, (counts.get(e.orgNumber) ?? 0) + 1);
  const [org, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  timelineCompany = { orgNumber: org, events: n };
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

describe('web console in Chromium', () => {
  it('signs in with a key, searches and opens a company with its chart, owner graph and sources', async () => {
    const { page, errors } = await openPage();
    await signIn(page);
    expect(page.url()).toBe(`${server.url}/console`);
    await page.getByLabel('Name').fill(showcase.name.slice(0, 12));
    const link = page.getByRole('link', { name: showcase.name, exact: true });
    await link.waitFor();
    await shot(page, 'search');
    await link.click();
    await page.waitForURL(`${server.url}/console/companies/${showcase.orgNumber}`);
    await page.getByRole('heading', { level: 1, name: new RegExp(showcase.name) }).waitFor();
    await page.locator('.financial-chart canvas').waitFor();
    await page.locator('.owner-graph svg .node').first().waitFor();

    // The chart: every filed year in its table, the revenue line painted in its colour.
    const figures = await page.locator('#financials table.figures').innerText();
    for (const y of showcase.years) expect(figures).toContain(y);
    const chart = PNG.sync.read(await page.locator('.financial-chart').screenshot());
    expect(countColour(chart, [0x1f, 0x6f, 0xeb])).toBeGreaterThan(100);

    // The owner graph: a node for every owner on the first paths, the subject outlined.
    const graphText = await page.locator('.owner-graph svg').textContent();
    for (const n of showcase.ownerNames) expect(graphText).toContain(n.length > 22 ? n.slice(0, 21) : n);
    const graph = await page.locator('.owner-graph').screenshot();
    expect(await page.locator('#owners table').innerText()).toContain('Effective share');
    expect(await page.locator('#screening').innerText()).toMatch(/subjects screened/);
    // Figures link to their source.
    expect(await page.locator('#facts a.sourced').first().getAttribute('href')).toContain(showcase.orgNumber);
    expect(await axeSerious(page)).toEqual([]);
    await shot(page, 'company');

    // Drawn again, the graph is the same picture pixel for pixel (a fixed layout, not a random one).
    await page.reload();
    await page.locator('.owner-graph svg .node').first().waitFor();
    const again = await page.locator('.owner-graph').screenshot();
    const a = PNG.sync.read(graph);
    const b = PNG.sync.read(again);
    expect([b.width, b.height]).toEqual([a.width, a.height]);
    expect(pixelmatch(a.data, b.data, undefined, a.width, a.height, { threshold: 0 })).toBe(0);

    expect(await page.content()).not.toContain(key);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a company's events as a timeline, newest first", async () => {
    const { page, errors } = await openPage();
    await signIn(page);
    await page.goto(`${server.url}/console/companies/${timelineCompany.orgNumber}`);
    await page.locator('ol.timeline').waitFor();
    expect(await page.locator('ol.timeline > li').count()).toBe(timelineCompany.events);
    const times = await page
      .locator('ol.timeline time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
    expect([...times].sort().reverse()).toEqual(times);
    expect(await page.locator('ol.timeline').innerText()).toMatch(/→/);
    await shot(page, 'timeline');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('creates a destination and a watchlist, adds a company from search and shows the delivery', async () => {
    const { page, errors } = await openPage();
    await signIn(page);
    await page.getByRole('link', { name: 'Destinations' }).click();
    await page.getByLabel('Name', { exact: true }).fill('console-hook');
    await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/console`);
    await page.getByRole('button', { name: 'Create destination' }).click();
    await page.getByRole('heading', { name: 'console-hook' }).waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await shot(page, 'destinations');

    await page.getByRole('link', { name: 'Watchlists' }).click();
    await page.getByLabel('Name', { exact: true }).fill('console-watch');
    await page.getByRole('checkbox', { name: 'name', exact: true }).check();
    await page.getByRole('button', { name: 'Create watchlist' }).click();
    await page.getByRole('heading', { name: 'console-watch' }).waitFor();
    await page.getByLabel('Find a company to add').fill(watched.name);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: `Add ${watched.name}` }).click();
    const added = page.locator('li.card [role=status]').last();
    await expect.poll(() => added.innerText(), { timeout: 15_000 }).toContain(`${watched.name} added`);

    // The company changes; the delivery worker sends the alert; the log shows it delivered.
    await server.ctx.repos.companyWrites.write([{ core: { ...watched, name: `${watched.name} NY` } }]);
    for (let i = 0; i < 20 && !(await server.services.watchlistDelivery.tick()).delivered; i++);
    expect(receiver.requests.some((r) => r.url.startsWith('/console'))).toBe(true);
    await page.getByRole('button', { name: 'Refresh log' }).click();
    await page.locator('td.delivery.delivered').waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await shot(page, 'watchlists');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows usage with a chart and rotates the key after a confirmation', async () => {
    const { page, errors } = await openPage();
    await signIn(page);
    await page.getByRole('link', { name: 'Usage and key' }).click();
    await page.locator('.usage-chart canvas').waitFor();
    expect(Number((await page.locator('#usage-today').innerText()).replace(/\s/g, ''))).toBeGreaterThan(0);
    expect(await axeSerious(page)).toEqual([]);
    await shot(page, 'usage');
    await page.getByRole('button', { name: 'Rotate key…' }).click();
    await page.getByRole('button', { name: 'Yes, rotate the key' }).click();
    await page.locator('#rotate-status').waitFor();
    expect((await http(server.url, 'GET', '/api/keys/usage', { key })).status).toBe(401);
    // The console goes on with the new key, which is in the session only, never in the page.
    const rotated = (await page.evaluate("sessionStorage.getItem('ncd.console.key')")) as string | null;
    expect(rotated).toMatch(/^ncd_/);
    expect(rotated).not.toBe(key);
    const old = key;
    key = rotated!;
    await page.locator('#usage-today').waitFor();
    const html = await page.content();
    expect(html).not.toContain(old);
    expect(html).not.toContain(rotated!);
    expect(errors).toEqual([]);
    await page.close();
    const joined = log.join('');
    expect(joined).not.toContain(old);
    expect(joined).not.toContain(rotated!);
  });

  it('fits a phone screen without sideways scrolling', async () => {
    const { page, errors } = await openPage({ width: 390, height: 844 });
    await signIn(page);
    await page.goto(`${server.url}/console/companies/${showcase.orgNumber}`);
    await page.locator('.owner-graph svg .node').first().waitFor();
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(page, 'company-phone');
    expect(errors).toEqual([]);
    await page.close();
  });
});
