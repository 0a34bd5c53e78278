// Stage 4: each probed candidate's score and status (domain/web-profile/scoring.ts), and the
// company's outcome: its best candidate's score is the company's confidence and status.
// Pure: the shared-domain counts come from the store, passed in.
import {
  extractSignals,
  scoreCandidate,
  statusForScore,
  type WebProfileStatus,
} from '../../domain/web-profile/index.ts';
import type { StoredCandidate } from './types.ts';

export interface CompanyScore {
  candidates: StoredCandidate[];
  status: WebProfileStatus;
  confidence: number;
  confirmedDomains: string[];
  primaryDomain: string | null;
}

const ORIGIN_RANK = { 'brreg-website': 0, 'email-domain': 1, 'name-guess': 2 } as const;

/**
 * @param otherPointers domain -> how many *other* companies list it as registry website or
 *   e-mail domain (absent = none).
 */
export function scoreCompany(
  candidates: StoredCandidate[],
  otherPointers: ReadonlyMap<string, number>,
  company: { orgNumber: string; name: string },
): CompanyScore {
  const domains = new Set(candidates.map((c) => c.domain));
  const scored = candidates.map((c): StoredCandidate => {
    // A candidate that never got probed (should not happen) scores as unreachable.
    const signals =
      c.signals ??
      extractSignals(
        { url: `https://${c.host}/`, finalUrl: `https://${c.host}/`, status: 0, html: '', headers: {} },
        company,
      );
    const alias =
      signals.redirectedToOtherDomain && signals.finalDomain && domains.has(signals.finalDomain)
        ? signals.finalDomain
        : null;
    const sharedByCompanies = 1 + (otherPointers.get(c.domain) ?? 0);
    // Redirecting to another of the company's own candidates is an alias, not a move away.
    const { score, ledger } = scoreCandidate(alias ? { ...signals, redirectedToOtherDomain: false } : signals, {
      sharedByCompanies,
      origin: c.origin,
    });
    if (alias)
      ledger.push({
        signal: 'redirects-to-candidate',
        points: 0,
        note: `redirects to ${alias}, another candidate of this company`,
      });
    return {
      ...c,
      signals,
      sharedByCompanies,
      score,
      ledger,
      status: statusForScore(score),
      redirectsToCandidate: alias,
    };
  });

  const confirmed = scored
    .filter((c) => c.status === 'confirmed')
    // The site itself before its aliases, then the higher score, then the stronger origin.
    .sort(
      (a, b) =>
        Number(a.redirectsToCandidate !== null) - Number(b.redirectsToCandidate !== null) ||
        b.score! - a.score! ||
        ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin],
    );
  const confidence = scored.reduce((m, c) => Math.max(m, c.score ?? 0), 0);
  return {
    candidates: scored,
    status: scored.length ? statusForScore(confidence) : 'rejected',
    confidence,
    confirmedDomains: confirmed.map((c) => c.domain),
    primaryDomain: confirmed[0]?.domain ?? null,
  };
}
