// Stage 5: which technologies a confirmed domain's homepage runs, from the versioned rule
// file fingerprints.json (see its $comment for the rule format).
import fingerprints from './fingerprints.json' with { type: 'json' };
import { scanHtml, type PageScan } from './html-scan.ts';

export type TechCategory =
  'cms' | 'ecommerce' | 'analytics' | 'tag-manager' | 'chat' | 'marketing' | 'framework' | 'advertising';

export interface Technology {
  name: string;
  category: TechCategory;
  /** 0–1, two decimals. */
  confidence: number;
}

export interface PageForTechnologies {
  html: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Raw Set-Cookie values; falls back to headers['set-cookie']. */
  setCookie?: string[];
}

type RuleSource = 'html' | 'script-src' | 'inline-script' | 'embed-src' | 'header' | 'cookie' | 'meta';

interface RawRule {
  in: string;
  key?: string;
  pattern: string;
  confidence: number;
}
interface RawTech {
  name: string;
  category: string;
  implies?: string[];
  rules: RawRule[];
}

interface Rule {
  in: RuleSource;
  key?: string;
  re: RegExp;
  confidence: number;
}
interface CompiledTech {
  name: string;
  category: TechCategory;
  implies: string[];
  rules: Rule[];
}

export const FINGERPRINTS_VERSION: string = fingerprints.version;

const SOURCES: ReadonlySet<string> = new Set([
  'html',
  'script-src',
  'inline-script',
  'embed-src',
  'header',
  'cookie',
  'meta',
]);

/** Compiles and checks a rule file; throws naming the technology and rule that is wrong. */
export function compileFingerprints(doc: { categories: string[]; technologies: RawTech[] }): CompiledTech[] {
  const names = new Set(doc.technologies.map((t) => t.name));
  return doc.technologies.map((t) => {
    if (!doc.categories.includes(t.category))
      throw new Error(`fingerprints: ${t.name}: unknown category "${t.category}"`);
    for (const i of t.implies ?? [])
      if (!names.has(i)) throw new Error(`fingerprints: ${t.name}: implies unknown "${i}"`);
    const rules = t.rules.map((r, idx) => {
      const where = `fingerprints: ${t.name} rule ${idx + 1}`;
      if (!SOURCES.has(r.in)) throw new Error(`${where}: unknown source "${r.in}"`);
      if ((r.in === 'header' || r.in === 'meta') && !r.key) throw new Error(`${where}: "${r.in}" needs a key`);
      if (!(r.confidence > 0 && r.confidence <= 1)) throw new Error(`${where}: confidence must be in (0, 1]`);
      return {
        in: r.in as RuleSource,
        key: r.key?.toLowerCase(),
        re: new RegExp(r.pattern, 'i'),
        confidence: r.confidence,
      };
    });
    return { name: t.name, category: t.category as TechCategory, implies: t.implies ?? [], rules };
  });
}

const TECHS = compileFingerprints(fingerprints);

export function detectTechnologies(page: PageForTechnologies, scan: PageScan = scanHtml(page.html)): Technology[] {
  const cookies = cookieNames(page);
  const scripts = scan.scriptSrcs.join('\n');
  const embeds = scan.embedSrcs.join('\n');
  const test = (r: Rule): boolean => {
    switch (r.in) {
      case 'html':
        return r.re.test(page.html);
      case 'script-src':
        return r.re.test(scripts);
      case 'embed-src':
        return r.re.test(embeds);
      case 'inline-script':
        return r.re.test(scan.inlineScript);
      case 'header':
        return page.headers[r.key!] !== undefined && r.re.test(page.headers[r.key!]);
      case 'meta':
        return scan.meta[r.key!] !== undefined && r.re.test(scan.meta[r.key!]);
      case 'cookie':
        return cookies.some((c) => r.re.test(c));
    }
  };

  const found = new Map<string, Technology>();
  for (const t of TECHS) {
    let miss = 1;
    for (const r of t.rules) if (test(r)) miss *= 1 - r.confidence;
    if (miss < 1) found.set(t.name, { name: t.name, category: t.category, confidence: round2(1 - miss) });
  }
  // Implications (WooCommerce → WordPress, Next.js → React): one level is all the file uses.
  for (const t of TECHS) {
    const hit = found.get(t.name);
    if (!hit) continue;
    for (const implied of t.implies) {
      const target = TECHS.find((x) => x.name === implied)!;
      const have = found.get(implied);
      if (!have || have.confidence < hit.confidence) {
        found.set(implied, { name: implied, category: target.category, confidence: hit.confidence });
      }
    }
  }
  return [...found.values()].sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name));
}

/**
 * The tags counted by `hasAnyAdPixel`. The hosted product counts Meta, Google Tag Manager,
 * Snap, TikTok, X/Twitter and LinkedIn Insight; GTM stays category 'tag-manager' (it is a
 * container, not a pixel) but is counted, as there. Google Ads is category 'advertising'.
 */
export const AD_PIXEL_NAMES: ReadonlySet<string> = new Set(['Google Tag Manager']);

export function hasAdPixel(techs: readonly Technology[]): boolean {
  return techs.some((t) => t.category === 'advertising' || AD_PIXEL_NAMES.has(t.name));
}

function cookieNames(page: PageForTechnologies): string[] {
  const raw = page.setCookie ?? splitSetCookie(page.headers['set-cookie']);
  return raw.map((c) => c.split('=')[0].trim()).filter((n) => n.length > 0);
}

/** A joined Set-Cookie header ("a=1; Path=/, b=2") split at the commas that start a cookie. */
function splitSetCookie(joined: string | undefined): string[] {
  if (!joined) return [];
  return joined.split(/,\s*(?=[^;,=\s]+=)/);
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
