// The API reference (/docs) in a real browser, as a reader with a fresh key uses it: it loads
// under the strict CSP with our name, lists the operations, and "Try it out" calls the API with
// the Bearer key typed into Authorize (401 before, 200 after, counted against that key).
// Saves screenshots under test-artifacts/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { launchChromium } from './chromium.ts';

const ARTIFACTS = path.resolve('test-artifacts');
// GET /api/municipalities, shown under its tag "reference" (Swagger UI's element id).
const OPERATION = '#operations-reference-getMunicipalities';
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Executes the open operation and waits for its live response; returns the status shown. */
async function execute(page: Page): Promise<string> {
  const op = page.locator(OPERATION);
  await op.locator('button.execute').click();
  const status = op.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 30_000 });
  return (await status.textContent())!.trim();
}

describe('API reference in Chromium', () => {
  it('loads under our name, shows the operations, and "Try it out" succeeds with a key', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));

    const res = await page.goto(`${server.url}/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'self'[^;]*;/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
    expect(await page.title()).toBe('Nordic Company Data API · reference');

    // Scripts ran under the CSP: the document is fetched and every tag and operation rendered.
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 60_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Nordic Company Data API');
    // Our logo, not the framework's.
    const logo = await page.getAttribute('.topbar-wrapper img', 'src');
    expect(Buffer.from(logo!.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString()).toContain(
      'Nordic Company Data API',
    );
    const doc = (await http(server.url, 'GET', '/openapi.json')).body as { paths: Record<string, object> };
    const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 30_000 }).toBe(documented);
    expect(documented).toBeGreaterThan(30);
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-ui.png') });

    // A key from the API, as a newcomer gets one.
    const reg = await http(server.url, 'POST', '/api/keys/register', {
      body: { projectName: 'Docs reader', email: 'reader@example.com' },
    });
    expect(reg.status).toBe(201);
    const key = reg.body.raw as string;

    // Open the operation; "Try it out" is on. Without a key the API answers 401.
    const op = page.locator(OPERATION);
    await op.locator('.opblock-summary').click();
    await op.locator('input[placeholder="county"]').fill('03');
    expect(await execute(page)).toBe('401');
    await op.locator('button.btn-clear').click();

    // Authorize with the key (the "bearer" scheme), then the same call succeeds.
    await page.click('.auth-wrapper button.authorize');
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('input[type="text"]').fill(key);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.btn-done').click();
    expect(await execute(page)).toBe('200');
    const body = await op
      .locator('.live-responses-table .response-col_description pre.microlight')
      .first()
      .textContent();
    expect(JSON.parse(body!).data).toEqual([expect.objectContaining({ countyCode: '03' })]);
    // The curl line shown carries the Bearer header, and the calls were counted for this key.
    expect(await op.locator('.curl-command').textContent()).toContain(`Authorization: Bearer ${key}`);
    await op.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-ui-try-it.png') });
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key });
    expect(usage.body.usage.today).toBe(1);

    expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
    await page.close();
  });
});
