// GET /setup?key=…: the page a setup link opens. Real server, real database; the clock is a
// fake so that usage can be spread over several UTC days.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRawKey } from '../../src/domain/api-key.ts';
import { createLogger } from '../../src/logger.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const DAY = 86_400_000;
const clock = new FakeClock(new Date('2026-03-20T12:00:00Z'));
const logLines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  server = await startServer({ env: { LOG_LEVEL: 'info' }, overrides: { clock, logger: createLogger('info', sink) } });
});
afterAll(async () => {
  await server?.close();
});

const page = async (query: string) => {
  const res = await fetch(`${server.url}/setup${query}`);
  return { status: res.status, headers: res.headers, html: await res.text() };
};
const call = (key: string) => http(server.url, 'GET', '/api/municipalities?county=03', { key });
const textOf = (html: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];
const chartBars = (html: string) =>
  [...html.matchAll(/data-day="(\d{4}-\d\d-\d\d)" data-count="(\d+)"/g)].map((m) => ({
    day: m[1],
    count: Number(m[2]),
  }));

describe('GET /setup with a live key', () => {
  it('shows project, tier, limits, usage, the 30-day chart from stored daily rows, and does not count as usage', async () => {
    // Registered 40 days ago; calls then (outside the chart), 2 days ago, yesterday (one refused
    // over the quota) and today. Time only moves forward: counters never go back a day.
    clock.set(new Date(Date.parse('2026-03-20T12:00:00Z') - 40 * DAY));
    const key = await createKey(server, { limits: { rateLimitPerMinute: 0, dailyLimit: 3 } });
    const spread: [number, number][] = [
      [40, 1],
      [2, 2],
      [1, 4],
      [0, 1],
    ];
    for (const [daysAgo, calls] of spread) {
      clock.set(new Date(Date.parse('2026-03-20T12:00:00Z') - daysAgo * DAY));
      for (let i = 0; i < calls; i++) await call(key.raw);
    }
    clock.set('2026-03-20T12:00:00Z');

    const res = await page(`?key=${key.raw}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(textOf(res.html, 'project-name')).toBe(key.projectName);
    expect(textOf(res.html, 'tier')).toBe('free');
    expect(textOf(res.html, 'usage-today')).toBe('1');
    expect(textOf(res.html, 'usage-month')).toBe('6'); // 2 + 3 + 1 in March
    expect(textOf(res.html, 'usage-total')).toBe('7');
    expect(res.html).toContain('of 3 · 2 left');
    expect(res.html).toContain('<time data-local datetime="2026-03-21T00:00:00.000Z">2026-03-21 00:00 UTC</time>');
    expect(res.html).toContain('<time data-local datetime="2026-04-01T00:00:00.000Z">2026-04-01 00:00 UTC</time>');

    const bars = chartBars(res.html);
    expect(bars).toHaveLength(30);
    expect(bars[0].day).toBe('2026-02-19');
    expect(bars.at(-1)).toEqual({ day: '2026-03-20', count: 1 });
    expect(bars.filter((b) => b.count > 0)).toEqual([
      { day: '2026-03-18', count: 2 },
      { day: '2026-03-19', count: 3 },
      { day: '2026-03-20', count: 1 },
    ]);

    // Quick starts carry the base URL but never the key: it goes into NCD_API_KEY, read without echo.
    expect(res.html).toContain('read -rs NCD_API_KEY &#38;&#38; export NCD_API_KEY');
    expect(res.html).toContain(
      `curl -H &#34;Authorization: Bearer $NCD_API_KEY&#34; &#34;${server.url}/api/keys/usage&#34;`,
    );
    expect(res.html).toContain(`new NcdClient({ baseUrl: &#39;${server.url}&#39; })`);
    expect(res.html).toContain(`ncd enrich input.csv --column orgnr --out enriched.csv --url ${server.url}</code>`);
    const snippets = [...res.html.matchAll(/<code id="qs-[^"]+">([\s\S]*?)<\/code>/g)].map((m) => m[1]);
    expect(snippets).toHaveLength(5);
    for (const snippet of snippets) expect(snippet).not.toContain(key.raw);
    expect(res.html.split(key.raw)).toHaveLength(2); // once: in the key box
    expect(res.html).toContain(`href="${server.url}/docs"`);

    // Viewing the page twice more changed nothing.
    await page(`?key=${key.raw}`);
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: key.raw });
    expect(usage.body.usage).toMatchObject({ today: 1, thisMonth: 6, total: 7 });
  });

  it('is never cached, never a referrer, and runs under a CSP without inline script', async () => {
    const key = await createKey(server);
    const res = await page(`?key=${key.raw}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy') ?? '';
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? /default-src ([^;]*)/.exec(csp)?.[1];
    expect(scriptSrc).toBe("'self'");
    // Every script is external, same-origin and served by us; no CDN, no inline code.
    const scripts = [...res.html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0][2]).toBe('');
    const src = /src="([^"]+)"/.exec(scripts[0][1])![1];
    expect(src).toMatch(/^\/setup\/assets\/setup\.[0-9a-f]{10}\.js$/);
    expect(res.html).not.toMatch(/(src|href)="https?:\/\/(?!127\.0\.0\.1)/);

    const js = await fetch(server.url + src);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(await js.text()).toContain('history.replaceState');
    const css = /<link rel="stylesheet" href="([^"]+)">/.exec(res.html)![1];
    const cssRes = await fetch(server.url + css);
    expect(cssRes.status).toBe(200);
    expect(cssRes.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('escapes the project name', async () => {
    const created = await server.services.keys.register({
      projectName: '<img src=x onerror=alert(1)> & "Co"',
      email: 'x@example.com',
    });
    const res = await page(`?key=${created.raw}`);
    expect(res.status).toBe(200);
    expect(res.html).not.toContain('<img src=x');
    expect(textOf(res.html, 'project-name')).toBe('&#60;img src=x onerror=alert(1)&#62; &#38; &#34;Co&#34;');
  });

  it('keeps the key out of the log', async () => {
    const key = await createKey(server);
    await page(`?key=${key.raw}`);
    const setupLines = logLines.filter((l) => l.includes('/setup?key='));
    expect(setupLines.length).toBeGreaterThan(0);
    expect(setupLines.every((l) => l.includes('/setup?key=[redacted]'))).toBe(true);
    expect(logLines.join('')).not.toContain(key.raw);
  });
});

/** The key with its last checksum character changed (a fixed replacement would be the same character one time in 62). */
const withWrongChecksum = (raw: string) => raw.slice(0, -1) + (raw.endsWith('A') ? 'B' : 'A');

describe('GET /setup without a live key', () => {
  it.each([
    ['no key', '', 400, 'This setup link has no key'],
    ['an empty key', '?key=', 400, 'This setup link has no key'],
    ['a truncated key', '?key=ncd_abc123', 400, 'This setup link is incomplete'],
    [
      'a key with a wrong checksum',
      `?key=${withWrongChecksum(generateRawKey())}`,
      400,
      'This setup link is incomplete',
    ],
    ['a repeated key', `?key=${generateRawKey()}&key=${generateRawKey()}`, 400, 'This setup link is incomplete'],
    ['a very long value', `?key=${'x'.repeat(5000)}`, 400, 'This setup link is incomplete'],
    ['a well-formed key never issued', `?key=${generateRawKey()}`, 404, 'This key is not active'],
  ])('answers %s with a clear HTML page', async (_name, query, status, title) => {
    const res = await page(query);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(textOf(res.html, 'invalid-link')).toBe(title);
    const given = new URLSearchParams(query).getAll('key').filter(Boolean);
    for (const k of given) expect(res.html).not.toContain(k);
    expect(res.html).not.toMatch(/stack|Error:|at .*\.ts/);
  });

  it('answers a rotated key with 404 and does not repeat it', async () => {
    const key = await createKey(server);
    const rotated = await http(server.url, 'POST', '/api/keys/rotate', { key: key.raw });
    expect(rotated.status).toBe(201);
    const old = await page(`?key=${key.raw}`);
    expect(old.status).toBe(404);
    expect(textOf(old.html, 'invalid-link')).toBe('This key is not active');
    expect(old.html).not.toContain(key.raw);
    const fresh = await page(`?key=${rotated.body.raw}`);
    expect(fresh.status).toBe(200);
    expect(textOf(fresh.html, 'project-name')).toBe(key.projectName);
  });
});

describe('daily usage rows', () => {
  it('count exactly what the quota counter counts under concurrent requests', async () => {
    clock.set('2026-03-20T12:00:00Z');
    const key = await createKey(server, { limits: { rateLimitPerMinute: 0, dailyLimit: 25 } });
    const results = await Promise.all(Array.from({ length: 40 }, () => call(key.raw)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
    const history = await server.services.keys.usageHistory((await server.services.keyAuth.authenticate(key.raw))!);
    expect(history.at(-1)).toEqual({ day: '2026-03-20', count: 25 });
  });
});
