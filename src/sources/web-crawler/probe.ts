// Stage 2 (probes) and the page half of stage 3 (signals) for one candidate domain: DNS first,
// then the homepage over HTTPS, falling back to HTTP when HTTPS does not connect. The HTML is
// read once here for signals, technologies and social handles and then dropped; only the
// facts are stored, so later stages (and a resumed run) never need the network.
import {
  detectTechnologies,
  extractSignals,
  extractSocialHandles,
  scanHtml,
  type CompanyForSignals,
} from '../../domain/web-profile/index.ts';
import type { Crawler, PageResult } from './crawler.ts';
import type { ProbeError, StoredCandidate } from './types.ts';

/** Keep the stored ledger small: a directory page can list hundreds of org numbers. */
const MAX_OTHER_ORG_NUMBERS = 5;

function hostsToTry(c: StoredCandidate): string[] {
  return [...new Set([c.host, c.domain, `www.${c.domain}`])];
}

const isPage = (p: PageResult) => p.error === null && p.html.length > 0;

async function fetchHomepage(crawler: Crawler, host: string): Promise<PageResult> {
  const secure = await crawler.fetchPage(`https://${host}/`);
  // Only a connection failure sends us to plain HTTP; an HTTPS answer of any kind stands.
  if (secure.status === 0 && (secure.error === 'network' || secure.error === 'timeout')) {
    return crawler.fetchPage(`http://${host}/`);
  }
  return secure;
}

export async function probeCandidate(
  crawler: Crawler,
  candidate: StoredCandidate,
  company: CompanyForSignals,
  now: Date,
): Promise<StoredCandidate> {
  let best: PageResult | null = null;
  let dnsError: ProbeError | null = null;
  for (const host of hostsToTry(candidate)) {
    const dns = await crawler.checkHost(host);
    if (!dns.ok) {
      dnsError ??= dns.error;
      continue;
    }
    const page = await fetchHomepage(crawler, host);
    // Prefer a real page; otherwise the first answer with a status, otherwise the first failure.
    if (!best || (best.status === 0 && page.status > 0)) best = page;
    if (isPage(page)) {
      best = page;
      break;
    }
  }

  const page = best ?? {
    url: `https://${candidate.host}/`,
    finalUrl: `https://${candidate.host}/`,
    status: 0,
    headers: {},
    setCookie: [],
    html: '',
    redirects: [],
    error: dnsError ?? 'dns',
    errorCode: null,
  };
  const scan = scanHtml(page.html);
  const signals = extractSignals(
    {
      url: page.url,
      finalUrl: page.finalUrl,
      status: page.status,
      html: page.html,
      headers: page.headers,
      setCookie: page.setCookie,
    },
    company,
    scan,
  );
  signals.otherOrgNumbers = signals.otherOrgNumbers.slice(0, MAX_OTHER_ORG_NUMBERS);
  const live = isPage(page);
  return {
    ...candidate,
    url: best ? page.url : null,
    finalUrl: best ? page.finalUrl : null,
    httpStatus: page.status > 0 ? page.status : null,
    redirects: page.redirects,
    error: page.error,
    errorCode: page.errorCode,
    title: signals.title,
    signals,
    probedAt: now.toISOString(),
    technologies: live
      ? detectTechnologies({ html: page.html, headers: page.headers, setCookie: page.setCookie }, scan)
      : [],
    social: live ? extractSocialHandles(page.html, page.finalUrl, scan) : null,
    // Scoring fills these.
    status: 'pending',
    score: null,
    ledger: [],
    sharedByCompanies: null,
    redirectsToCandidate: null,
  };
}
