// The OAuth consent page (issue 21) in a real browser: a registered MCP client sends the user to
// /api/oauth/authorize; the page renders under the strict CSP with no console error, and each
// way of allowing (paste a key, register a new project) ends with the browser at the client's
// loopback callback holding a code that the token endpoint accepts. Screenshots go to
// test-artifacts/.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { postForm } from '../helpers/oauth-client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { launchChromium } from './chromium.ts';

const ARTIFACTS = path.resolve('test-artifacts');
let server: TestServer;
let browser: Browser;
let callback: Server;
let callbackUrl: string;
const received: URL[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  browser = await launchChromium();
  // The MCP client's loopback redirect listener (RFC 8252).
  callback = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url); // not the browser's /favicon.ico
    res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => callback?.close(resolve));
});

async function authorizeUrl() {
  const reg = await http(server.url, 'POST', '/api/oauth/register', {
    body: { client_name: 'Claude Code', redirect_uris: [callbackUrl], token_endpoint_auth_method: 'none' },
  });
  expect(reg.status).toBe(201);
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const url = new URL('/api/oauth/authorize', server.url);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: reg.body.client_id,
    redirect_uri: callbackUrl,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    resource: `${server.url}/api/mcp`,
  }))
    url.searchParams.set(k, v);
  return { url, verifier, state, clientId: reg.body.client_id as string };
}

async function signInWith(fill: (page: import('playwright-core').Page) => Promise<void>, shot: string) {
  const { url, verifier, state, clientId } = await authorizeUrl();
  const page = await browser.newPage({ viewport: { width: 1000, height: 1100 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(url.href, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain(`form-action 'self' ${new URL(callbackUrl).origin}`);
  expect(await page.textContent('#consent-title')).toBe('Claude Code wants to use your API key');
  await page.screenshot({ path: path.join(ARTIFACTS, `${shot}.png`), fullPage: true });
  const before = received.length;
  await fill(page);
  await expect.poll(() => received.length, { timeout: 10_000 }).toBe(before + 1);
  await expect.poll(() => page.url()).toContain('/callback?');
  const landed = received[received.length - 1];
  expect(landed.searchParams.get('state')).toBe(state);
  const token = await postForm(`${server.url}/api/oauth/token`, {
    grant_type: 'authorization_code',
    code: landed.searchParams.get('code')!,
    client_id: clientId,
    redirect_uri: callbackUrl,
    code_verifier: verifier,
  });
  expect(token.status).toBe(200);
  expect(errors).toEqual([]);
  await page.close();
  return token.body;
}

describe('OAuth consent page in Chromium', () => {
  it('allows with a pasted API key and returns to the client', async () => {
    const { raw } = await createKey(server);
    const tokens = await signInWith(async (page) => {
      await page.fill('#key', raw);
      await page.click('#allow-key');
    }, 'consent-page');
    expect(tokens.access_token).toMatch(/^ncd_at_/);
  });

  it('allows by registering a new free project', async () => {
    const tokens = await signInWith(async (page) => {
      await page.fill('#projectName', 'Browser agent project');
      await page.fill('#email', 'browser@example.com');
      await page.click('#allow-register');
    }, 'consent-page-register');
    expect(tokens.refresh_token).toMatch(/^ncd_rt_/);
  });

  it('shows a wrong key on the page without leaving it', async () => {
    const { url } = await authorizeUrl();
    const page = await browser.newPage();
    await page.goto(url.href);
    await page.fill('#key', 'ncd_not-a-key');
    await Promise.all([page.waitForNavigation(), page.click('#allow-key')]);
    expect(await page.textContent('#consent-error')).toContain('not valid');
    expect(page.url()).toContain('/api/oauth/authorize');
    await page.close();
  });
});
