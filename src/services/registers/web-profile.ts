// The web-profile pipeline view (GET /api/enrichment): one row per company with its
// outcome and the full candidate ledger. The pipeline itself is the `domains` job.
import type { WebProfileListRow, WebProfileRepository, WebProfileRowStatus } from '../../store/web-profile.ts';

interface WebProfileListParams {
  status?: WebProfileRowStatus;
  minConfidence?: number;
  limit?: number;
  offset?: number;
}

const SIGNAL_FIELDS = [
  'reachable',
  'orgNumberOnPage',
  'otherOrgNumbers',
  'nameOnPage',
  'nameInTitle',
  'nameIsShort',
  'parkedMarkers',
  'defaultPageMarkers',
  'finalDomain',
  'redirectedToOtherDomain',
] as const;

const CANDIDATE_FIELDS = [
  'domain',
  'host',
  'origin',
  'status',
  'score',
  'ledger',
  'sharedByCompanies',
  'url',
  'finalUrl',
  'httpStatus',
  'redirects',
  'error',
  'errorCode',
  'title',
  'redirectsToCandidate',
  'probedAt',
] as const;

type Stored = Record<string, unknown> & { signals?: Record<string, unknown> | null };

/** A candidate as served (http/schemas/web-profile.ts WebProfileCandidate). */
interface PublicCandidate {
  domain: string;
  host: string;
  origin: 'brreg-website' | 'email-domain' | 'name-guess';
  status: WebProfileRowStatus;
  score: number | null;
  ledger: { signal: string; points: number; note: string }[];
  sharedByCompanies: number | null;
  url: string | null;
  finalUrl: string | null;
  httpStatus: number | null;
  redirects: string[];
  error:
    | 'dns'
    | 'private-address'
    | 'blocked'
    | 'timeout'
    | 'network'
    | 'too-many-redirects'
    | 'robots-disallowed'
    | 'not-html'
    | 'http-error'
    | null;
  errorCode: string | null;
  title: string | null;
  signals: {
    reachable: boolean;
    orgNumberOnPage: boolean;
    otherOrgNumbers: string[];
    nameOnPage: boolean;
    nameInTitle: boolean;
    nameIsShort: boolean;
    parkedMarkers: string[];
    defaultPageMarkers: string[];
    finalDomain: string | null;
    redirectedToOtherDomain: boolean;
  } | null;
  redirectsToCandidate: string | null;
  probedAt: string | null;
}

/** The served candidate: stored fields minus the internal detection data (technologies, social). */
function publicCandidate(c: Stored): PublicCandidate {
  const out: Record<string, unknown> = {};
  for (const k of CANDIDATE_FIELDS) out[k] = c[k] ?? (k === 'ledger' || k === 'redirects' ? [] : null);
  out.signals = c.signals ? Object.fromEntries(SIGNAL_FIELDS.map((k) => [k, c.signals![k] ?? null])) : null;
  return out as unknown as PublicCandidate;
}

function row(r: WebProfileListRow) {
  return {
    orgNumber: r.org_number,
    companyName: r.company_name,
    status: r.status,
    confidence: r.confidence,
    primaryDomain: r.primary_domain,
    linkedinHandle: r.linkedin_handle,
    facebookHandle: r.facebook_handle,
    confirmedDomains: r.confirmed_domains,
    candidates: (r.candidates as Stored[]).map(publicCandidate),
    stage: r.stage,
    completedAt: r.completed_at ? new Date(r.completed_at).toISOString() : null,
    brregWebsite: r.website,
    orgForm: r.org_form_code,
    city: r.city,
    employees: r.employee_count,
  };
}

export interface WebProfileServiceDeps {
  webProfile: WebProfileRepository;
}

export function createWebProfileService(deps: WebProfileServiceDeps) {
  const repo = deps.webProfile;
  return {
    async list(p: WebProfileListParams) {
      const q = { status: p.status, minConfidence: p.minConfidence ?? 0, limit: p.limit ?? 50, offset: p.offset ?? 0 };
      const [counts, rows] = await Promise.all([repo.countByStatus(q.minConfidence), repo.list(q)]);
      const summary = { confirmed: counts.confirmed, ambiguous: counts.ambiguous, rejected: counts.rejected };
      const total = q.status ? counts[q.status] : summary.confirmed + summary.ambiguous + summary.rejected;
      return { summary, total, limit: q.limit, offset: q.offset, data: rows.map(row) };
    },
  };
}
