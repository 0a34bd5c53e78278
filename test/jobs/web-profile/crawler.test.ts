// The web-profile crawler against fake sites through the real safeFetch: robots.txt handling,
// redirects re-checked per hop, failure classes, decoding, the request cap and pacing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCrawler, type CrawlerOptions } from '../../../src/sources/web-crawler/crawler.ts';
import type { HostPacer } from '../../../src/sources/web-crawler/pacer.ts';
import { html, redirect, startFakeWebsites, type FakeWebsites, type Route } from '../../fakes/websites/server.ts';

let sites: FakeWebsites;

const robots = (body: string, status = 200): Route => ({ status, headers: { 'content-type': 'text/plain' }, body });

beforeAll(async () => {
  sites = await startFakeWebsites([
    {
      name: 'main',
      address: '127.0.0.41',
      hosts: ['main.no', 'www.main.no', 'other.no'],
      routes: (host, path) => {
        if (host === 'other.no') {
          if (path === '/robots.txt') return robots('User-agent: *\nDisallow: /private\n');
          if (path === '/private') return html('secret');
          return html('<title>Other</title>');
        }
        switch (path) {
          case '/robots.txt':
            return robots('User-agent: ncd-enrichment\nDisallow: /hidden\nCrawl-delay: 3\n');
          case '/':
            return html('<html><head><title>Main</title></head><body>Hei</body></html>');
          case '/hidden':
            return html('hidden');
          case '/to-other':
            return redirect('http://other.no/');
          case '/to-other-private':
            return redirect('http://other.no/private');
          case '/loop':
            return redirect('/loop');
          case '/pdf':
            return { status: 200, headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' };
          case '/missing':
            return { status: 404, headers: { 'content-type': 'text/html' }, body: 'nope' };
          case '/latin1':
            return {
              status: 200,
              headers: { 'content-type': 'text/html; charset=windows-1252' },
              body: Buffer.from('<title>Troms\xf8</title>', 'latin1'),
            };
          case '/to-private':
            return redirect('http://127.0.0.49/');
          default:
            return undefined;
        }
      },
    },
    {
      name: 'broken-robots',
      address: '127.0.0.42',
      hosts: ['broken.no', 'norobots.no', 'loopy.no'],
      routes: (host, path) => {
        if (path === '/robots.txt' && host === 'loopy.no') return redirect('/robots.txt');
        if (path === '/robots.txt') return host === 'broken.no' ? robots('oops', 503) : robots('gone', 404);
        return html('<title>Page</title>');
      },
    },
    { name: 'private', address: '127.0.0.49', hosts: ['intern.no'], routes: { '/': html('internal') }, sink: true },
  ]);
});
afterAll(() => sites?.close());
beforeEach(() => sites.resetCounters());

// Pacing is tested on a fake clock (pacer.test.ts); here it would only make the tests sleep
// (main.no asks for a Crawl-delay of 3 s).
const noPacing: HostPacer = { wait: async () => {}, setDelay: () => {} };

function crawler(over: Partial<CrawlerOptions> = {}) {
  return createCrawler({
    pacer: noPacing,
    resolver: sites.resolver,
    allowedAddresses: sites.allowedAddresses,
    dial: sites.dial,
    concurrency: 4,
    hostDelayMs: 0,
    timeoutMs: 3_000,
    userAgent: 'ncd-enrichment/1.0 (+http://test)',
    ...over,
  });
}
const paths = (name: string) => sites.site(name).requests.map((q) => `${q.host}${q.path}`);

describe('robots.txt', () => {
  it('is read once per origin and keeps disallowed paths unrequested', async () => {
    const c = crawler();
    const [home, hidden] = await Promise.all([c.fetchPage('http://main.no/'), c.fetchPage('http://main.no/hidden')]);
    expect(home).toMatchObject({ status: 200, error: null });
    expect(home.html).toContain('<title>Main</title>');
    expect(hidden).toMatchObject({ status: 0, error: 'robots-disallowed' });
    expect(paths('main').sort()).toEqual(['main.no/', 'main.no/robots.txt']);
  });

  it('applies the Crawl-delay for our agent to the host', async () => {
    const delays: [string, number][] = [];
    const pacer: HostPacer = { wait: async () => {}, setDelay: (h, ms) => void delays.push([h, ms]) };
    await crawler({ pacer }).fetchPage('http://main.no/');
    expect(delays).toEqual([['main.no', 3_000]]);
  });

  it('treats a 5xx robots.txt as "disallow all", and a 404 or a redirect loop as "allow all"', async () => {
    const c = crawler();
    expect(await c.fetchPage('http://broken.no/')).toMatchObject({ error: 'robots-disallowed' });
    expect(await c.fetchPage('http://norobots.no/')).toMatchObject({ error: null, status: 200 });
    expect(await c.fetchPage('http://loopy.no/')).toMatchObject({ error: null, status: 200 });
    expect(
      paths('broken-robots')
        .filter((p) => !p.startsWith('loopy'))
        .sort(),
    ).toEqual(['broken.no/robots.txt', 'norobots.no/', 'norobots.no/robots.txt']);
    // safeFetch follows robots.txt redirects (4 at most), then gives up on it.
    expect(paths('broken-robots').filter((p) => p === 'loopy.no/robots.txt')).toHaveLength(5);
  });

  it('is checked again for the origin a redirect leads to', async () => {
    const c = crawler();
    const ok = await c.fetchPage('http://main.no/to-other');
    expect(ok).toMatchObject({ status: 200, finalUrl: 'http://other.no/', redirects: ['http://other.no/'] });
    const blocked = await c.fetchPage('http://main.no/to-other-private');
    expect(blocked).toMatchObject({
      error: 'robots-disallowed',
      finalUrl: 'http://main.no/to-other-private',
      status: 302,
    });
    expect(paths('main')).not.toContain('other.no/private');
    expect(paths('main').filter((p) => p === 'other.no/robots.txt')).toHaveLength(1);
  });
});

describe('failures', () => {
  it('classifies redirect loops, non-HTML and error statuses', async () => {
    const c = crawler();
    expect(await c.fetchPage('http://main.no/loop')).toMatchObject({ error: 'too-many-redirects', status: 302 });
    expect(await c.fetchPage('http://main.no/pdf')).toMatchObject({ error: 'not-html', status: 200, html: '' });
    expect(await c.fetchPage('http://main.no/missing')).toMatchObject({ error: 'http-error', status: 404, html: '' });
  });

  it('refuses private addresses: by name, as a literal and behind a redirect, without a connection', async () => {
    const c = crawler();
    expect(await c.checkHost('intern.no')).toEqual({ ok: false, error: 'private-address' });
    expect(await c.checkHost('nowhere.no')).toEqual({ ok: false, error: 'dns' });
    expect(await c.checkHost('main.no')).toEqual({ ok: true });
    expect(await c.fetchPage('http://intern.no/')).toMatchObject({ error: 'private-address', status: 0 });
    expect(await c.fetchPage('http://127.0.0.49/')).toMatchObject({ error: 'private-address' });
    expect(await c.fetchPage('http://main.no/to-private')).toMatchObject({
      error: 'private-address',
      status: 302,
      redirects: ['http://127.0.0.49/'],
    });
    expect(sites.site('private').connections).toBe(0);
  });

  it('reports a refused HTTPS connection as a network failure', async () => {
    expect(await crawler().fetchPage('https://main.no/')).toMatchObject({
      error: 'network',
      errorCode: 'ECONNREFUSED',
      status: 0,
    });
  });
});

describe('pages', () => {
  it('decodes the declared charset', async () => {
    const page = await crawler().fetchPage('http://main.no/latin1');
    expect(page.html).toBe('<title>Tromsø</title>');
  });

  it('sends at most `concurrency` requests at once and asks each URL once per run', async () => {
    const slow = await startFakeWebsites([
      {
        name: 'slow',
        address: '127.0.0.43',
        hosts: Array.from({ length: 8 }, (_, i) => `s${i}.no`),
        routes: () => ({
          status: 200,
          headers: { 'content-type': 'text/html' },
          body: '<title>x</title>',
          delayMs: 20,
        }),
      },
    ]);
    const c = createCrawler({
      resolver: slow.resolver,
      allowedAddresses: slow.allowedAddresses,
      dial: slow.dial,
      concurrency: 2,
      hostDelayMs: 0,
      timeoutMs: 3_000,
      userAgent: 'ncd-enrichment/1.0',
    });
    try {
      const urls = Array.from({ length: 8 }, (_, i) => `http://s${i}.no/`);
      const pages = await Promise.all([...urls, ...urls].map((u) => c.fetchPage(u)));
      expect(pages.every((p) => p.status === 200)).toBe(true);
      // The fake counts a request from its arrival until its answer is sent (20 ms later).
      expect(slow.site('slow').maxInFlight).toBeGreaterThan(0);
      expect(slow.site('slow').maxInFlight).toBeLessThanOrEqual(2);
      // 8 robots.txt + 8 homepages, each once although every page was asked for twice.
      expect(slow.site('slow').requests).toHaveLength(16);
      expect(c.requests).toBe(16);
    } finally {
      await slow.close();
    }
  });
});
