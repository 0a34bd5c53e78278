// Web profile (company domains, technologies, social handles), pure logic: candidates -> (crawler fetches) -> signals -> score ->
// technologies and social handles for confirmed domains. The crawler itself (I/O) lives
// outside domain/ and fetches through src/net/safe-fetch.ts.
export { candidateDomains, nameLabels, PLATFORM_DOMAINS } from './candidates.ts';
export type { CandidateOrigin, CompanyForCandidates, DomainCandidate } from './candidates.ts';
export { registrableDomain, hostFromWebsite } from './domains.ts';
export { scanHtml, type PageScan } from './html-scan.ts';
export { coreNameWords, foldNordic } from './names.ts';
export { extractSignals, orgNumbersIn, type CompanyForSignals, type FetchedPage, type PageSignals } from './signals.ts';
export { scoreCandidate, statusForScore, sharedDomainPenalty, THRESHOLDS, WEIGHTS } from './scoring.ts';
export type { WebProfileStatus, LedgerEntry, ScoreContext } from './scoring.ts';
export { detectTechnologies, hasAdPixel, AD_PIXEL_NAMES, FINGERPRINTS_VERSION } from './technologies.ts';
export type { PageForTechnologies, TechCategory, Technology } from './technologies.ts';
export { extractSocialHandles, type SocialHandles } from './social.ts';
