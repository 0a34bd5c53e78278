// The demo world's web: homepages for a few dozen demo companies whose registry entry names a
// website, and a crawler port that answers from them instead of the network. The web-profile
// pipeline (candidates, probes, scoring, technologies, social handles) runs on these pages
// exactly as on fetched ones, so the demo's web profiles are the pipeline's own conclusions.
// The pages vary as real ones do: CMS and shop platforms, analytics, ad pixels and chat widgets
// (written to the fingerprints' documented snippets), the org number in the footer or only the
// name in the title, a .com alias redirecting to the .no site, a name on the page alone
// (ambiguous) and a parked domain (rejected). Nothing here opens a socket.
import { unfetchedPage, type Crawler } from '../web-crawler/crawler.ts';
import type { DemoCompany, DemoWorld } from './world.ts';

/** One demo homepage, served at `host` (and at the bare domain). */
export interface DemoSite {
  orgNumber: string;
  /** The registry's website host, e.g. www.solbergfysioterapi.no. */
  host: string;
  kind: DemoSiteKind;
  html: string;
  headers: Record<string, string>;
  /** Other hosts that redirect (301) to https://<host>/: the .com alias of some sites. */
  aliases: string[];
}

export type DemoSiteKind =
  'wordpress' | 'shopify' | 'wix' | 'hand-built' | 'squarespace' | 'woocommerce' | 'name-on-page' | 'parked';

const KINDS: DemoSiteKind[] = [
  'wordpress',
  'shopify',
  'wix',
  'hand-built',
  'squarespace',
  'woocommerce',
  'name-on-page',
  'parked',
];

/** Every how many companies with a registry website one has a demo homepage. */
const EVERY = 25;
const SHOWCASE_WITH_SITES = [1, 3, 7, 9];

const spaced = (n: string) => `${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** "SOLBERG FYSIOTERAPI AS" -> "Solberg Fysioterapi AS": how sites spell a registry name. */
const display = (name: string) =>
  name
    .split(' ')
    .map((w, i, all) =>
      i === all.length - 1 && /^(AS|ASA|ANS|DA|NUF|SA)$/.test(w) ? w : w.charAt(0) + w.slice(1).toLocaleLowerCase('nb'),
    )
    .join(' ');

function page(o: {
  title: string;
  head?: string;
  body: string;
  footer: string;
  bodyEnd?: string;
  lang?: string;
}): string {
  return [
    '<!doctype html>',
    `<html lang="${o.lang ?? 'nb'}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(o.title)}</title>`,
    o.head ?? '',
    '</head>',
    '<body>',
    o.body,
    `<footer>${o.footer}</footer>`,
    o.bodyEnd ?? '',
    '</body>',
    '</html>',
  ]
    .filter(Boolean)
    .join('\n');
}

const GTAG = (id: string) =>
  `<script async src="https://www.googletagmanager.com/gtag/js?id=${id}"></script>\n` +
  `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config','${id}');</script>`;
const GTM = (id: string) =>
  `<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','${id}');</script>`;
const META_PIXEL = (id: string) =>
  `<script>!function(f,b,e,v,n,t,s){n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init','${id}');fbq('track','PageView');</script>`;
const LINKEDIN_INSIGHT = (id: string) =>
  `<script>_linkedin_partner_id="${id}";window._linkedin_data_partner_ids=window._linkedin_data_partner_ids||[];window._linkedin_data_partner_ids.push(_linkedin_partner_id);</script>\n` +
  '<script async src="https://snap.licdn.com/li.lms-analytics/insight.min.js"></script>';

interface SiteParts {
  company: DemoCompany;
  slug: string;
  name: string;
  orgLine: string;
  address: string;
  n: number;
}

