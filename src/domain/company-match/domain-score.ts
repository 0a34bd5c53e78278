// Scores one registry company against a match query that gives a domain (or an e-mail address)
// instead of a name. The evidence, each written into the candidate's adjustments:
//   homepage      the registry's homepage lies in the domain               +0.55
//   enrichedDomain the enrichment pipeline confirmed the domain (primary
//                 or enriched domains)                                     +0.35
//   nameLikeness  0.3 × how much the name looks like the domain (0–1,
//                 domain/company-domain.ts NAME_LIKENESS_RULE)            +0 … +0.3
// plus the place, postal-code and organisation-form agreements of name matching when the query
// gives them, and the inactive penalty; clamped to [0, 1]. The auto-match threshold (0.8) is
// reached by the homepage with the pipeline's confirmation, or by the homepage with a name that
// spells the domain; the pipeline's confirmation alone, or the homepage alone, is a candidate only.
import { nameLikeness } from '../company-domain.ts';
import { placeKey } from './normalise.ts';
import type { Agreement, CandidateCompany, PreparedQuery, ScoredCandidate } from './score.ts';

export const DOMAIN_EVIDENCE = { homepage: 0.55, enrichedDomain: 0.35, nameLikeness: 0.3 } as const;

const DELTA = {
  placeMatch: 0.05,
  placeMismatch: -0.05,
  postalMatch: 0.05,
  postalMismatch: -0.03,
  orgFormMatch: 0.02,
  orgFormMismatch: -0.12,
  inactive: -0.15,
} as const;

export interface DomainEvidence {
  /** The registrable domain the query was matched by. */
  domain: string;
  homepage: boolean;
  enrichedDomain: boolean;
  nameLikeness: number;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function agreement(given: boolean, matches: boolean): Agreement {
  return !given ? 'unknown' : matches ? 'match' : 'mismatch';
}

/** What ties company `c` to `domain`. */
export function domainEvidenceOf(domain: string, c: CandidateCompany): DomainEvidence {
  return {
    domain,
    homepage: c.homepageDomain === domain,
    enrichedDomain: (c.pipelineDomains ?? []).includes(domain),
    nameLikeness: nameLikeness(domain, c.name, c.orgFormCode),
  };
}

/** The score of a domain query's candidate (the rule above), with its features. */
export function scoreByDomain(q: PreparedQuery, c: CandidateCompany): ScoredCandidate {
  const domain = q.domain ?? '';
  const evidence = domainEvidenceOf(domain, c);
  const places = c.places.map(placeKey);
  const place = agreement(
    q.places.length > 0 && places.length > 0,
    q.places.some((p) => places.includes(p)),
  );
  const postalCode = agreement(!!q.postalCode && c.postalCodes.length > 0, c.postalCodes.includes(q.postalCode ?? ''));
  const form = q.form?.stated ? q.form.code : null;
  const orgForm = agreement(!!form && !!c.orgFormCode, form === c.orgFormCode?.toUpperCase());
  const adjustments: { feature: string; delta: number }[] = [];
  const add = (feature: string, delta: number) => adjustments.push({ feature, delta: round(delta) });
  if (evidence.homepage) add('homepage', DOMAIN_EVIDENCE.homepage);
  if (evidence.enrichedDomain) add('enrichedDomain', DOMAIN_EVIDENCE.enrichedDomain);
  if (evidence.nameLikeness > 0) add('nameLikeness', DOMAIN_EVIDENCE.nameLikeness * evidence.nameLikeness);
  if (place === 'match') add('place', DELTA.placeMatch);
  if (place === 'mismatch') add('place', DELTA.placeMismatch);
  if (postalCode === 'match') add('postalCode', DELTA.postalMatch);
  if (postalCode === 'mismatch') add('postalCode', DELTA.postalMismatch);
  if (orgForm === 'match') add('orgForm', DELTA.orgFormMatch);
  if (orgForm === 'mismatch') add('orgForm', DELTA.orgFormMismatch);
  if (c.inactive && !q.query.includeInactive) add('status', DELTA.inactive);
  const raw = adjustments.reduce((s, a) => s + a.delta, 0);
  return {
    candidate: c,
    score: round(Math.min(1, Math.max(0, raw))),
    features: {
      nameSimilarity: evidence.nameLikeness,
      matchedName: c.name,
      formerName: false,
      place,
      postalCode,
      domain: evidence.homepage || evidence.enrichedDomain ? 'match' : 'mismatch',
      orgForm,
      status: c.status,
      adjustments,
      domainEvidence: evidence,
    },
  };
}
