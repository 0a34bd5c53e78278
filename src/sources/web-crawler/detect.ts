// Stages 5–6 on confirmed domains only: technologies (with ad pixels) and social handles, as
// the company row carries them. Pure: reads what the probes stored.
import { hasAdPixel, type SocialHandles, type Technology } from '../../domain/web-profile/index.ts';
import type { CompanyScore } from './score.ts';

export interface CompanyWebProfile {
  primaryDomain: string | null;
  enrichedDomains: string[];
  handles: SocialHandles;
  technologies: Technology[];
  technologyNames: string[];
  hasAdPixel: boolean;
}

export function companyWebProfile(scored: CompanyScore): CompanyWebProfile {
  const byDomain = new Map(scored.candidates.map((c) => [c.domain, c]));
  // Primary first: its page speaks for the company when confirmed domains disagree.
  const pages = scored.confirmedDomains.map((d) => byDomain.get(d)!);
  const handles: SocialHandles = { linkedin: null, facebook: null, instagram: null, twitter: null };
  const techs = new Map<string, Technology>();
  for (const p of pages) {
    for (const k of Object.keys(handles) as (keyof SocialHandles)[]) handles[k] ??= p.social?.[k] ?? null;
    for (const t of p.technologies) {
      const have = techs.get(t.name);
      if (!have || have.confidence < t.confidence) techs.set(t.name, t);
    }
  }
  const technologies = [...techs.values()].sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name));
  return {
    primaryDomain: scored.primaryDomain,
    enrichedDomains: scored.confirmedDomains,
    handles,
    technologies,
    technologyNames: technologies.map((t) => t.name),
    hasAdPixel: hasAdPixel(technologies),
  };
}
