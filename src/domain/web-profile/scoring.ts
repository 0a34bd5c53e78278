// Stage 4: from signals to a 0–100 score with a ledger of every point given or taken, and
// from the score to a status. Weights are judgement, written down so they can be argued
// with; the ledger is what GET /api/enrichment shows as `candidates[]`.
import type { CandidateOrigin } from './candidates.ts';
import type { PageSignals } from './signals.ts';

export interface LedgerEntry {
  signal: string;
  points: number;
  note: string;
}

export interface ScoreContext {
  /** How many companies this domain is a candidate for (1 = only this one). */
  sharedByCompanies: number;
  origin: CandidateOrigin;
}

export type WebProfileStatus = 'confirmed' | 'ambiguous' | 'rejected';

/**
 * confirmed ≥ 65: e.g. our org number on a live page reached by a name guess (10 + 55), or
 * the registry's own website with the name in the title (30 + 10 + 25).
 * ambiguous ≥ 35: one weaker fact, e.g. a live registry website alone (40) or a
 * name-guessed site whose title carries the name (35); a human or a later pass decides.
 * Everything else is rejected.
 */
export const THRESHOLDS = { confirmed: 65, ambiguous: 35 } as const;

export const WEIGHTS = {
  origin: { 'brreg-website': 30, 'email-domain': 20, 'name-guess': 0 } satisfies Record<CandidateOrigin, number>,
  livePage: 10,
  unreachable: -30,
  orgNumber: 55,
  otherOrgNumberOnly: -15,
  nameInTitle: 25,
  nameOnPage: 15,
  parked: -60,
  defaultPage: -50,
  redirectedAway: -20,
} as const;

/** A domain many companies point at is a web agency, a portal or shared hosting. */
export function sharedDomainPenalty(sharedBy: number): number {
  if (sharedBy <= 1) return 0;
  if (sharedBy <= 3) return -10; // a small group of related companies sharing one site
  if (sharedBy <= 9) return -30;
  return -60;
}

export function scoreCandidate(signals: PageSignals, context: ScoreContext): { score: number; ledger: LedgerEntry[] } {
  const ledger: LedgerEntry[] = [];
  const add = (signal: string, points: number, note: string) => ledger.push({ signal, points, note });

  add('origin', WEIGHTS.origin[context.origin], `candidate from ${context.origin}`);

  const placeholder = signals.parkedMarkers.length > 0 || signals.defaultPageMarkers.length > 0;
  if (!signals.reachable) {
    add('unreachable', WEIGHTS.unreachable, signals.status ? `HTTP ${signals.status}` : 'no answer');
  } else if (!placeholder) {
    add('live-page', WEIGHTS.livePage, 'homepage answers with content');
  }
  if (signals.parkedMarkers.length > 0)
    add('parked', WEIGHTS.parked, `parked or for sale: ${signals.parkedMarkers.join(', ')}`);
  if (signals.defaultPageMarkers.length > 0) {
    add('default-page', WEIGHTS.defaultPage, `hosting placeholder: ${signals.defaultPageMarkers.join(', ')}`);
  }

  if (signals.orgNumberOnPage) add('org-number', WEIGHTS.orgNumber, 'our org number is on the page');
  else if (signals.otherOrgNumbers.length > 0) {
    add(
      'other-org-number',
      WEIGHTS.otherOrgNumberOnly,
      `page shows another org number (${signals.otherOrgNumbers[0]})`,
    );
  }

  // A short name ("AB", "K2") matches by accident too often to count fully.
  const nameFactor = signals.nameIsShort ? 0.5 : 1;
  const short = signals.nameIsShort ? ' (short name, half weight)' : '';
  if (signals.nameInTitle)
    add('name-in-title', Math.round(WEIGHTS.nameInTitle * nameFactor), `registered name in <title>${short}`);
  else if (signals.nameOnPage)
    add('name-on-page', Math.round(WEIGHTS.nameOnPage * nameFactor), `registered name on the page${short}`);

  if (signals.redirectedToOtherDomain) {
    add('redirected-away', WEIGHTS.redirectedAway, `redirects to ${signals.finalDomain ?? 'another domain'}`);
  }
  const shared = sharedDomainPenalty(context.sharedByCompanies);
  if (shared !== 0) add('shared-domain', shared, `candidate for ${context.sharedByCompanies} companies`);

  const raw = ledger.reduce((sum, e) => sum + e.points, 0);
  const score = Math.max(0, Math.min(100, raw));
  return { score, ledger };
}

export function statusForScore(score: number): WebProfileStatus {
  if (score >= THRESHOLDS.confirmed) return 'confirmed';
  if (score >= THRESHOLDS.ambiguous) return 'ambiguous';
  return 'rejected';
}
