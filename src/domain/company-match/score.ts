// Scores one registry company against one match query, with the features that explain the score.
// score = NAME_WEIGHT × name similarity (current or former name, screening's word alignment) +
// adjustments for place, postal code, web domain, organisation form and status, clamped to [0, 1].
// A name alone tops out at NAME_WEIGHT: agreeing place, postcode or domain push it towards 1.
import { compareTokens } from '../screening/token-align.ts';
import type { AnalysedName } from '../screening/normalise.ts';
import { analyseRegistryName, domainKey, placeKey, registryWords } from './normalise.ts';
import type { DomainEvidence } from './domain-score.ts';

export const NAME_WEIGHT = 0.9;
/** Auto-match: the top candidate scores at least this … */
export const MATCH_THRESHOLD = 0.8;
/** … and this much more than the second. */
export const MATCH_MARGIN = 0.05;

/** Taken from the similarity of a word pair that is neither equal nor a spelling variant. */
const FUZZY_WORD_COST = 0.1;

const DELTA = {
  placeMatch: 0.05,
  placeMismatch: -0.05,
  postalMatch: 0.05,
  postalMismatch: -0.03,
  domainMatch: 0.15,
  orgFormMatch: 0.02,
  orgFormMismatch: -0.12,
  formerName: -0.03,
  inactive: -0.15,
} as const;

export interface MatchQuery {
  /** Absent in a query by domain or e-mail address. */
  name?: string;
  domain?: string;
  email?: string;
  country?: string;
  municipality?: string;
  city?: string;
  postalCode?: string;
  address?: string;
  website?: string;
  orgForm?: string;
  /** Deleted, dissolved and bankrupt companies rank with live ones. */
  includeInactive?: boolean;
}

export interface CandidateCompany {
  country: string;
  orgNumber: string;
  name: string;
  formerNames: { name: string; validTo: string | null }[];
  orgFormCode: string | null;
  /** Cities and municipalities of the business and postal addresses. */
  places: string[];
  postalCodes: string[];
  /** Website hosts and detected domains. */
  domains: string[];
  /** The registrable domain of the registry's homepage (domain queries). */
  homepageDomain?: string | null;
  /** The domains the enrichment pipeline confirmed: primary and enriched (domain queries). */
  pipelineDomains?: string[];
  /** Deleted, deregistered, bankrupt or being dissolved. */
  inactive: boolean;
  status: string;
}

export type Agreement = 'match' | 'mismatch' | 'unknown';

export interface MatchFeatures {
  nameSimilarity: number;
  matchedName: string;
  formerName: boolean;
  place: Agreement;
  postalCode: Agreement;
  domain: Agreement;
  orgForm: Agreement;
  status: string;
  adjustments: { feature: string; delta: number }[];
  /** What ties the candidate to the query's domain, when the query gives one. */
  domainEvidence?: DomainEvidence;
}

export interface ScoredCandidate {
  candidate: CandidateCompany;
  score: number;
  features: MatchFeatures;
}

