// The candidate lookups of one match call, within bounds (security issue 52, item 3: one free-key
// call of 100 Cyrillic names held the embedded store for 20–35 s while other keys waited).
// A call's probes run in statements of at most `probesPerStatement` probes, each probe ranking at
// most RANKED_PER_PROBE names (store/company-names.ts), each statement cancelled after
// `statementTimeoutMs` on PostgreSQL. Between statements the call yields to the event loop and
// gives the connection back, so on the embedded engine (one connection) the other requests'
// statements run in between; there statements run one at a time, on a server a few at once.
// The store time the call's statements took is summed: once it reaches `callBudgetMs`, or the
// call has run `callDeadlineMs`, the names not yet looked up are answered `not_attempted`, with
// the reason.
import type { CandidateProbe, CompanyNameRepository, MatchCandidateRow } from '../../store/company-names.ts';

export interface MatchBounds {
  /** Probes in one statement (a name has 1–7). */
  probesPerStatement: number;
  /** Time one lookup statement may take before PostgreSQL cancels it. */
  statementTimeoutMs: number;
  /** Store time the lookups of one call may take in all. */
  callBudgetMs: number;
  /** Time from the call's start after which no more lookups start (the store is shared with other callers). */
  callDeadlineMs: number;
  /** Lookup statements run at once: 1 on the embedded engine (one connection), a few on a server. */
  concurrency: number;
}

export const DEFAULT_MATCH_BOUNDS: MatchBounds = {
  probesPerStatement: 4,
  statementTimeoutMs: 1000,
  callBudgetMs: 5000,
  callDeadlineMs: 10_000,
  concurrency: 4,
};

export type LookupMiss = 'work_budget_exhausted' | 'lookup_timed_out';

export const LOOKUP_MISS_MESSAGES: Record<LookupMiss, string> = {
  work_budget_exhausted:
    'the work budget of this call was used up before this name was looked up; send it again, in a call with fewer names',
  lookup_timed_out: 'the lookup of this name ran over its statement time; send it again, alone or with fewer words',
};

/** The store time a call has spent on lookups, and when it started (performance.now()). */
export interface CallBudget {
  spentMs: number;
  startedAt: number;
}

const usedUp = (budget: CallBudget, bounds: MatchBounds) =>
  budget.spentMs >= bounds.callBudgetMs || performance.now() - budget.startedAt >= bounds.callDeadlineMs;

export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Probes in statements of at most `max`, a query's probes together when they fit. */
function statementsOf(probes: CandidateProbe[], max: number): CandidateProbe[][] {
  const byQuery = new Map<number, CandidateProbe[]>();
  for (const p of probes) byQuery.set(p.query, [...(byQuery.get(p.query) ?? []), p]);
  const out: CandidateProbe[][] = [];
  let current: CandidateProbe[] = [];
  for (const group of byQuery.values()) {
    if (current.length > 0 && current.length + group.length > max) {
      out.push(current);
      current = [];
    }
    for (const p of group) {
      if (current.length >= max) {
        out.push(current);
        current = [];
      }
      current.push(p);
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Candidate rows of these probes, and the queries whose lookups did not all run (their rows are
 * left out: a name is answered from all of its lookups or not at all).
 */
export async function runLookups(
  names: Pick<CompanyNameRepository, 'candidates'>,
  probes: CandidateProbe[],
  bounds: MatchBounds,
  budget: CallBudget,
  missed: Map<number, LookupMiss>,
): Promise<MatchCandidateRow[]> {
  const statements = statementsOf(
    probes.filter((p) => !missed.has(p.query)),
    bounds.probesPerStatement,
  );
  const rows: MatchCandidateRow[][] = [];
  let next = 0;
  const worker = async () => {
    while (next < statements.length) {
      const batch = statements[next++];
      if (usedUp(budget, bounds)) {
        for (const p of batch) if (!missed.has(p.query)) missed.set(p.query, 'work_budget_exhausted');
        continue;
      }
      const r = await names.candidates(batch, { timeoutMs: bounds.statementTimeoutMs });
      budget.spentMs += r.ms;
      if (r.complete) rows.push(r.rows);
      else for (const p of batch) if (!missed.has(p.query)) missed.set(p.query, 'lookup_timed_out');
      // Let the other requests in: their statements queue for the connection meanwhile.
      await yieldToLoop();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(bounds.concurrency, statements.length)) }, worker));
  return rows.flat().filter((r) => !missed.has(r.query));
}
