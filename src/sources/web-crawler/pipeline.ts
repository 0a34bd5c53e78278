// One company through the stages after `candidates`, each recorded as it completes:
// probed (HTTP facts and page signals) -> scored (ledger, status) -> done (results written onto
// the company row). A company that stopped half-way resumes at its recorded stage; one whose
// last pass is done starts again from the probes.
import { SOURCE } from '../../domain/company.ts';
import type { Clock } from '../../domain/clock.ts';
import type { CompanyWebProfileFields, DueCompany, WebProfileRepository } from '../../store/web-profile.ts';
import type { Crawler } from './crawler.ts';
import { companyWebProfile, type CompanyWebProfile } from './detect.ts';
import { probeCandidate } from './probe.ts';
import { scoreCompany } from './score.ts';
import { listedCandidate, type StoredCandidate } from './types.ts';

interface CompanyOutcome {
  status: 'confirmed' | 'ambiguous' | 'rejected';
  confidence: number;
  companyChanged: boolean;
}

export function companyFields(e: CompanyWebProfile): CompanyWebProfileFields {
  const sources: Record<string, string> = {};
  if (e.primaryDomain || e.enrichedDomains.length) sources.domain = SOURCE.webProfile;
  if (Object.values(e.handles).some((h) => h !== null)) sources.socialHandles = SOURCE.webProfile;
  if (e.technologies.length) sources.technologies = SOURCE.webProfile;
  return {
    primaryDomain: e.primaryDomain,
    enrichedDomains: e.enrichedDomains,
    linkedinHandle: e.handles.linkedin,
    facebookHandle: e.handles.facebook,
    instagramHandle: e.handles.instagram,
    twitterHandle: e.handles.twitter,
    technologies: e.technologies,
    technologyNames: e.technologyNames,
    hasAdPixel: e.hasAdPixel,
    sources,
  };
}

export async function processCompany(
  repo: WebProfileRepository,
  crawler: Crawler,
  clock: Clock,
  row: DueCompany,
): Promise<CompanyOutcome> {
  const company = { orgNumber: row.orgNumber, name: row.name, orgFormCode: row.orgFormCode };
  let candidates = row.candidates as StoredCandidate[];

  if (row.stage === 'candidates' || row.stage === 'done') {
    // One candidate at a time per company: the crawler's limit spreads requests over companies.
    const probed: StoredCandidate[] = [];
    for (const c of candidates) probed.push(await probeCandidate(crawler, listedCandidate(c), company, clock.now()));
    candidates = probed;
    await repo.saveProbed(row.companyId, candidates);
  }

  // Scoring is pure and cheap: a company resumed at 'scored' is scored again with today's
  // sharing counts rather than trusting a half-finished pass.
  const pointers = await repo.otherPointers(
    row.companyId,
    candidates.map((c) => c.domain),
  );
  const scored = scoreCompany(candidates, pointers, company);
  await repo.saveScored(row.companyId, scored);

  const companyChanged = await repo.complete(row.companyId, companyFields(companyWebProfile(scored)), clock.now());
  return { status: scored.status, confidence: scored.confidence, companyChanged };
}
