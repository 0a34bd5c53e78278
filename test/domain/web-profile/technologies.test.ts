import { describe, expect, it } from 'vitest';
import fingerprints from '../../../src/domain/web-profile/fingerprints.json' with { type: 'json' };
import {
  compileFingerprints,
  detectTechnologies,
  FINGERPRINTS_VERSION,
  hasAdPixel,
  type Technology,
} from '../../../src/domain/web-profile/technologies.ts';
import { fixture } from './fixtures.ts';

const names = (t: Technology[]) => t.map((x) => x.name).sort();
const detect = (html: string, headers: Record<string, string> = {}, setCookie?: string[]) =>
  detectTechnologies({ html, headers, setCookie });
const byName = (t: Technology[], n: string) => t.find((x) => x.name === n);

describe('fixtures', () => {
  it('Shopify shop with a Meta pixel and GTM', () => {
    const t = detect(fixture('shopify-shop.html'), { 'x-shopid': '61234567', 'powered-by': 'Shopify' }, [
      '_shopify_y=abc; Path=/',
      'secure_customer_sig=; Path=/',
    ]);
    expect(names(t)).toEqual(['Google Tag Manager', 'Meta Pixel', 'Shopify']);
    expect(byName(t, 'Shopify')).toEqual({ name: 'Shopify', category: 'ecommerce', confidence: 1 });
    expect(byName(t, 'Meta Pixel')?.category).toBe('advertising');
    expect(byName(t, 'Google Tag Manager')?.category).toBe('tag-manager');
    expect(hasAdPixel(t)).toBe(true);
  });

  it('WordPress site with LinkedIn Insight, Meta pixel (noscript img), Hotjar and jQuery', () => {
    const t = detect(fixture('wordpress-social.html'));
    expect(names(t)).toEqual(['Hotjar', 'LinkedIn Insight Tag', 'Meta Pixel', 'WordPress', 'jQuery']);
    expect(byName(t, 'WordPress')?.confidence).toBe(1);
    expect(hasAdPixel(t)).toBe(true);
  });

  it('company page with GA4 and jQuery has no ad pixel', () => {
    const t = detect(fixture('company-footer.html'));
    expect(names(t)).toEqual(['Google Analytics', 'jQuery']);
    expect(hasAdPixel(t)).toBe(false);
  });

  it('parked and default pages run nothing we track', () => {
    expect(detect(fixture('default-hosting.html'))).toEqual([]);
    expect(detect(fixture('parked.html'))).toEqual([]);
  });
});

// One small, realistic trace per technology; each must be found, and found alone (plus implied).
const CASES: [string, string, Record<string, string>?, string[]?][] = [
  [
    'Wix',
    '<meta name="generator" content="Wix.com Website Builder"><img src="https://static.wixstatic.com/media/a.jpg">',
  ],
  ['Squarespace', '<!-- This is Squarespace. --><link href="https://static1.squarespace.com/static/x/site.css">'],
  ['Webflow', '<html data-wf-page="64a1" data-wf-site="64a0"><meta content="Webflow" name="generator">'],
  [
    'Drupal',
    '<meta name="Generator" content="Drupal 10 (https://www.drupal.org)"><script type="application/json" data-drupal-selector="drupal-settings-json">{}</script>',
  ],
  [
    'Joomla',
    '<meta name="generator" content="Joomla! - Open Source Content Management"><script class="joomla-script-options new">{}</script>',
  ],
  [
    'WooCommerce',
    '<body class="home woocommerce-page"><script src="/wp-content/plugins/woocommerce/assets/js/frontend/cart.min.js"></script>',
  ],
  ['Magento', '<script type="text/x-magento-init">{"*":{}}</script>', {}, ['mage-cache-sessid=true; path=/']],
  ['Plausible', '<script defer data-domain="firma.no" src="https://plausible.io/js/script.js"></script>'],
  [
    'Matomo',
    '<script>var _paq = window._paq = window._paq || []; _paq.push(["trackPageView"]);</script><script src="https://cdn.matomo.cloud/firma.matomo.cloud/matomo.js"></script>',
  ],
  [
    'Intercom',
    '<script>window.intercomSettings = { api_base: "https://api-iam.intercom.io", app_id: "abc123" };</script>',
  ],
  ['Zendesk', '<script id="ze-snippet" src="https://static.zdassets.com/ekr/snippet.js?key=0000"></script>'],
  ['Tawk.to', '<script>var Tawk_API=Tawk_API||{}; s1.src="https://embed.tawk.to/64f/1h9";</script>'],
  ['HubSpot Chat', '<div id="hubspot-messages-iframe-container"></div>'],
  [
    'HubSpot',
    '<script type="text/javascript" id="hs-script-loader" async defer src="//js-eu1.hs-scripts.com/2509.js"></script>',
  ],
  ['React', '<div id="root" data-reactroot=""><p>x</p></div>'],
  [
    'Next.js',
    '<script id="__NEXT_DATA__" type="application/json">{}</script><script src="/_next/static/chunks/main-1a2b.js"></script>',
  ],
  ['Vue.js', '<script src="https://unpkg.com/vue@3/dist/vue.global.prod.js"></script>'],
  ['Nuxt', '<div id="__nuxt"></div><script src="/_nuxt/entry.4f2a.js"></script>'],
  ['Angular', '<app-root ng-version="17.3.1"></app-root>'],
  ['jQuery', '<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script>'],
  ['Google Analytics', '<script async src="https://www.googletagmanager.com/gtag/js?id=UA-1234567-1"></script>'],
  [
    'Google Ads',
    '<script async src="https://www.googletagmanager.com/gtag/js?id=AW-123456789"></script><script>gtag("config", "AW-123456789");</script>',
  ],
  ['Snap Pixel', "<script>a.src='https://sc-static.net/scevent.min.js'; snaptr('init', '0000-1111', {});</script>"],
  [
    'TikTok Pixel',
    "<script>!function (w, d, t) { w.TiktokAnalyticsObject=t; ttq.load('C4ABCDEF'); ttq.page(); }(window, document, 'ttq');</script>",
  ],
  [
    'X (Twitter) Pixel',
    "<script>!function(e,t,n,s,u,a){u.src='https://static.ads-twitter.com/uwt.js'}(window,document,'script'); twq('config','o1abc');</script>",
  ],
  [
    'Google Tag Manager',
    '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-ABC123"></iframe></noscript>',
  ],
  ['Wix', '<p>x</p>', { 'x-wix-request-id': '1700000000.123' }],
  ['Next.js', '<p>x</p>', { 'x-powered-by': 'Next.js' }],
  ['Drupal', '<p>x</p>', { 'x-generator': 'Drupal 10 (https://www.drupal.org)' }],
];
const IMPLIED: Record<string, string[]> = { WooCommerce: ['WordPress'], 'Next.js': ['React'], Nuxt: ['Vue.js'] };