function render(kind: DemoSiteKind, p: SiteParts): { html: string; headers: Record<string, string> } {
  const { company: c, slug, name, orgLine, address, n } = p;
  const about = `<h1>${escape(name)}</h1>\n<p>${escape(c.nace.name)} i ${escape(display(c.address.municipality))} siden ${c.founded.slice(0, 4)}.</p>`;
  const contact = `<p>${escape(address)}</p>`;
  const fb = `<a href="https://www.facebook.com/${slug}">Facebook</a>`;
  const ig = `<a href="https://www.instagram.com/${slug.slice(0, 30)}/">Instagram</a>`;
  const li = `<a href="https://www.linkedin.com/company/${slug}/">LinkedIn</a>`;
  const x = `<a href="https://x.com/${slug.slice(0, 15)}">X</a>`;
  const html = { 'content-type': 'text/html; charset=utf-8' };
  const id = String(100_000_000 + n * 7_919);
  switch (kind) {
    case 'wordpress':
      return {
        headers: { ...html, server: 'nginx', link: `<https://www.${slug}.no/wp-json/>; rel="https://api.w.org/"` },
        html: page({
          title: `${name} – ${c.trade.word.toLocaleLowerCase('nb')}`,
          head: `<meta name="generator" content="WordPress 6.6.2">\n<link rel="stylesheet" href="/wp-content/themes/astra/style.css">\n${GTAG(`G-${id.slice(0, 8)}`)}`,
          body: `${about}\n${contact}`,
          footer: `${orgLine} · ${fb} · ${li}`,
        }),
      };
    case 'shopify':
      return {
        headers: { ...html, 'x-shopid': id, server: 'cloudflare' },
        html: page({
          title: `${name} | Bestill på nett`,
          head: `<link rel="stylesheet" href="https://cdn.shopify.com/s/files/1/${id}/t/3/assets/theme.css">\n<script>window.Shopify=window.Shopify||{};Shopify.shop="${slug}.myshopify.com";Shopify.theme={"name":"Dawn"};</script>\n${META_PIXEL(id)}`,
          body: `${about}\n<p>Bestill på nett, hent hos oss.</p>`,
          footer: `${orgLine} · ${ig} · ${fb}`,
        }),
      };
    case 'wix':
      // No org number: the registry's website with the name in the title is enough to confirm.
      return {
        headers: { ...html, 'x-wix-request-id': `${id}.${n}` },
        html: page({
          title: name,
          head: `<meta name="generator" content="Wix.com Website Builder">\n<link rel="preload" href="https://static.wixstatic.com/media/${id}.jpg">`,
          body: `${about}\n${contact}`,
          footer: `© ${name} · ${ig}`,
        }),
      };
    case 'hand-built':
      return {
        headers: { ...html, server: 'Apache' },
        html: page({
          title: `${name} – velkommen`,
          head:
            '<script src="/js/jquery-3.7.1.min.js"></script>\n<script defer data-domain="' +
            `${slug}.no` +
            '" src="https://plausible.io/js/script.js"></script>',
          body: `${about}\n${contact}`,
          footer: `${orgLine} · ${li}`,
        }),
      };
    case 'squarespace':
      return {
        headers: { ...html, server: 'Squarespace' },
        html: page({
          title: `${name}`,
          head: `<!-- This is Squarespace. -->\n${GTM(`GTM-${id.slice(0, 6)}`)}\n<script id="hs-script-loader" async defer src="//js-eu1.hs-scripts.com/${id.slice(0, 8)}.js"></script>`,
          body: `${about}\n${contact}\n<p>Følg oss: ${fb} ${ig} ${li} ${x}</p>`,
          footer: `${orgLine} · ${fb} · ${li}`,
        }),
      };
    case 'woocommerce':
      return {
        headers: { ...html, server: 'nginx' },
        html: page({
          title: `${name} – butikk`,
          head: `<meta name="generator" content="WooCommerce 9.3.3">\n<meta name="generator" content="WordPress 6.6.2">\n<script src="/wp-content/plugins/woocommerce/assets/js/frontend/woocommerce.min.js"></script>\n${GTM(`GTM-${id.slice(1, 7)}`)}\n${LINKEDIN_INSIGHT(id.slice(0, 7))}`,
          body: `${about}\n<div class="woocommerce-products">Utvalgte varer</div>`,
          footer: `${orgLine} · ${fb} · ${ig}`,
          bodyEnd: `<script>var Tawk_API=Tawk_API||{};</script><script async src="https://embed.tawk.to/${id}/default"></script>`,
        }),
      };
    case 'name-on-page':
      // The name in the text only, no org number: a live registry website, not yet proof.
      return {
        headers: { ...html, server: 'nginx' },
        html: page({
          title: 'Hjem',
          head: '<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script>',
          body: `<h1>Velkommen</h1>\n<p>${escape(name)} holder til i ${escape(display(c.address.municipality))}.</p>`,
          footer: `${contact}`,
        }),
      };
    case 'parked':
      return {
        headers: { ...html, server: 'nginx' },
        html: page({
          title: `www.${slug}.no`,
          body: `<h1>www.${slug}.no</h1>\n<p>Domenet er til salgs. Kjøp dette domenet hos en domeneforhandler.</p>`,
          footer: '',
        }),
      };
  }
}

