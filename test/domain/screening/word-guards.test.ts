// Failure classes of matcher 2.3.0 that cost precision on names not tuned on, one test each,
// with examples written for this file (not taken from the name_bench file).
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLD } from '../../../src/domain/screening/rank.ts';
import { scoreMatch } from '../../../src/domain/screening/score.ts';
import type { NameKind } from '../../../src/domain/screening/types.ts';

const score = (query: string, listed: string, kind: NameKind = 'person', aliases: string[] = []) =>
  scoreMatch({ name: query, kind }, { name: listed, aliases, schema: kind === 'person' ? 'Person' : 'Company' });
const hit = (q: string, l: string, kind?: NameKind) => score(q, l, kind).score >= DEFAULT_THRESHOLD;
const org = (q: string, l: string) => hit(q, l, 'organisation');
const features = (q: string, l: string, kind?: NameKind) =>
  score(q, l, kind).explanation.adjustments.map((a) => a.feature);

describe('another word of the same stem in an organisation name', () => {
  it('is another organisation, and says so', () => {
    expect(org('Trondheim Marine Constructors AS', 'Trondheim Marine Construction AS')).toBe(false);
    expect(org('Oslo Printers House AS', 'Oslo Printing House AS')).toBe(false);
    expect(org('Atlantic Investors Bank', 'Atlantic Investment Bank')).toBe(false);
    expect(features('Fjordlys Banking Group', 'Fjordlys Bank Group', 'organisation')).toContain('derivedWord');
  });

  it('a misspelling or a plural of the same word is still the same name', () => {
    expect(org('Trondheim Marine Constructon AS', 'Trondheim Marine Construction AS')).toBe(true);
    expect(org('Nordlys Solution AS', 'Nordlys Solutions AS')).toBe(true);
  });
});

describe('a word replaced in a chain of names', () => {
  it('another father or grandfather in a name of four words or more is another person', () => {
    expect(hit('Khalid Yusuf Hassan Omar', 'Khalid Yusuf Ibrahim Omar')).toBe(false);
    expect(hit('Ahmad Karim Nasser Haddad', 'Ahmad Karim Fouad Haddad')).toBe(false);
    expect(features('Ahmad Karim Nasser Haddad', 'Ahmad Karim Fouad Haddad')).toContain('substitution');
  });

  it('a word left out, or spelt otherwise, is not a replacement', () => {
    expect(hit('Khalid Yusuf Hassan Omar', 'Khalid Yusuf Omar')).toBe(true);
    expect(hit('Ahmad Karim Nasser Haddad', 'Ahmad Kareem Nasser Haddad')).toBe(true);
  });
});

describe('a name turned round', () => {
  it('a word moved from one end to the other is the same name, not a swap', () => {
    expect(hit('Omar Khalid Yusuf Hassan', 'Khalid Yusuf Hassan Omar')).toBe(true);
    expect(hit('bin Rashid Saeed Maktoum', 'Saeed Maktoum bin Rashid')).toBe(true);
    expect(features('Omar Khalid Yusuf Hassan', 'Khalid Yusuf Hassan Omar')).not.toContain('nameOrder');
  });

  it('two words swapped are still given and family name swapped', () => {
    expect(hit('Hassan Omar', 'Omar Hassan')).toBe(false);
    expect(hit('Yusuf Khalid Hassan', 'Khalid Yusuf Hassan')).toBe(false);
  });
});

describe('alternatives joined by a slash in a listed name', () => {
  it('each alternative is a name of the entity', () => {
    expect(org('Sokol Transport', 'Falcon Logistics/Sokol Transport')).toBe(true);
    expect(score('Sokol Transport', 'Falcon Logistics/Sokol Transport', 'organisation').matchedName).toBe(
      'Sokol Transport',
    );
  });

  it('a legal form written with a slash is not split', () => {
    expect(score('Fjordfisk AS', 'Fjordfisk A/S', 'organisation').explanation.nameSimilarity).toBe(1);
  });
});

describe('an extra distinctive word in an organisation name', () => {
  it('names a subsidiary or a sibling, not the organisation', () => {
    expect(org('Havbris Shipping', 'Havbris Shipping Estonia')).toBe(false);
    expect(org('Kvitfjell Energi', 'Kvitfjell Solberg Energi')).toBe(false);
  });

  it('an extra generic or activity word still describes the same organisation', () => {
    expect(org('Havbris Shipping', 'Havbris Shipping Group')).toBe(true);
    expect(org('Havbris Shipping', 'Havbris Shipping Services')).toBe(true);
  });
});
