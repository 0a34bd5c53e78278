// Stage 1 of the web-profile pipeline: which domains might be this company's, and why we think so.
// Ordered by how much the origin alone says: the self-reported website first, then the
// domain of the registered e-mail address, then guesses from the name.
import { hostFromWebsite, isHostLabel, registrableDomain } from './domains.ts';
import { coreNameWords } from './names.ts';
import { FREE_MAIL_DOMAINS } from '../free-mail-domains.ts';

export type CandidateOrigin = 'brreg-website' | 'email-domain' | 'name-guess';

export interface CompanyForCandidates {
  name: string;
  orgFormCode: string | null;
  /** Brreg `hjemmeside`: usually without scheme, e.g. "www.brreg.no". */
  website: string | null;
  email: string | null;
}

export interface DomainCandidate {
  /** Registrable domain ("brreg.no"); the unit that is scored and stored. */
  domain: string;
  /** Host to fetch first ("www.brreg.no" when that is what the registry says). */
  host: string;
  origin: CandidateOrigin;
}

/**
 * Sites where a company has a page but which are not the company's domain. A registry
 * "website" pointing at one of them yields no candidate.
 */
export const PLATFORM_DOMAINS: ReadonlySet<string> = new Set([
  'facebook.com',
  'fb.com',
  'instagram.com',
  'linkedin.com',
  'twitter.com',
  'x.com',
  'youtube.com',
  'tiktok.com',
  'google.com',
  'goo.gl',
  'finn.no',
  'gulesider.no',
  'proff.no',
  '1881.no',
  'purehelp.no',
  'bing.com',
  'vipps.no',
]);

const GUESS_TLDS = ['no', 'com'] as const;

/** First words too common in Norwegian company names to stand alone as a domain guess. */
const GENERIC_FIRST_WORDS: ReadonlySet<string> = new Set([
  'norsk',
  'norske',
  'nordisk',
  'nordic',
  'norway',
  'norge',
  'norwegian',
  'scandinavian',
  'skandinavisk',
  'stiftelsen',
  'foreningen',
  'selskapet',
  'sameiet',
  'borettslaget',
  'boligsameiet',
  'eiendom',
  'eiendomsselskap',
  'holding',
  'invest',
  'gruppen',
  'group',
  'consulting',
  'service',
  'services',
  'bygg',
  'transport',
  'regnskap',
]);

export function candidateDomains(company: CompanyForCandidates): DomainCandidate[] {
  const out: DomainCandidate[] = [];
  const seen = new Set<string>();
  const add = (host: string, origin: CandidateOrigin) => {
    const domain = registrableDomain(host);
    if (!domain || seen.has(domain) || PLATFORM_DOMAINS.has(domain)) return;
    seen.add(domain);
    out.push({ domain, host, origin });
  };

  if (company.website) {
    const host = hostFromWebsite(company.website);
    if (host) add(host, 'brreg-website');
  }

  if (company.email) {
    const at = company.email.trim().toLowerCase().lastIndexOf('@');
    const host = at >= 0 ? hostFromWebsite(company.email.trim().slice(at + 1)) : null;
    const domain = host ? registrableDomain(host) : null;
    if (domain && !FREE_MAIL_DOMAINS.has(domain)) add(domain, 'email-domain');
  }

  // Every .no guess before any .com guess: these are Norwegian companies.
  const labels = nameLabels(company.name, company.orgFormCode);
  for (const tld of GUESS_TLDS) for (const label of labels) add(`${label}.${tld}`, 'name-guess');
  return out;
}

/**
 * Domain labels a company with this name plausibly uses, most likely first: all words
 * joined, hyphenated, "&" spelled "og", and the first word alone when it is distinctive.
 */
export function nameLabels(name: string, orgFormCode: string | null): string[] {
  const core = coreNameWords(name, orgFormCode);
  const plain = core.filter((w) => w !== '&');
  if (plain.length === 0) return [];
  const labels = [plain.join(''), plain.join('-')];
  if (core.includes('&')) labels.push(core.map((w) => (w === '&' ? 'og' : w)).join(''));
  const first = plain[0];
  if (plain.length > 1 && first.length >= 5 && !/^\d+$/.test(first) && !GENERIC_FIRST_WORDS.has(first))
    labels.push(first);
  return [...new Set(labels)].filter((l) => l.length >= 2 && isHostLabel(l));
}
