import { describe, expect, it } from 'vitest';
import {
  scoreCandidate,
  sharedDomainPenalty,
  statusForScore,
  THRESHOLDS,
} from '../../../src/domain/web-profile/scoring.ts';
import { extractSignals, type PageSignals } from '../../../src/domain/web-profile/signals.ts';
import { page } from './fixtures.ts';

const fjordlys = { orgNumber: '915734200', name: 'FJORDLYS REGNSKAP AS' };
const base: PageSignals = {
  status: 200,
  reachable: true,
  title: null,
  orgNumberOnPage: false,
  otherOrgNumbers: [],
  nameOnPage: false,
  nameInTitle: false,
  nameIsShort: false,
  parkedMarkers: [],
  defaultPageMarkers: [],
  requestedDomain: 'x.no',
  finalDomain: 'x.no',
  redirectedToOtherDomain: false,
  textLength: 1000,
};
const only = { sharedByCompanies: 1 };

describe('scoreCandidate on fixtures', () => {
  it('confirms the company page and explains why', () => {
    const s = extractSignals(page('company-footer.html', 'https://www.fjordlys.no/'), fjordlys);
    const { score, ledger } = scoreCandidate(s, { ...only, origin: 'brreg-website' });
    expect(score).toBe(100);
    expect(statusForScore(score)).toBe('confirmed');
    expect(ledger.map((e) => e.signal)).toEqual(['origin', 'live-page', 'org-number', 'name-in-title']);
    expect(ledger.every((e) => typeof e.note === 'string' && e.note.length > 0)).toBe(true);
  });

  it('a name guess alone confirms only with the org number on the page', () => {
    const s = extractSignals(page('company-footer.html', 'https://fjordlys.no/'), fjordlys);
    expect(statusForScore(scoreCandidate(s, { ...only, origin: 'name-guess' }).score)).toBe('confirmed');
    const noNumber = { ...s, orgNumberOnPage: false, otherOrgNumbers: [] };
    expect(statusForScore(scoreCandidate(noNumber, { ...only, origin: 'name-guess' }).score)).toBe('ambiguous');
  });

  it('rejects a parked domain even when the registry lists it', () => {
    const s = extractSignals(page('parked.html', 'http://fjordlysregnskap.com/'), fjordlys);
    const r = scoreCandidate(s, { ...only, origin: 'brreg-website' });
    expect(statusForScore(r.score)).toBe('rejected');
    expect(r.ledger.find((e) => e.signal === 'parked')?.points).toBeLessThan(0);
    expect(r.ledger.some((e) => e.signal === 'live-page')).toBe(false);
  });

  it('rejects a hosting default page', () => {
    const s = extractSignals(page('default-hosting.html', 'http://fjordlys.no/'), fjordlys);
    const r = scoreCandidate(s, { ...only, origin: 'brreg-website' });
    expect(statusForScore(r.score)).toBe('rejected');
    expect(r.ledger.map((e) => e.signal)).toContain('default-page');
  });
});

describe('scoreCandidate rules', () => {
  it('a domain shared by many companies is a strong negative', () => {
    const s = { ...base, nameInTitle: true, nameOnPage: true };
    const alone = scoreCandidate(s, { sharedByCompanies: 1, origin: 'brreg-website' });
    const shared = scoreCandidate(s, { sharedByCompanies: 25, origin: 'brreg-website' });
    expect(statusForScore(alone.score)).toBe('confirmed');
    expect(statusForScore(shared.score)).toBe('rejected');
    expect(shared.ledger.at(-1)).toEqual({ signal: 'shared-domain', points: -60, note: 'candidate for 25 companies' });
  });

  it('penalty grows with the number of companies sharing', () => {
    expect([1, 2, 3, 4, 9, 10, 500].map(sharedDomainPenalty)).toEqual([0, -10, -10, -30, -30, -60, -60]);
  });

  it('an unreachable site scores nothing', () => {
    const r = scoreCandidate({ ...base, reachable: false, status: 0 }, { ...only, origin: 'name-guess' });
    expect(r.score).toBe(0);
    expect(r.ledger).toContainEqual({ signal: 'unreachable', points: -30, note: 'no answer' });
  });

  it('halves the name weight for a short name and counts title over page', () => {
    const long = scoreCandidate({ ...base, nameInTitle: true, nameOnPage: true }, { ...only, origin: 'name-guess' });
    const short = scoreCandidate(
      { ...base, nameInTitle: true, nameOnPage: true, nameIsShort: true },
      { ...only, origin: 'name-guess' },
    );
    expect(long.score - short.score).toBe(12);
    expect(long.ledger.filter((e) => e.signal.startsWith('name-'))).toHaveLength(1);
  });

  it('penalises a redirect away and a foreign org number', () => {
    const r = scoreCandidate(
      { ...base, redirectedToOtherDomain: true, finalDomain: 'other.no', otherOrgNumbers: ['921845634'] },
      { ...only, origin: 'brreg-website' },
    );
    expect(r.ledger.map((e) => [e.signal, e.points])).toEqual([
      ['origin', 30],
      ['live-page', 10],
      ['other-org-number', -15],
      ['redirected-away', -20],
    ]);
    expect(r.score).toBe(5);
  });

  it('clamps to 0–100', () => {
    const top = scoreCandidate(
      { ...base, orgNumberOnPage: true, nameInTitle: true },
      { ...only, origin: 'brreg-website' },
    );
    expect(top.score).toBe(100);
    const bottom = scoreCandidate(
      { ...base, parkedMarkers: ['sedo'], defaultPageMarkers: ['nginx-default'] },
      { sharedByCompanies: 50, origin: 'name-guess' },
    );
    expect(bottom.score).toBe(0);
  });
});

describe('statusForScore', () => {
  it('uses the documented thresholds', () => {
    expect(statusForScore(100)).toBe('confirmed');
    expect(statusForScore(THRESHOLDS.confirmed)).toBe('confirmed');
    expect(statusForScore(THRESHOLDS.confirmed - 1)).toBe('ambiguous');
    expect(statusForScore(THRESHOLDS.ambiguous)).toBe('ambiguous');
    expect(statusForScore(THRESHOLDS.ambiguous - 1)).toBe('rejected');
    expect(statusForScore(0)).toBe('rejected');
  });
});
