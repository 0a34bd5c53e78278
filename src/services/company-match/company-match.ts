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
  MATCH_THRESHOLD,
  prepareQuery,
  rankAndDecide,
  retrievalKey,
  scoreByDomain,
  type CandidateCompany,
  typoVariants,
  type ScoredCandidate,
} from '../../domain/company-match/index.ts';
import { invalid } from '../../errors.ts';
import type {
  CandidateProbe,
  CompanyNameRepository,
  MatchCandidateRow,
  StoredOtherName,
} from '../../store/company-names.ts';
import type { CompanySearchRepository, DomainCandidateRow } from '../../store/company-search.ts';

export interface CompanyMatchDeps {
  names: CompanyNameRepository;
  /** Candidates by web domain, through the search's domain index. */
  domains: Pick<CompanySearchRepository, 'domainCandidates'>;
}

const DEFAULT_CANDIDATES = 5;
/** Words of a name used for lookups (the rest still count in the score). */
const MAX_LOOKUP_WORDS = 8;

/**
 * The word lookups of one query: all of its words, and, for names of three words or more, all but
 * one of them (a typo, a word the register lacks, a city in the name). Two-word names are not
 * split into one-word lookups: one common word ("bygg") would rank tens of thousands of names.
 */
function probesOf(query: number, key: string, country: string | null): CandidateProbe[] {
  const words = [...new Set(key.split(' ').filter(Boolean))].slice(0, MAX_LOOKUP_WORDS);
  if (words.length === 0) return [];
  const probes: CandidateProbe[] = [{ query, words: words.join(' '), key, country }];
  const others = (i: number) => words.filter((__, j) => j !== i).join(' ');
  if (words.length >= 3) words.forEach((_, i) => probes.push({ query, words: others(i), key, country }));
  // One- and two-word names: a misspelt word is looked up through its one-edit neighbours
  // (all of them in one GIN lookup, with the other word), never dropped.
  else
    words.forEach((w, i) => {
      // The neighbours of the word as written, then folded: folding first would move a swapped
      // "broettslag" (fold oe -> o: "brottslag") two edits away from "borettslag".
      const alts = [...new Set(typoVariants(w).flatMap(foldedWords))];
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
  match: ScoredCandidate | null;
  candidates: ScoredCandidate[];
  /** The registrable domain the query was matched by. */
  domain?: string;
  /** Why the query matches nothing by design. */
  reason?: { code: 'free_mail_domain'; message: string };
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

/**
 * Statements a batch's lookups are spread over. Each probe costs a GIN lookup and a similarity per
 * distinct name holding its words; one statement runs them one after another on one backend, so a batch
 * of 100 names is split over this many pool connections (the pool holds 10).
 */
const LOOKUP_STATEMENTS = 4;

export function createCompanyMatchService(deps: CompanyMatchDeps) {
  /** Candidate rows of these probes, in LOOKUP_STATEMENTS statements run at once (by query). */
  async function lookUp(probes: CandidateProbe[]): Promise<MatchCandidateRow[]> {
    const parts: CandidateProbe[][] = Array.from({ length: LOOKUP_STATEMENTS }, () => []);
    for (const p of probes) parts[p.query % LOOKUP_STATEMENTS].push(p);
    const results = await Promise.all(parts.filter((p) => p.length > 0).map((p) => deps.names.candidates(p)));
    return results.flat();
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
    const rows: (MatchCandidateRow & Partial<DomainCandidateRow>)[] = await lookUp(
      probes.flatMap((p) => p.slice(0, 1)),
    );
    const found = new Set(rows.map((r) => r.query));
    const retry = probes.flatMap((p, i) => (found.has(i) ? [] : p.slice(1)));
    if (retry.length > 0) rows.push(...(await lookUp(retry)));
    // Domain rows first: they carry the enriched domains, and the first row of a company counts.
    rows.unshift(...(await byDomain));
    const unique = new Map<string, { country: string; orgNumber: string }>();
    for (const r of rows) unique.set(`${r.country}:${r.org_number}`, { country: r.country, orgNumber: r.org_number });
    const others = new Map<string, StoredOtherName[]>();
    for (const o of await deps.names.namesOf([...unique.values()])) {
      const k = `${o.country}:${o.org_number}`;
      others.set(k, [...(others.get(k) ?? []), o]);
    }
    const byQuery = queries.map((): CandidateCompany[] => []);
    const seen = new Set<string>();
    for (const r of rows) {
      const k = `${r.country}:${r.org_number}`;
      if (seen.has(`${r.query}:${k}`)) continue;
      seen.add(`${r.query}:${k}`);
      byQuery[r.query].push(candidateOf(r, others.get(k) ?? []));
    }
    return queries.map((query, i) => {
      const prepared = prepareQuery(query);
      const domain = domains[i];
      prepared.domain = freeMail[i] ? null : domain;
      const { ranked, match } = rankAndDecide(
        prepared,
        byQuery[i],
        { threshold: opts.threshold ?? MATCH_THRESHOLD, limit: opts.limit ?? DEFAULT_CANDIDATES },
        query.name === undefined ? scoreByDomain : undefined,
      );
      if (domain === null) return { query, match, candidates: ranked };
      if (freeMail[i])
        return { query, match, candidates: ranked, domain, reason: freeMailReason(domain, !!query.name) };
      for (const s of ranked) s.features.domainEvidence ??= domainEvidenceOf(domain, s.candidate);
      return { query, match, candidates: ranked, domain };
    });
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
