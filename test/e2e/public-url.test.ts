// Deployed behind any URL (issue 22): the https-only headers (CSP upgrade-insecure-requests,
// HSTS) appear only when the request is https (directly or via a trusted proxy) or BASE_URL is
// https; with BASE_URL left at its default the setup link, the e-mail, the setup page and the
// OpenAPI document use the request's own host; GET / is a landing page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer, SetupMail } from '../../src/mail/mailer.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const sent: SetupMail[] = [];
const mailer: Mailer = {
  async sendSetupLink(m) {
    sent.push(m);
  },
  async close() {},
};

let plain: TestServer; // BASE_URL unset, TRUST_PROXY on
let pinned: TestServer; // BASE_URL=https://api.example.test, no proxy trusted

beforeAll(async () => {
  plain = await startServer({ env: { TRUST_PROXY: 'true' }, overrides: { mailer } });
  pinned = await startServer({ env: { BASE_URL: 'https://api.example.test' }, overrides: { mailer } });
  // The helper points BASE_URL-less links at the port it got; this server's BASE_URL is explicit.
  pinned.ctx.config.baseUrl = 'https://api.example.test';
});
afterAll(async () => {
  await plain?.close();
  await pinned?.close();
});

const PAGES = ['/', '/docs/', '/openapi.json', '/api/health', '/api/nothing-here'];

function csp(headers: Record<string, unknown>): string {
  return String(headers['content-security-policy'] ?? '');
}

describe('https-only headers', () => {
  it('are absent over plain http, where they would break the page', async () => {
    for (const url of PAGES) {
      const res = await plain.app.inject({ url, headers: { host: 'ncd.test:8080' } });
      expect(res.statusCode, url).not.toBe(500);
      expect(csp(res.headers), url).toContain("default-src 'self'");
      expect(csp(res.headers), url).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      // helmet's other headers, on every response.
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('are sent when a trusted proxy says the request was https', async () => {
    for (const url of PAGES) {
      const res = await plain.app.inject({ url, headers: { host: 'ncd.test', 'x-forwarded-proto': 'https' } });
      expect(csp(res.headers), url).toContain('upgrade-insecure-requests');
      expect(csp(res.headers).match(/upgrade-insecure-requests/g), url).toHaveLength(1);
      expect(res.headers['strict-transport-security'], url).toMatch(/^max-age=\d+/);
    }
  });

  it('ignore X-Forwarded-Proto from an untrusted client, and follow an https BASE_URL', async () => {
    const spoofed = await plain.app.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
    // plain trusts every proxy; a server that trusts none must ignore the header:
    expect(csp(spoofed.headers)).toContain('upgrade-insecure-requests');
    const untrusted = await startServer({ overrides: { mailer } });
    try {
      const res = await untrusted.app.inject({ url: '/docs/', headers: { 'x-forwarded-proto': 'https' } });
      expect(csp(res.headers)).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await untrusted.close();
    }
    for (const url of PAGES) {
      const res = await pinned.app.inject({ url });
      expect(csp(res.headers), url).toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security'], url).toMatch(/^max-age=\d+/);
    }
  });
});

describe('public links', () => {
  it("use the request's host when BASE_URL is left at its default", async () => {
    sent.length = 0;
    const reg = await plain.app.inject({
      method: 'POST',
      url: '/api/keys/register',
      headers: { host: 'ncd.test:8080', 'x-forwarded-for': '198.51.100.7' },
      payload: { projectName: 'LAN project', email: 'lan@example.com' },
    });
    expect(reg.statusCode).toBe(201);
    const { raw, setupUrl } = reg.json() as { raw: string; setupUrl: string };
    expect(setupUrl).toBe(`http://ncd.test:8080/setup?key=${raw}`);
    expect(sent.map((m) => m.setupUrl)).toEqual([setupUrl]);

    const page = await plain.app.inject({ url: `/setup?key=${raw}`, headers: { host: 'ncd.test:8080' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="http://ncd.test:8080/docs"');
    expect(page.body).toContain('&#34;http://ncd.test:8080/api/keys/usage&#34;');

    // Behind a trusted proxy: its scheme and forwarded host.
    const proxied = await plain.app.inject({
      url: '/openapi.json',
      headers: { host: '10.0.0.5:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'data.example.org' },
    });
    expect(proxied.json().servers).toEqual([{ url: 'https://data.example.org', description: 'This server' }]);
    const docs = await plain.app.inject({ url: '/docs/json', headers: { host: '192.168.1.20:3000' } });
    expect(docs.json().servers).toEqual([{ url: 'http://192.168.1.20:3000', description: 'This server' }]);
  });

  it('fall back to the default for a Host that is not a host name', async () => {
    const res = await plain.app.inject({ url: '/openapi.json', headers: { host: 'bad_host"><x' } });
    expect(res.json().servers).toEqual([{ url: plain.ctx.config.baseUrl, description: 'This server' }]);
  });

  it('use BASE_URL, whatever the Host header, when it is set', async () => {
    sent.length = 0;
    const reg = await pinned.app.inject({
      method: 'POST',
      url: '/api/keys/register',
      headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
      payload: { projectName: 'Pinned project', email: 'pinned@example.com' },
    });
    expect(reg.statusCode).toBe(201);
    const { raw, setupUrl } = reg.json() as { raw: string; setupUrl: string };
    expect(setupUrl).toBe(`https://api.example.test/setup?key=${raw}`);
    expect(sent.map((m) => m.setupUrl)).toEqual([setupUrl]);
    const spec = await pinned.app.inject({ url: '/openapi.json', headers: { host: 'attacker.example' } });
    expect(spec.json().servers).toEqual([{ url: 'https://api.example.test', description: 'This server' }]);
  });
});

describe('GET /', () => {
  it('is a landing page linking the docs, not a JSON 404', async () => {
    const res = await plain.app.inject({ url: '/', headers: { host: 'ncd.test' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<a id="docs-link" href="http://ncd.test/docs">');
    expect(res.body).toContain('curl -X POST &#34;http://ncd.test/api/keys/register&#34;');
    expect(res.body).not.toMatch(/<script>|(src|href)="https?:\/\/(?!ncd\.test)/);
  });
});
