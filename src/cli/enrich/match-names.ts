// `ncd enrich --match-names`: organisation numbers for rows that have none, from the company
// name (and city) through POST /api/companies/match, 100 distinct names per call. A row is
// `matched` when the server names a clear match, `ambiguous` when it found candidates but none
// clear, `none` when it found nothing (or the cell holds no name to look up).
import type { NcdClient } from '../../../clients/js/src/index.ts';
import type { Country } from '../../domain/org-number.ts';

export const MATCH_COLUMNS = ['match', 'matchCountry', 'matchScore', 'matchStatus'] as const;
export const MATCH_BATCH = 100;

type MatchStatus = 'matched' | 'ambiguous' | 'none';

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

/** One match call per 100 queries; the outcomes by queryKey. */
export async function matchNames(
  client: NcdClient,
  queries: NameQuery[],
  country: Country | undefined,
): Promise<Map<string, MatchOutcome>> {
  const outcomes = new Map<string, MatchOutcome>();
  for (let i = 0; i < queries.length; i += MATCH_BATCH) {
    const batch = queries.slice(i, i + MATCH_BATCH);
    const res = await client.companies.match({
      queries: batch.map((q) => ({ ...q, ...(country ? { country } : {}) })),
      limit: 2,
    });
    res.results.forEach((r, j) => {
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
  }
  return outcomes;
}

/** The cells of MATCH_COLUMNS for a row (all blank for a row that had its own number). */
export function matchCells(outcome: MatchOutcome | undefined): string[] {
  if (!outcome) return ['', '', '', ''];
  return [outcome.orgNumber ?? '', outcome.country ?? '', outcome.score?.toFixed(3) ?? '', outcome.status];
}