/** The demo homepages, decided by the world: the same companies and pages at every install. */
export function demoWebsites(world: DemoWorld): DemoSite[] {
  const withSite = world.companies.filter((c) => c.website && !world.changes.deleted.has(c.orgNumber));
  const chosen = new Map<string, DemoCompany>();
  for (const i of SHOWCASE_WITH_SITES) {
    const c = world.companies[i];
    if (c?.website && !world.changes.deleted.has(c.orgNumber)) chosen.set(c.orgNumber, c);
  }
  withSite.forEach((c, k) => {
    if (k % EVERY === EVERY - 1) chosen.set(c.orgNumber, c);
  });
  return [...chosen.values()].map((c, n) => {
    const host = c.website!.toLowerCase();
    const slug = host.replace(/^www\./, '').replace(/\.no$/, '');
    // The showcase companies get pages that confirm them; the rest take the kinds in turn.
    const kind = SHOWCASE_WITH_SITES.includes(c.index)
      ? (['wordpress', 'squarespace', 'hand-built', 'woocommerce'] as const)[SHOWCASE_WITH_SITES.indexOf(c.index)]
      : KINDS[n % KINDS.length];
    // The address after the second round (a moved company's site shows where it is now).
    const a = world.changes.moved.get(c.orgNumber) ?? c.address;
    const parts: SiteParts = {
      company: c,
      slug,
      name: display(c.name),
      orgLine: `Org.nr. ${spaced(c.orgNumber)} MVA`,
      address: `${a.street}, ${a.postalCode} ${a.place}`,
      n,
    };
    const { html, headers } = render(kind, parts);
    return { orgNumber: c.orgNumber, host, kind, html, headers, aliases: n % 3 === 0 ? [`${slug}.com`] : [] };
  });
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  html: string;
}

/**
 * The crawler port over the demo web: a host resolves when a demo site (or its alias) lives
 * there; a site answers its homepage over HTTPS and HTTP alike, at its www host and at the bare
 * domain; an alias answers 301 to the site. Everything else does not resolve (`dns`), as a
 * name guess without a site would not.
 */
export function demoCrawler(sites: DemoSite[]): Crawler {
  const answers = new Map<string, (path: string) => Answer>();
  for (const s of sites) {
    const bare = s.host.replace(/^www\./, '');
    const home = (p: string): Answer =>
      p === '/' ? { status: 200, headers: s.headers, html: s.html } : { status: 404, headers: {}, html: '' };
    answers.set(s.host, home);
    answers.set(bare, home);
    for (const alias of s.aliases) {
      const moved = (): Answer => ({ status: 301, headers: { location: `https://${s.host}/` }, html: '' });
      answers.set(alias, moved);
      answers.set(`www.${alias}`, moved);
    }
  }
  let requests = 0;
  const MAX_HOPS = 4;
  return {
    async checkHost(host) {
      return answers.has(host) ? { ok: true } : { ok: false, error: 'dns' };
    },
    async fetchPage(start) {
      const result = unfetchedPage(start);
      let current = new URL(start);
      for (let hop = 0; ; hop++) {
        const answer = answers.get(current.hostname);
        if (!answer) return { ...result, error: 'dns' };
        requests++;
        const a = answer(current.pathname);
        Object.assign(result, { finalUrl: current.href, status: a.status, headers: a.headers });
        if (a.status === 301 && a.headers.location) {
          if (hop >= MAX_HOPS) return { ...result, error: 'too-many-redirects' };
          current = new URL(a.headers.location, current);
          result.redirects.push(current.href);
          continue;
        }
        if (a.status < 200 || a.status >= 300) return { ...result, error: 'http-error' };
        return { ...result, html: a.html };
      }
    },
    get requests() {
      return requests;
    },
  };
}
