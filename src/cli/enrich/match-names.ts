// `ncd enrich --match-names`: organisation numbers for rows that have none, from the company
// name (and city) through POST /api/companies/match, 100 distinct names per call. A row is
// `matched` when the server names a clear match, `ambiguous` when it found candidates but none
// clear, `none` when it found nothing (or the cell holds no name to look up), `not_attempted`
// when the server's work bound for a call left the name unlooked-up every time it was sent
// (MATCH_ATTEMPTS calls, in ever smaller batches): "none" would claim a search that never ran.
import type { NcdClient } from '../../../clients/js/src/index.ts';
import type { Country } from '../../domain/org-number.ts';

export const MATCH_COLUMNS = ['match', 'matchCountry', 'matchScore', 'matchStatus'] as const;
export const MATCH_BATCH = 100;
/** Calls a name is sent in before it is reported as not attempted. */
export const MATCH_ATTEMPTS = 3;

type MatchStatus = 'matched' | 'ambiguous' | 'none' | 'not_attempted';

export interface NameQuery {
  name: string;
  city?: string;
}

export interface MatchOutcome {
  status: MatchStatus;
  orgNumber?: string;
  country?: Country;
  /** The top candidate's score (also for an ambiguous answer: how close it came). */
  score?: number;
}

// The API's limits (contract/company-match.ts): a name of 1–300 characters holding a letter or
// digit, a city of at most 100. Checked here because one bad query fails the whole call of 100.
const NAME_MAX = 300;
const CITY_MAX = 100;

/** The query of a row, or null when its name cell holds nothing to look up. */
export function nameQuery(name: string | undefined, city: string | undefined): NameQuery | null {
  const n = (name ?? '').trim().slice(0, NAME_MAX).trim();
  if (!/[\p{L}\p{N}]/u.test(n)) return null;
  const c = (city ?? '').trim().slice(0, CITY_MAX).trim();
  return c && /[\p{L}\p{N}]/u.test(c) ? { name: n, city: c } : { name: n };
}

export const queryKey = (q: NameQuery): string => `${q.name}\u0000${q.city ?? ''}`;

/** Match calls of up to 100 queries; names a call did not reach are sent again. The outcomes by queryKey. */
export async function matchNames(
  client: NcdClient,
  queries: NameQuery[],
  country: Country | undefined,
): Promise<Map<string, MatchOutcome>> {
  const outcomes = new Map<string, MatchOutcome>();
  let pending = queries;
  for (let attempt = 1; pending.length && attempt <= MATCH_ATTEMPTS; attempt++) {
    // A name the server's bound left out is sent again, in a batch half the size of the last.
    const size = Math.max(1, Math.ceil(MATCH_BATCH / 2 ** (attempt - 1)));
    const again: NameQuery[] = [];
    for (let i = 0; i < pending.length; i += size)
      again.push(...(await matchBatch(client, pending.slice(i, i + size), country, outcomes)));
    pending = again;
  }
  for (const q of pending) outcomes.set(queryKey(q), { status: 'not_attempted' });
  return outcomes;
}

/** One match call; the outcomes of the names it looked up, and the names it did not reach. */
async function matchBatch(
  client: NcdClient,
  batch: NameQuery[],
  country: Country | undefined,
  outcomes: Map<string, MatchOutcome>,
): Promise<NameQuery[]> {
  const res = await client.companies.match({
    queries: batch.map((q) => ({ ...q, ...(country ? { country } : {}) })),
    limit: 2,
  });
  const notReached: NameQuery[] = [];
  res.results.forEach((r, j) => {
    if (r.status === 'not_attempted') {
      notReached.push(batch[j]);
      return;
    }
    const top = r.match ?? r.candidates[0];
    outcomes.set(
      queryKey(batch[j]),
      r.match
        ? {
            status: 'matched',
            orgNumber: r.match.orgNumber,
            country: r.match.country as Country,
            score: r.match.score,
          }
        : top
          ? { status: 'ambiguous', score: top.score }
          : { status: 'none' },
    );
  });
  return notReached;
}

/** The cells of MATCH_COLUMNS for a row (all blank for a row that had its own number). */
export function matchCells(outcome: MatchOutcome | undefined): string[] {
  if (!outcome) return ['', '', '', ''];
  return [outcome.orgNumber ?? '', outcome.country ?? '', outcome.score?.toFixed(3) ?? '', outcome.status];
}
