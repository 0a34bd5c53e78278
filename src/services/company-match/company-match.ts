// Company name -> organisation number matching (POST /api/companies/match, the reconciliation
// service, MCP match_companies and `ncd enrich --match-names`): candidates from the store by
// trigram similarity on current and former names, scored and decided by domain/company-match.
// A query may give a web domain or an e-mail address instead of a name: its registrable domain
// finds the companies holding it (homepage, enrichment pipeline), ranked by that evidence.
import type { CompanyMatchBody, CompanyMatchQuery, MatchCandidate } from '../../contract/company-match.ts';
import { emailDomainOf, isFreeMailDomain, registrableDomainOf } from '../../domain/company-domain.ts';
import {
  domainEvidenceOf,
  domainKey,
  foldedWords,
  lookupPlan,
  MATCH_THRESHOLD,
  prepareQuery,
  rankAndDecide,
  retrievalKey,
  scoreByDomain,
  type CandidateCompany,
  typoVariants,
  type ScoredCandidate,
} from '../../domain/company-match/index.ts';
import type { MatchReasonCode, MatchStatus } from '../../contract/company-match.ts';
import { invalid } from '../../errors.ts';
import type {
  CandidateProbe,
  CompanyNameRepository,
  MatchCandidateRow,
  StoredOtherName,
} from '../../store/company-names.ts';
import type { CompanySearchRepository, DomainCandidateRow } from '../../store/company-search.ts';
import {
  DEFAULT_MATCH_BOUNDS,
  LOOKUP_MISS_MESSAGES,
  runLookups,
  yieldToLoop,
  type CallBudget,
  type LookupMiss,
  type MatchBounds,
} from './match-lookups.ts';

export interface CompanyMatchDeps {
  names: Pick<CompanyNameRepository, 'candidates' | 'namesOf'>;
  /** Candidates by web domain, through the search's domain index. */
  domains: Pick<CompanySearchRepository, 'domainCandidates'>;
  /** The bounds of a call's lookups (DEFAULT_MATCH_BOUNDS; concurrency 1 on the embedded engine). */
  bounds?: Partial<MatchBounds>;
}

const DEFAULT_CANDIDATES = 5;
/** Companies whose other names one statement reads. */
const NAMES_PER_STATEMENT = 500;

/**
 * The word lookups of one query: all of its lookup words (lookupPlan: at most six, transliterated
 * from other scripts, repeated words once), and, for names of three words or more, all but one of
 * them (a typo, a word the register lacks, a city in the name). Two-word names are not split into
 * one-word lookups: one common word ("bygg") would rank tens of thousands of names.
 */
function probesOf(query: number, retrievalKey: string, country: string | null): CandidateProbe[] {
  const { key, words } = lookupPlan(retrievalKey);
  if (words.length === 0) return [];
  const folded = words.map((w) => w.folded);
  const probes: CandidateProbe[] = [{ query, words: folded.join(' '), key, country }];
  const others = (i: number) => folded.filter((__, j) => j !== i).join(' ');
  if (words.length >= 3) words.forEach((_, i) => probes.push({ query, words: others(i), key, country }));
  // One- and two-word names: a misspelt word is looked up through its one-edit neighbours
  // (all of them in one GIN lookup, with the other word), never dropped.
  else
    words.forEach((w, i) => {
      // The neighbours of the word as written, then folded: folding first would move a swapped
      // "broettslag" (fold oe -> o: "brottslag") two edits away from "borettslag".
      const alts = [...new Set(typoVariants(w.written).flatMap(foldedWords))];
      if (alts.length) probes.push({ query, words: others(i), key, country, alts });
    });
  return probes;
}

/** Statuses of companies that still trade: a restructuring (FI/SE) goes on. */
const LIVE = new Set(['active', 'restructuring']);

function statusOf(r: MatchCandidateRow): string {
  if (r.is_deleted) return 'deleted';
  if (r.is_bankrupt) return 'bankrupt';
  if (r.is_being_dissolved || r.is_in_forced_dissolution) return 'dissolving';
  return r.status && r.status !== 'registered' ? r.status : 'active';
}