describe('each rule family', () => {
  it.each(CASES)('%s', (name, html, headers = {}, setCookie) => {
    const t = detect(html, headers, setCookie);
    expect(names(t)).toEqual([name, ...(IMPLIED[name] ?? [])].sort());
  });

  it('implied technologies carry the implier category and confidence', () => {
    const t = detect('<script src="/wp-content/plugins/woocommerce/x.js"></script>');
    expect(byName(t, 'WordPress')).toEqual({ name: 'WordPress', category: 'cms', confidence: 1 });
  });

  it('weak rules give partial confidence; several combine', () => {
    expect(byName(detect('<img src="/sites/default/files/a.png">'), 'Drupal')?.confidence).toBe(0.6);
    expect(
      byName(detect('<img src="/sites/default/files/a.png"><div data-drupal-selector="x">'), 'Drupal')?.confidence,
    ).toBe(1);
    expect(byName(detect('<link href="/wp-content/themes/t/style.css">'), 'WordPress')?.confidence).toBe(0.8);
  });

  it('reads cookies from a joined Set-Cookie header too', () => {
    const t = detect('<p>x</p>', {
      'set-cookie': 'session=1; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT, _shopify_y=abc; Path=/',
    });
    expect(names(t)).toEqual(['Shopify']);
  });

  it('does not call a share link or a mention a pixel', () => {
    const t = detect(
      '<a href="https://www.facebook.com/sharer.php?u=x">Del</a><p>We use Google Analytics and Shopify.</p>',
    );
    expect(t).toEqual([]);
    expect(hasAdPixel(t)).toBe(false);
  });

  it('counts Google Tag Manager as an ad pixel, as the hosted product does', () => {
    expect(hasAdPixel([{ name: 'Google Tag Manager', category: 'tag-manager', confidence: 1 }])).toBe(true);
    expect(hasAdPixel([{ name: 'Hotjar', category: 'analytics', confidence: 1 }])).toBe(false);
  });
});

describe('the rule file', () => {
  it('is versioned and compiles; every technology of the brief has rules', () => {
    expect(FINGERPRINTS_VERSION).toMatch(/^\d{4}\.\d{1,2}\.\d+$/);
    const compiled = compileFingerprints(fingerprints);
    const all = new Set(compiled.map((t) => t.name));
    expect(all.size).toBe(compiled.length);
    for (const n of [
      'WordPress',
      'Wix',
      'Squarespace',
      'Webflow',
      'Drupal',
      'Joomla',
      'Shopify',
      'WooCommerce',
      'Magento',
      'Google Analytics',
      'Plausible',
      'Matomo',
      'Hotjar',
      'Google Tag Manager',
      'Intercom',
      'Zendesk',
      'Tawk.to',
      'HubSpot Chat',
      'React',
      'Next.js',
      'Vue.js',
      'Nuxt',
      'Angular',
      'jQuery',
      'Meta Pixel',
      'Google Ads',
      'Snap Pixel',
      'TikTok Pixel',
      'X (Twitter) Pixel',
      'LinkedIn Insight Tag',
    ]) {
      expect(all.has(n), n).toBe(true);
    }
  });

  it('rejects a broken rule with a message naming it', () => {
    const bad = (rule: object) => ({
      categories: ['cms'],
      technologies: [{ name: 'X', category: 'cms', rules: [rule as never] }],
    });
    expect(() => compileFingerprints(bad({ in: 'body', pattern: 'a', confidence: 1 }))).toThrow(
      /X rule 1: unknown source "body"/,
    );
    expect(() => compileFingerprints(bad({ in: 'header', pattern: 'a', confidence: 1 }))).toThrow(/needs a key/);
    expect(() => compileFingerprints(bad({ in: 'html', pattern: 'a', confidence: 2 }))).toThrow(/confidence/);
    expect(() => compileFingerprints(bad({ in: 'html', pattern: '(', confidence: 1 }))).toThrow();
    expect(() =>
      compileFingerprints({ categories: [], technologies: [{ name: 'Y', category: 'cms', rules: [] }] }),
    ).toThrow(/unknown category/);
  });
});
