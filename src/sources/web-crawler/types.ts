// The shape of one candidate domain as stored in the enrichment table's candidates column and served (without the
// internal detection fields) by GET /api/enrichment. It grows stage by stage: listed
// (candidates), probed (HTTP facts, page signals), scored (ledger, score, status).
import type {
  CandidateOrigin,
  WebProfileStatus,
  LedgerEntry,
  PageSignals,
  SocialHandles,
  Technology,
} from '../../domain/web-profile/index.ts';

/**
 * Why a probe got no usable page. `dns`: no host of the candidate resolved; `private-address`:
 * it (or a redirect) points at a non-public address, never contacted; `blocked`: scheme, port
 * or URL refused; `timeout` / `network`: no complete answer; `too-many-redirects`;
 * `robots-disallowed`: robots.txt keeps us out (or answered 5xx); `not-html`: the homepage is
 * not a web page; `http-error`: the last answer was not 2xx.
 */
export const PROBE_ERRORS = [
  'dns',
  'private-address',
  'blocked',
  'timeout',
  'network',
  'too-many-redirects',
  'robots-disallowed',
  'not-html',
  'http-error',
] as const;
export type ProbeError = (typeof PROBE_ERRORS)[number];

export interface StoredCandidate {
  domain: string;
  /** The host tried first (the registry's "www.firma.no" when that is what it says). */
  host: string;
  origin: CandidateOrigin;
  /** 'pending' until scored. */
  status: WebProfileStatus | 'pending';
  score: number | null;
  ledger: LedgerEntry[];
  /** Companies whose registry website or e-mail points at this domain (this one counted as 1). */
  sharedByCompanies: number | null;
  /** First URL requested, the URL of the last answer, its status, the redirect chain. */
  url: string | null;
  finalUrl: string | null;
  httpStatus: number | null;
  redirects: string[];
  error: ProbeError | null;
  /** System code of a network failure (ECONNREFUSED …), when known. */
  errorCode: string | null;
  title: string | null;
  signals: PageSignals | null;
  /** The final domain is another of this company's candidates (an alias, not a penalty). */
  redirectsToCandidate: string | null;
  probedAt: string | null;
  /** Internal: what detection reads on confirmed domains (not served in candidates[]). */
  technologies: Technology[];
  social: SocialHandles | null;
}

export function listedCandidate(c: { domain: string; host: string; origin: CandidateOrigin }): StoredCandidate {
  return {
    domain: c.domain,
    host: c.host,
    origin: c.origin,
    status: 'pending',
    score: null,
    ledger: [],
    sharedByCompanies: null,
    url: null,
    finalUrl: null,
    httpStatus: null,
    redirects: [],
    error: null,
    errorCode: null,
    title: null,
    signals: null,
    redirectsToCandidate: null,
    probedAt: null,
    technologies: [],
    social: null,
  };
}