/** A query prepared once for all of its candidates. */
export interface PreparedQuery {
  query: MatchQuery;
  words: string[];
  analysed: AnalysedName;
  places: string[];
  postalCode: string | null;
  domain: string | null;
  form: { code: string; stated: boolean } | null;
  /** The words as place keys, to tell a city in the name from a name word. */
  wordPlaces: string[];
  /**
   * Similarities already computed for this query, by the compared name and the query words kept:
   * the candidates of one query often share a name (a register holds many "Fjord Bygg AS").
   */
  similarities: Map<string, number>;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Norwegian form codes that registry names end with ("… AS", "… SA"): a form the name states. */
const NAME_FORMS = new Set(['AS', 'ASA', 'DA', 'ANS', 'NUF', 'SA', 'BA', 'KS', 'ENK']);

/** The organisation form a query asks for: its orgForm, else a Norwegian form ending its name. */
function formOf(query: MatchQuery): { code: string; stated: boolean } | null {
  if (query.orgForm) return { code: query.orgForm.toUpperCase(), stated: true };
  const last = (query.name ?? '').trim().split(/\s+/).at(-1)?.toUpperCase() ?? '';
  return NAME_FORMS.has(last) ? { code: last, stated: false } : null;
}

export function prepareQuery(query: MatchQuery): PreparedQuery {
  const places = [query.city, query.municipality].filter((p): p is string => !!p?.trim()).map(placeKey);
  const words = registryWords(query.name ?? '');
  return {
    query,
    words,
    wordPlaces: words.map(placeKey),
    similarities: new Map(),
    analysed: analyseRegistryName(query.name ?? ''),
    places,
    postalCode: query.postalCode?.replace(/\s+/g, '') || null,
    domain: query.website ? domainKey(query.website) : null,
    form: formOf(query),
  };
}

const analysedCache = new Map<string, AnalysedName>();
function analysedOf(name: string): AnalysedName {
  let a = analysedCache.get(name);
  if (!a) {
    if (analysedCache.size > 50_000) analysedCache.clear();
    a = analyseRegistryName(name);
    analysedCache.set(name, a);
  }
  return a;
}

const nameWordPlaces = new Map<string, Set<string>>();
/** The words of a name as place keys (cached like analysedOf: candidate names recur). */
function placeWordsOf(name: string): Set<string> {
  let p = nameWordPlaces.get(name);
  if (!p) {
    if (nameWordPlaces.size > 50_000) nameWordPlaces.clear();
    p = new Set(registryWords(name).map(placeKey));
    nameWordPlaces.set(name, p);
  }
  return p;
}

/**
 * "Fjord Bygg Bergen" for "Fjord Bygg AS" in Bergen: a query word that names the candidate's
 * place and is not in its name is a place, not part of the name. The words kept, or null when
 * none is such a place (or all are).
 */
function withoutPlaceWords(q: PreparedQuery, places: Set<string>, name: string): string | null {
  if (!q.wordPlaces.some((w) => places.has(w))) return null;
  const nameWords = placeWordsOf(name);
  const kept = q.words.filter((_, i) => !places.has(q.wordPlaces[i]) || nameWords.has(q.wordPlaces[i]));
  return kept.length > 0 && kept.length < q.words.length ? kept.join(' ') : null;
}

/** similarityOf(query words `kept` or the whole query, name), once per query. */
function similarityTo(q: PreparedQuery, kept: string | null, name: string): number {
  const key = `${kept ?? ''}\u0000${name}`;
  let sim = q.similarities.get(key);
  if (sim === undefined) {
    sim = similarityOf(kept === null ? q.analysed : analysedOf(kept), analysedOf(name));
    q.similarities.set(key, sim);
  }
  return sim;
}

/**
 * Screening's similarity, capped by a symmetric share of paired words (Dice over the aligned
 * pairs): a register holds "Nordlys Bygg AS" beside "Nordlys Bygg Vest AS", so a word one name
 * has and the other lacks must cost as much from either side.
 */
function similarityOf(a: AnalysedName, b: AnalysedName): number {
  const cmp = compareTokens('organisation', a.tokens, b.tokens, { a: a.legalForms, b: b.legalForms });
  const words = cmp.a.length + cmp.b.length;
  // An inexact word costs more than on a watchlist: "Borettslag" and "Idrettslag" are two words.
  const value = (p: (typeof cmp.pairs)[number]) =>
    p.how === 'fuzzy' || p.how === 'phonetic' ? Math.max(0, p.similarity - FUZZY_WORD_COST) : p.similarity;
  const dice = words === 0 ? 0 : (2 * cmp.pairs.reduce((s, p) => s + value(p), 0)) / words;
  return Math.min(cmp.similarity, dice);
}

function nameSimilarity(q: PreparedQuery, c: CandidateCompany) {
  let best = { similarity: -1, name: c.name, former: false, placeInName: false };
  const names = [{ name: c.name, former: false }, ...c.formerNames.map((f) => ({ name: f.name, former: true }))];
  const places = new Set(c.places.map(placeKey));
  for (const n of names) {
    let sim = similarityTo(q, null, n.name);
    let placeInName = false;
    const kept = withoutPlaceWords(q, places, n.name);
    if (kept !== null) {
      const s2 = similarityTo(q, kept, n.name);
      if (s2 > sim) [sim, placeInName] = [s2, true];
    }
    // A former name must beat the current one clearly to be the one that matched.
    if (sim > best.similarity + (n.former ? 0.01 : 0))
      best = { similarity: sim, name: n.name, former: n.former, placeInName };
  }
  return best;
}

function agreement(given: boolean, matches: boolean): Agreement {
  return !given ? 'unknown' : matches ? 'match' : 'mismatch';
}

export function scoreCandidate(q: PreparedQuery, c: CandidateCompany): ScoredCandidate {
  const name = nameSimilarity(q, c);
  const candidatePlaces = c.places.map(placeKey);
  const place = name.placeInName
    ? 'match'
    : agreement(
        q.places.length > 0 && candidatePlaces.length > 0,
        q.places.some((p) => candidatePlaces.includes(p)),
      );
  const postalCode = agreement(!!q.postalCode && c.postalCodes.length > 0, c.postalCodes.includes(q.postalCode ?? ''));
  const domain: Agreement =
    q.domain && c.domains.length > 0 ? (c.domains.includes(q.domain) ? 'match' : 'mismatch') : 'unknown';
  // A form read off the name ("… SA") is compared with Norwegian companies only (their codes are
  // the same words); a stated orgForm with any.
  // A former name may be from before a change of form: its form says nothing of today's.
  const form = q.form && !name.former && (q.form.stated || c.country === 'NO') ? q.form.code : null;
  const orgForm = agreement(!!form && !!c.orgFormCode, form === c.orgFormCode?.toUpperCase());
  const adjustments: { feature: string; delta: number }[] = [];
  const add = (feature: string, delta: number) => adjustments.push({ feature, delta });
  if (place === 'match') add('place', DELTA.placeMatch);
  if (place === 'mismatch') add('place', DELTA.placeMismatch);
  if (postalCode === 'match') add('postalCode', DELTA.postalMatch);
  if (postalCode === 'mismatch') add('postalCode', DELTA.postalMismatch);
  // A different domain says little (companies change sites, users paste a parent's): no penalty.
  if (domain === 'match') add('domain', DELTA.domainMatch);
  if (orgForm === 'match') add('orgForm', DELTA.orgFormMatch);
  if (orgForm === 'mismatch') add('orgForm', DELTA.orgFormMismatch);
  if (name.former) add('formerName', DELTA.formerName);
  if (c.inactive && !q.query.includeInactive) add('status', DELTA.inactive);
  const raw = NAME_WEIGHT * Math.max(0, name.similarity) + adjustments.reduce((s, a) => s + a.delta, 0);
  return {
    candidate: c,
    score: round(Math.min(1, Math.max(0, raw))),
    features: {
      nameSimilarity: round(Math.max(0, name.similarity)),
      matchedName: name.name,
      formerName: name.former,
      place,
      postalCode,
      domain,
      orgForm,
      status: c.status,
      adjustments,
    },
  };
}

/**
 * Best first: by score, highest first; equal scores by organisation number, then country, so the
 * order is the same for any order the store returned the candidates in. Deleted, dissolved and
 * bankrupt companies are not ranked apart: their status adjustment (-0.15 unless the query
 * includes them) is in the score, so the list never shows a lower score above a higher one.
 * `match` is the top candidate when it clears the threshold by the margin over the second.
 */
export function rankAndDecide(
  q: PreparedQuery,
  candidates: CandidateCompany[],
  opts: { threshold?: number; limit: number },
  score: (q: PreparedQuery, c: CandidateCompany) => ScoredCandidate = scoreCandidate,
): { ranked: ScoredCandidate[]; match: ScoredCandidate | null } {
  const scored = candidates.map((c) => score(q, c));
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      byCode(a.candidate.orgNumber, b.candidate.orgNumber) ||
      byCode(a.candidate.country, b.candidate.country),
  );
  const [top, second] = scored;
  const threshold = opts.threshold ?? MATCH_THRESHOLD;
  const clear = top && top.score >= threshold && (!second || top.score - second.score >= MATCH_MARGIN);
  return { ranked: scored.slice(0, opts.limit), match: clear ? top : null };
}

/** Code-unit order (localeCompare would follow the process's locale). */
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