function candidateOf(r: MatchCandidateRow & Partial<DomainCandidateRow>, others: StoredOtherName[]): CandidateCompany {
  const status = statusOf(r);
  const places = [r.business_address_city, r.business_address_municipality, r.postal_address_city];
  // Registrable domains (a homepage on shop.example.no is example.no), as the query's domain is.
  const homepageDomain = r.website ? registrableDomainOf(r.website) : null;
  const pipelineDomains = [r.primary_domain, ...(r.enriched_domains ?? [])].filter((d): d is string => !!d);
  const domains = [homepageDomain ?? (r.website ? domainKey(r.website) : null), ...pipelineDomains];
  return {
    country: r.country,
    orgNumber: r.org_number,
    name: r.name,
    formerNames: others.map((o) => ({ name: o.name, validTo: o.valid_to })),
    orgFormCode: r.org_form_code,
    places: places.filter((p): p is string => !!p),
    postalCodes: [r.business_address_postal_code, r.postal_address_postal_code].filter((p): p is string => !!p),
    domains: [...new Set(domains.filter((d): d is string => !!d))],
    homepageDomain,
    pipelineDomains: [...new Set(pipelineDomains)],
    inactive: !LIVE.has(status),
    status,
  };
}

function candidateView(s: ScoredCandidate): MatchCandidate {
  const { candidate: c, score, features } = s;
  return { orgNumber: c.orgNumber, country: c.country, name: c.name, score, features };
}

export interface QueryMatch {
  query: CompanyMatchQuery;
  /** done, or not_attempted: the call's work bound was reached before the name was looked up. */
  status: MatchStatus;
  match: ScoredCandidate | null;
  candidates: ScoredCandidate[];
  /** The registrable domain the query was matched by. */
  domain?: string;
  /** Why the query matches nothing by design, or was not attempted. */
  reason?: { code: MatchReasonCode; message: string };
}

/** The registrable domain of a query (domain, else email, else website), checked. */
function domainOfQuery(q: CompanyMatchQuery, i: number): string | null {
  if (q.domain !== undefined) {
    const d = registrableDomainOf(q.domain);
    if (!d)
      throw invalid(
        `body.queries.${i}.domain`,
        'must be a domain, hostname or URL under a public suffix, e.g. example.no',
      );
    return d;
  }
  if (q.email !== undefined) {
    const d = emailDomainOf(q.email);
    if (!d) throw invalid(`body.queries.${i}.email`, 'must be an e-mail address whose domain is under a public suffix');
    return d;
  }
  if (q.website === undefined) return null;
  const d = registrableDomainOf(q.website);
  // Beside a name a website only adjusts the score; alone it is the query.
  if (!d && q.name === undefined)
    throw invalid(
      `body.queries.${i}.website`,
      'must be a domain, hostname or URL under a public suffix, e.g. example.no',
    );
  return d;
}

const freeMailReason = (domain: string, byName: boolean) => ({
  code: 'free_mail_domain' as const,
  message:
    `${domain} is a free-mail or ISP domain shared by unrelated people and companies; it identifies no company` +
    (byName ? ', so the query was matched by its name alone' : ', so nothing was looked up by it'),
});

/** Ranks the candidates of one looked-up query and decides its match. */
function decide(
  query: CompanyMatchQuery,
  domain: string | null,
  freeMail: boolean,
  candidates: CandidateCompany[],
  opts: { threshold?: number; limit?: number },
): QueryMatch {
  const prepared = prepareQuery(query);
  prepared.domain = freeMail ? null : domain;
  const { ranked, match } = rankAndDecide(
    prepared,
    candidates,
    { threshold: opts.threshold ?? MATCH_THRESHOLD, limit: opts.limit ?? DEFAULT_CANDIDATES },
    query.name === undefined ? scoreByDomain : undefined,
  );
  const status = 'done' as const;
  if (domain === null) return { query, status, match, candidates: ranked };
  if (freeMail)
    return { query, status, match, candidates: ranked, domain, reason: freeMailReason(domain, !!query.name) };
  for (const s of ranked) s.features.domainEvidence ??= domainEvidenceOf(domain, s.candidate);
  return { query, status, match, candidates: ranked, domain };
}

