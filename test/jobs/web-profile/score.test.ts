// Scoring a company's probed candidates and what detection writes onto the company row.
import { describe, expect, it } from 'vitest';
import { extractSignals } from '../../../src/domain/web-profile/index.ts';
import { CANDIDATE_ERRORS } from '../../../src/contract/web-profile.ts';
import { companyWebProfile } from '../../../src/sources/web-crawler/detect.ts';
import { companyFields } from '../../../src/sources/web-crawler/pipeline.ts';
import { scoreCompany } from '../../../src/sources/web-crawler/score.ts';
import { listedCandidate, PROBE_ERRORS, type StoredCandidate } from '../../../src/sources/web-crawler/types.ts';
import { fixturePage } from '../../fakes/websites/server.ts';

const company = { orgNumber: '915734200', name: 'FJORDLYS REGNSKAP AS', orgFormCode: 'AS' };

/** A probed candidate whose homepage is `file` (fetched at `url`, answered at `finalUrl`). */
function probed(
  domain: string,
  origin: StoredCandidate['origin'],
  file: string | null,
  url = `https://${domain}/`,
  finalUrl = url,
  extra: Partial<StoredCandidate> = {},
): StoredCandidate {
  const html = file ? fixturePage(file) : '';
  const signals = extractSignals({ url, finalUrl, status: file ? 200 : 0, html, headers: {} }, company);
  return {
    ...listedCandidate({ domain, host: domain, origin }),
    url,
    finalUrl,
    httpStatus: file ? 200 : null,
    signals,
    ...extra,
  };
}

describe('scoreCompany', () => {
  it("takes the best candidate's score as the company's, and lists confirmed domains site first", () => {
    const s = scoreCompany(
      [
        probed('fjordlys.no', 'brreg-website', 'company-footer.html'),
        probed('fjordlys.com', 'name-guess', 'company-footer.html', 'https://fjordlys.com/', 'https://fjordlys.no/'),
        probed('fjordlysregnskap.com', 'name-guess', 'parked.html'),
        probed('fjordlys-regnskap.no', 'name-guess', null, undefined, undefined, { error: 'dns' }),
      ],
      new Map(),
      company,
    );
    expect(s).toMatchObject({
      status: 'confirmed',
      confidence: 100,
      primaryDomain: 'fjordlys.no',
      confirmedDomains: ['fjordlys.no', 'fjordlys.com'],
    });
    expect(s.candidates.map((c) => [c.domain, c.status])).toEqual([
      ['fjordlys.no', 'confirmed'],
      ['fjordlys.com', 'confirmed'],
      ['fjordlysregnskap.com', 'rejected'],
      ['fjordlys-regnskap.no', 'rejected'],
    ]);
    const alias = s.candidates[1];
    expect(alias.redirectsToCandidate).toBe('fjordlys.no');
    expect(alias.ledger.map((e) => e.signal)).not.toContain('redirected-away');
    expect(alias.sharedByCompanies).toBe(1);
  });

  it('a redirect to a domain that is not a candidate is a penalty, not an alias', () => {
    const s = scoreCompany(
      [probed('fjordlys.com', 'name-guess', 'company-footer.html', 'https://fjordlys.com/', 'https://agency.no/')],
      new Map(),
      company,
    );
    expect(s.candidates[0].redirectsToCandidate).toBeNull();
    expect(s.candidates[0].ledger).toContainEqual(expect.objectContaining({ signal: 'redirected-away', points: -20 }));
  });

  it('counts other companies pointing at a domain (this one included)', () => {
    const s = scoreCompany(
      [probed('fjordlys.no', 'brreg-website', 'company-footer.html')],
      new Map([['fjordlys.no', 11]]),
      company,
    );
    expect(s.candidates[0].sharedByCompanies).toBe(12);
    expect(s.candidates[0].ledger).toContainEqual({
      signal: 'shared-domain',
      points: -60,
      note: 'candidate for 12 companies',
    });
  });

  it('a company without candidates is rejected with confidence 0', () => {
    expect(scoreCompany([], new Map(), company)).toEqual({
      candidates: [],
      status: 'rejected',
      confidence: 0,
      confirmedDomains: [],
      primaryDomain: null,
    });
  });

  it('prefers the registry website to an equally scored guess as primary domain', () => {
    const s = scoreCompany(
      [
        probed('fjordlys-regnskap.no', 'name-guess', 'company-footer.html'),
        probed('fjordlys.no', 'brreg-website', 'company-footer.html'),
      ],
      new Map(),
      company,
    );
    expect(s.candidates.map((c) => c.score)).toEqual([90, 100]);
    expect(s.primaryDomain).toBe('fjordlys.no');
  });
});

describe('companyWebProfile and companyFields', () => {
  const tech = (name: string, category: string, confidence: number) => ({
    name,
    category: category as never,
    confidence,
  });

  it('merges technologies of confirmed domains (highest confidence wins) and fills handles primary first', () => {
    const a = {
      ...probed('fjordlys.no', 'brreg-website', 'company-footer.html'),
      technologies: [tech('jQuery', 'framework', 0.5), tech('Meta Pixel', 'advertising', 0.9)],
      social: { linkedin: 'a', facebook: null, instagram: null, twitter: null },
    };
    const b = {
      ...probed('fjordlys.com', 'name-guess', 'company-footer.html'),
      technologies: [tech('jQuery', 'framework', 0.8)],
      social: { linkedin: 'b', facebook: 'fb', instagram: null, twitter: null },
    };
    const rejected = {
      ...probed('x.no', 'name-guess', 'parked.html'),
      technologies: [tech('Shopify', 'ecommerce', 1)],
      social: { linkedin: null, facebook: null, instagram: 'nope', twitter: null },
    };
    const e = companyWebProfile(scoreCompany([a, b, rejected], new Map(), company));
    expect(e.technologies).toEqual([tech('Meta Pixel', 'advertising', 0.9), tech('jQuery', 'framework', 0.8)]);
    expect(e.technologyNames).toEqual(['Meta Pixel', 'jQuery']);
    expect(e.hasAdPixel).toBe(true);
    expect(e.handles).toEqual({ linkedin: 'a', facebook: 'fb', instagram: null, twitter: null });
    expect(companyFields(e).sources).toEqual({
      domain: 'Enrichment pipeline',
      socialHandles: 'Enrichment pipeline',
      technologies: 'Enrichment pipeline',
    });
  });

  it('writes empty fields and no provenance when nothing is confirmed', () => {
    const f = companyFields(
      companyWebProfile(scoreCompany([probed('x.no', 'name-guess', 'parked.html')], new Map(), company)),
    );
    expect(f).toMatchObject({
      primaryDomain: null,
      enrichedDomains: [],
      technologies: [],
      hasAdPixel: false,
      linkedinHandle: null,
      sources: {},
    });
  });
});

it('the API schema lists the same probe failure classes as the pipeline', () => {
  expect([...CANDIDATE_ERRORS]).toEqual([...PROBE_ERRORS]);
});
