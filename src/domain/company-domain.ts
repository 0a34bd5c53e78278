// Company by domain: what a user gives (a URL, a hostname, an e-mail address) reduced to the
// registrable domain over the Public Suffix List, so "https://www.example.no/kontakt",
// "shop.example.no" and "ola@post.example.no" all stand for example.no; whether that domain is
// a free-mail or ISP domain (which identifies no company); and how much a company's name looks
// like the domain, one piece of the evidence company matching ranks by.
import { FREE_MAIL_DOMAINS } from './free-mail-domains.ts';
import { hostFromWebsite, registrableDomain } from './web-profile/domains.ts';
import { nameLabels } from './web-profile/candidates.ts';
import { coreNameWords } from './web-profile/names.ts';

/** The registrable domain of a URL or hostname ("https://www.Example.no/x" -> "example.no"), or null. */
export function registrableDomainOf(site: string): string | null {
  const host = hostFromWebsite(site);
  return host ? registrableDomain(host) : null;
}

/** The registrable domain of an e-mail address's domain part, or null when it is not an address. */
export function emailDomainOf(email: string): string | null {
  const t = email.trim();
  const at = t.lastIndexOf('@');
  if (at <= 0 || at === t.length - 1 || /[\s/?#]/.test(t.slice(at + 1))) return null;
  return registrableDomainOf(t.slice(at + 1));
}

export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL_DOMAINS.has(domain);
}

/** The domain's own label: "fjord-bygg.no" -> "fjord-bygg", "firma.co.uk" -> "firma". */
function domainLabel(domain: string): string {
  const dot = domain.indexOf('.');
  return dot < 0 ? domain : domain.slice(0, dot);
}

/** Character bigrams of a string, as a multiset. */
function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient over character bigrams (1 for equal strings, 0 for nothing shared). */
function dice(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const ga = bigrams(a);
  const gb = bigrams(b);
  let shared = 0;
  for (const [g, n] of ga) shared += Math.min(n, gb.get(g) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

export const NAME_LIKENESS_RULE =
  "1 when the domain's label is one the name gives (its words joined, hyphenated, '&' as 'og', " +
  'or its distinctive first word); 0.9 when it is the initials of a name of two words or more; else ' +
  "the bigram Dice similarity of the label and the name's words joined (hyphens dropped)";

/**
 * How much a company name looks like a domain, 0–1 (NAME_LIKENESS_RULE): "Fjord Bygg AS" and
 * fjordbygg.no or fjord-bygg.no -> 1; "Det Norske Veritas" and dnv.no -> 0.9; else how many
 * letter pairs the label and the name share.
 */
export function nameLikeness(domain: string, name: string, orgFormCode: string | null): number {
  const label = domainLabel(domain);
  if (nameLabels(name, orgFormCode).includes(label)) return 1;
  const words = coreNameWords(name, orgFormCode).filter((w) => w !== '&');
  if (words.length === 0) return 0;
  const bare = label.replace(/-/g, '');
  if (words.length >= 2 && bare === words.map((w) => w[0]).join('')) return 0.9;
  return Math.round(dice(bare, words.join('')) * 1000) / 1000;
}