export function createCompanyMatchService(deps: CompanyMatchDeps) {
  const bounds: MatchBounds = { ...DEFAULT_MATCH_BOUNDS, ...deps.bounds };

  /** The other names of these companies, in statements of NAMES_PER_STATEMENT companies. */
  async function otherNamesOf(companies: { country: string; orgNumber: string }[]) {
    const others = new Map<string, StoredOtherName[]>();
    for (let i = 0; i < companies.length; i += NAMES_PER_STATEMENT) {
      for (const o of await deps.names.namesOf(companies.slice(i, i + NAMES_PER_STATEMENT))) {
        const k = `${o.country}:${o.org_number}`;
        others.set(k, [...(others.get(k) ?? []), o]);
      }
      await yieldToLoop();
    }
    return others;
  }

  /** Ranked candidates and the decision for each query, in order. */
  async function matchQueries(
    queries: CompanyMatchQuery[],
    opts: { threshold?: number; limit?: number } = {},
  ): Promise<QueryMatch[]> {
    const domains = queries.map((q, i) => domainOfQuery(q, i));
    const keys = queries.map((q, i) => {
      if (q.name === undefined) {
        if (domains[i] === null) throw invalid(`body.queries.${i}`, 'must give a name, a domain or an email');
        return null;
      }
      const key = retrievalKey(q.name);
      if (!/[\p{L}\p{N}]/u.test(q.name)) throw invalid(`body.queries.${i}.name`, 'must contain a letter or digit');
      return key;
    });
    const freeMail = domains.map((d) => d !== null && isFreeMailDomain(d));
    const domainProbes = queries.flatMap((q, i) =>
      domains[i] !== null && !freeMail[i] ? [{ query: i, domain: domains[i], country: q.country ?? null }] : [],
    );
    const byDomain = domainProbes.length ? deps.domains.domainCandidates(domainProbes) : Promise.resolve([]);
    // All words first; the all-but-one lookups only for names that found nothing that way.
    const probes = queries.map((q, i) => (keys[i] === null ? [] : probesOf(i, keys[i], q.country ?? null)));
    const budget: CallBudget = { spentMs: 0, startedAt: performance.now() };
    const missed = new Map<number, LookupMiss>();
    const rows: (MatchCandidateRow & Partial<DomainCandidateRow>)[] = await runLookups(
      deps.names,
      probes.flatMap((p) => p.slice(0, 1)),
      bounds,
      budget,
      missed,
    );
    const found = new Set(rows.map((r) => r.query));
    const retry = probes.flatMap((p, i) => (found.has(i) ? [] : p.slice(1)));
    if (retry.length > 0) rows.push(...(await runLookups(deps.names, retry, bounds, budget, missed)));
    // Domain rows first: they carry the enriched domains, and the first row of a company counts.
    rows.unshift(...(await byDomain));
    const unique = new Map<string, { country: string; orgNumber: string }>();
    for (const r of rows) unique.set(`${r.country}:${r.org_number}`, { country: r.country, orgNumber: r.org_number });
    const others = await otherNamesOf([...unique.values()]);
    const byQuery = queries.map((): CandidateCompany[] => []);
    const seen = new Set<string>();
    for (const r of rows) {
      const k = `${r.country}:${r.org_number}`;
      if (seen.has(`${r.query}:${k}`)) continue;
      seen.add(`${r.query}:${k}`);
      byQuery[r.query].push(candidateOf(r, others.get(k) ?? []));
    }
    const results: QueryMatch[] = [];
    for (const [i, query] of queries.entries()) {
      const miss = missed.get(i);
      if (miss) {
        results.push({
          query,
          status: 'not_attempted',
          match: null,
          candidates: [],
          ...(domains[i] ? { domain: domains[i] } : {}),
          reason: { code: miss, message: LOOKUP_MISS_MESSAGES[miss] },
        });
        continue;
      }
      results.push(decide(query, domains[i], freeMail[i], byQuery[i], opts));
      // Scoring a long name against its candidates takes milliseconds: other requests go between names.
      await yieldToLoop();
    }
    return results;
  }

  return {
    matchQueries,

    async match(body: CompanyMatchBody) {
      const threshold = body.threshold ?? MATCH_THRESHOLD;
      const results = await matchQueries(body.queries, { threshold, limit: body.limit });
      return {
        threshold,
        results: results.map((r) => ({
          query: r.query,
          status: r.status,
          ...(r.domain ? { domain: r.domain } : {}),
          ...(r.reason ? { reason: r.reason } : {}),
          match: r.match ? candidateView(r.match) : null,
          candidates: r.candidates.map(candidateView),
        })),
      };
    },
  };
}

export type CompanyMatchService = ReturnType<typeof createCompanyMatchService>;
