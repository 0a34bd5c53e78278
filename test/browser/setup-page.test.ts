// The setup link in a real browser: register a key through the API, use it on several days,
// open the link, and check what a person sees. Saves screenshots under test-artifacts/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { launchChromium } from './chromium.ts';

const ARTIFACTS = path.resolve('test-artifacts');
const DAY = 86_400_000;
const TODAY = Date.parse('2026-05-14T09:30:00Z');
const clock = new FakeClock(new Date(TODAY - 6 * DAY));
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer({ env: { TRUST_PROXY: 'true' }, overrides: { clock } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that records console errors (CSP violations land there), requests and their Referer. */
async function openPage(): Promise<{ page: Page; errors: string[]; requests: { url: string; referer?: string }[] }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const errors: string[] = [];
  const requests: { url: string; referer?: string }[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push({ url: r.url(), referer: r.headers()['referer'] }));
  page.on(
    'response',
    (r) => r.status() >= 400 && r.request().resourceType() !== 'document' && errors.push(`${r.status()} ${r.url()}`),
  );
  return { page, errors, requests };
}

describe('setup page in Chromium', () => {
  it('shows the project, usage numbers and chart, and takes the key out of the address bar', async () => {
    const reg = await http(server.url, 'POST', '/api/keys/register', {
      body: { projectName: 'Fjord CRM sync', email: 'owner@example.com' },
      headers: { 'x-forwarded-for': '192.0.2.10' },
    });
    expect(reg.status).toBe(201);
    const { raw, setupUrl } = reg.body as { raw: string; setupUrl: string };

    // Requests on four of the last seven days: 3, 5, 2 and, today, 4.
    for (const [daysAgo, calls] of [
      [6, 3],
      [4, 5],
      [1, 2],
      [0, 4],
    ]) {
      clock.set(new Date(TODAY - daysAgo * DAY));
      for (let i = 0; i < calls; i++)
        expect((await http(server.url, 'GET', '/api/municipalities?county=03', { key: raw })).status).toBe(200);
    }

    const { page, errors, requests } = await openPage();
    const response = await page.goto(setupUrl, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);

    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${server.url}/setup`);
    expect(page.url()).not.toContain(raw);
    expect(await page.evaluate('location.search')).toBe('');

    expect(await page.textContent('#project-name')).toBe('Fjord CRM sync');
    expect(await page.textContent('#tier')).toBe('free');
    expect(await page.textContent('#usage-today')).toBe('4');
    expect(await page.textContent('#usage-month')).toBe('14');
    expect(await page.textContent('#usage-total')).toBe('14');

    const bars = page.locator('#usage-chart rect.bar');
    expect(await bars.count()).toBe(30);
    const drawn = await page.$$eval('#usage-chart rect.bar:not(.zero)', (rects) =>
      rects.map((r) => ({
        day: r.getAttribute('data-day'),
        count: Number(r.getAttribute('data-count')),
        height: (r as unknown as { getBBox(): { height: number } }).getBBox().height,
      })),
    );
    expect(drawn.map(({ day, count }) => ({ day, count }))).toEqual([
      { day: '2026-05-08', count: 3 },
      { day: '2026-05-10', count: 5 },
      { day: '2026-05-13', count: 2 },
      { day: '2026-05-14', count: 4 },
    ]);
    // Bars are drawn to scale: the busiest day is the tallest.
    expect(drawn[1].height).toBeGreaterThan(drawn[3].height);
    expect(drawn[3].height).toBeGreaterThan(drawn[2].height);
    const chartBox = await page.locator('#usage-chart').boundingBox();
    expect(chartBox!.width).toBeGreaterThan(300);
    expect(chartBox!.height).toBeGreaterThan(80);

    // The script ran under the CSP: copy buttons are shown, local reset times added.
    expect(await page.locator('button[data-copy="api-key"]').isVisible()).toBe(true);
    expect(await page.locator('time[data-local] + .local').count()).toBe(2);
    expect(await page.textContent('#api-key')).toBe(raw);

    // The key is masked until revealed: only its prefix is on screen.
    expect(await page.locator('#api-key').isVisible()).toBe(false);
    const masked = await page.textContent('#api-key-masked');
    expect(await page.locator('#api-key-masked').isVisible()).toBe(true);
    expect(masked).toMatch(new RegExp(`^${reg.body.keyPrefix}•+$`));
    expect(await page.locator('body').innerText()).not.toContain(raw);
    await page.screenshot({ path: path.join(ARTIFACTS, 'setup-page-masked.png') });
    await page.click('button[data-reveal="api-key"]');
    expect(await page.locator('#api-key').isVisible()).toBe(true);
    expect(await page.locator('#api-key-masked').isVisible()).toBe(false);
    expect(await page.textContent('button[data-reveal="api-key"]')).toBe('Hide');
    await page.click('button[data-reveal="api-key"]');
    expect(await page.locator('#api-key').isVisible()).toBe(false);

    // Usage meters against the free tier's quotas (500 a day, 5,000 a month).
    expect(await page.getAttribute('#meter-today', 'value')).toBe('4');
    expect(await page.getAttribute('#meter-today', 'max')).toBe('500');
    expect(await page.getAttribute('#meter-month', 'value')).toBe('14');
    expect(await page.getAttribute('#meter-month', 'max')).toBe('5000');
    expect(await page.locator('#meter-today').isVisible()).toBe(true);

    // Axis titles, and each used day's number above its bar.
    expect(await page.textContent('#chart-x-title')).toBe('Day (UTC)');
    expect(await page.textContent('#chart-y-title')).toBe('Requests');
    expect(
      await page.$$eval('#usage-chart text.value', (ts) => ts.map((t) => [t.getAttribute('data-day'), t.textContent])),
    ).toEqual([
      ['2026-05-08', '3'],
      ['2026-05-10', '5'],
      ['2026-05-13', '2'],
      ['2026-05-14', '4'],
    ]);

    // Navigation to the docs at the top of the page.
    const nav = await page.$$eval('nav.docs-nav a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(nav).toEqual([
      ['API reference', `${server.url}/docs`],
      ['OpenAPI document', `${server.url}/openapi.json`],
      ['Error codes', `${server.url}/errors`],
    ]);
    expect(errors).toEqual([]);

    // Nothing left the origin, and no sub-request carried the key as a referrer.
    expect(requests.every((r) => r.url.startsWith(server.url))).toBe(true);
    expect(requests.filter((r) => r.referer)).toEqual([]);

    await page.screenshot({ path: path.join(ARTIFACTS, 'setup-page.png'), fullPage: true });

    // prefers-color-scheme: dark turns the page dark (background and text swap).
    const colours = () =>
      page.evaluate(
        '(() => { const s = getComputedStyle(document.body); return { bg: s.backgroundColor, fg: s.color }; })()',
      );
    expect(await colours()).toEqual({ bg: 'rgb(255, 255, 255)', fg: 'rgb(29, 35, 42)' });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await colours()).toEqual({ bg: 'rgb(13, 17, 23)', fg: 'rgb(230, 237, 243)' });
    await page.screenshot({ path: path.join(ARTIFACTS, 'setup-page-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    // A reload has no key any more: a clear page, not an error.
    const reloaded = await page.reload({ waitUntil: 'load' });
    expect(reloaded?.status()).toBe(400);
    expect(await page.textContent('#invalid-link')).toBe('This setup link has no key');
    await page.close();
  });

  it('shows a clear page for a rotated key', async () => {
    const reg = await http(server.url, 'POST', '/api/keys/register', {
      body: { projectName: 'Rotated project', email: 'owner@example.com' },
      headers: { 'x-forwarded-for': '192.0.2.11' },
    });
    expect((await http(server.url, 'POST', '/api/keys/rotate', { key: reg.body.raw })).status).toBe(201);

    const { page, errors } = await openPage();
    const response = await page.goto(reg.body.setupUrl, { waitUntil: 'load' });
    expect(response?.status()).toBe(404);
    expect(await page.textContent('#invalid-link')).toBe('This key is not active');
    expect(await page.content()).not.toContain(reg.body.raw);
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${server.url}/setup`);
    // The document's own 404 is expected; nothing else may fail.
    expect(
      errors.filter((e) => !e.startsWith('Failed to load resource: the server responded with a status of 404')),
    ).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'setup-page-rotated-key.png'), fullPage: true });
    await page.close();
  });
});
