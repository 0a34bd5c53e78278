// Issue 22: deployed on a LAN address over plain http, /docs was blank and /setup unstyled
// (the CSP's upgrade-insecure-requests sent the browser to https for the pages' own CSS and
// JS), and the key stayed in the address bar. Chromium resolves a non-localhost name, ncd.test,
// to the loopback server (--host-resolver-rules), BASE_URL is left unset and nothing is https.
// Saves screenshots under test-artifacts/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { launchChromium } from './chromium.ts';

const ARTIFACTS = path.resolve('test-artifacts');
const HOST = 'ncd.test';
let server: TestServer;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  const port = new URL(server.url).port;
  origin = `http://${HOST}:${port}`;
  browser = await launchChromium([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Watched {
  page: Page;
  errors: string[];
  urls: string[];
}

/** A page that records console errors (CSP violations land there), failed loads and every URL asked for. */
async function openPage(): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors: string[] = [];
  const urls: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => urls.push(r.url()));
  page.on('requestfailed', (r) => errors.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  return { page, errors, urls };
}

/** A computed style property (evaluated in the page: this project's TypeScript has no DOM types). */
const style = (page: Page, selector: string, property: string) =>
  page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)}))[${JSON.stringify(property)}]`);

/** Every sub-resource came from the page's own plain-http origin: nothing was upgraded to https. */
function expectPlainHttp(urls: string[]) {
  const foreign = urls.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'));
  expect(foreign).toEqual([]);
}

describe(`plain http on ${HOST}`, () => {
  it('loads /docs: Swagger UI renders with its styles and scripts, no CSP error', async () => {
    const { page, errors, urls } = await openPage();
    const res = await page.goto(`${origin}/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(res?.headers()['strict-transport-security']).toBeUndefined();

    // Scripts ran: Swagger UI fetched the document and rendered its title and operations.
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 30_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Nordic Company Data API');
    await page.waitForSelector('.opblock-tag', { timeout: 30_000 });
    expect(await page.locator('.opblock-tag').count()).toBeGreaterThan(5);
    // Styles applied: swagger-ui.css sets the wrapper's font and lays the tags out as blocks.
    const font = await style(page, '.swagger-ui .info .title', 'fontFamily');
    expect(font).toMatch(/sans-serif/);
    const loadedSheets = await page.evaluate('[...document.styleSheets].filter((s) => s.cssRules.length > 0).length');
    expect(loadedSheets).toBeGreaterThan(0);
    // "Try it out" would call the server the reader is on, not localhost.
    expect(await page.textContent('.servers')).toContain(origin);

    expectPlainHttp(urls);
    expect(errors).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'plain-http-docs.png'), fullPage: false });
    await page.close();
  });

  it('loads /setup styled and scripted, and takes the key out of the address bar', async () => {
    // Registered through the same host name: the setup link points at it (BASE_URL unset).
    const reg = await server.app.inject({
      method: 'POST',
      url: '/api/keys/register',
      headers: { host: new URL(origin).host },
      payload: { projectName: 'LAN deployment', email: 'lan@example.com' },
    });
    expect(reg.statusCode).toBe(201);
    const { raw, setupUrl } = reg.json() as { raw: string; setupUrl: string };
    expect(setupUrl).toBe(`${origin}/setup?key=${raw}`);

    const { page, errors, urls } = await openPage();
    const res = await page.goto(setupUrl, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    // The script ran: the key left the address bar, copy buttons appeared.
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${origin}/setup`);
    expect(await page.locator('button[data-copy="api-key"]').isVisible()).toBe(true);
    expect(await page.textContent('#api-key')).toBe(raw);
    // The stylesheet applied: main is a centred 52rem column, code blocks have their card colour.
    expect(await style(page, 'main', 'maxWidth')).toBe('832px');
    expect(await style(page, 'pre', 'borderRadius')).toBe('6px');
    // The quick starts name this host and never the key.
    const quickStarts = await page.textContent('section[aria-labelledby="qs-h"]');
    expect(quickStarts).toContain(`${origin}/api/keys/usage`);
    expect(quickStarts).not.toContain(raw);

    expectPlainHttp(urls);
    expect(errors).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'plain-http-setup.png'), fullPage: true });
    // The entry was replaced, not added: one step back is the blank start page, and no entry
    // of the history holds the key.
    await page.goBack({ waitUntil: 'load' });
    expect(page.url()).toBe('about:blank');
    await page.close();
  });

  it('serves a styled landing page at /', async () => {
    const { page, errors, urls } = await openPage();
    const res = await page.goto(`${origin}/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(await page.getAttribute('#docs-link', 'href')).toBe(`${origin}/docs`);
    expect(await style(page, 'main', 'maxWidth')).toBe('832px');
    expectPlainHttp(urls);
    expect(errors).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'plain-http-landing.png'), fullPage: true });
    await page.close();
  });
});
