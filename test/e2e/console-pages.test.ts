// The web console's pages and assets over HTTP: one shell for each console address, under the
// strict CSP, with content-hashed script and stylesheet; and the 30-day usage history the
// console's usage chart draws.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../helpers/keys.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

async function text(path: string) {
  const res = await fetch(server.url + path);
  return { status: res.status, headers: res.headers, body: await res.text() };
}

describe('console pages', () => {
  it('serves the same shell at every console address, with only same-origin hashed assets', async () => {
    const pages = [
      '/console',
      '/console/companies/923609016',
      '/console/usage',
      '/console/destinations',
      '/console/watchlists',
    ];
    const shells = await Promise.all(pages.map(text));
    for (const page of shells) {
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'self'");
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
      expect(page.body).not.toMatch(/(src|href)="https?:/); // nothing from another origin
      expect(page.body).toBe(shells[0].body);
    }
    const script = /<script src="(\/console\/assets\/console\.[0-9a-f]{16}\.js)"/.exec(shells[0].body)?.[1];
    const style = /<link rel="stylesheet" href="(\/console\/assets\/console\.[0-9a-f]{16}\.css)"/.exec(
      shells[0].body,
    )?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();

    const js = await text(script!);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(js.body.length).toBeGreaterThan(10_000);
    const css = await text(style!);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('answers 404 for an asset that is not in the bundle and for an address the console does not have', async () => {
    expect((await text('/console/assets/console.0000000000000000.js')).status).toBe(404);
    expect((await text('/console/nowhere')).status).toBe(404);
  });
});

describe('GET /api/keys/usage history', () => {
  it('lists the last 30 UTC days, oldest first, with today counted', async () => {
    const { raw } = await createKey(server);
    for (let i = 0; i < 3; i++)
      expect((await http(server.url, 'GET', '/api/municipalities?county=03', { key: raw })).status).toBe(200);
    const res = await http(server.url, 'GET', '/api/keys/usage', { key: raw });
    expect(res.status).toBe(200);
    const history = res.body.history as { day: string; count: number }[];
    expect(history).toHaveLength(30);
    expect(history[29].day).toBe(new Date().toISOString().slice(0, 10));
    expect(history[29].count).toBe(3);
    expect(history.slice(0, 29).every((d) => d.count === 0)).toBe(true);
    expect([...history.map((d) => d.day)].sort()).toEqual(history.map((d) => d.day));
  });
});
