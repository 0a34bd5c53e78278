// Public API of company name -> organisation number matching (pure; see README.md).
export {
  analyseRegistryName,
  domainKey,
  foldedWords,
  placeKey,
  registryWords,
  retrievalKey,
  typoVariants,
} from './normalise.ts';
export {
  MATCH_MARGIN,
  MATCH_THRESHOLD,
  NAME_WEIGHT,
  prepareQuery,
  rankAndDecide,
  scoreCandidate,
  type Agreement,
  type CandidateCompany,
  type MatchFeatures,
  type MatchQuery,
  type PreparedQuery,
  type ScoredCandidate,
} from './score.ts';
export {
  lookupPlan,
  lookupSpelling,
  MAX_LOOKUP_WORDS,
  MAX_RANKING_KEY,
  type LookupPlan,
  type LookupWord,
} from './lookup-words.ts';
export { DOMAIN_EVIDENCE, domainEvidenceOf, scoreByDomain, type DomainEvidence } from './domain-score.ts';
