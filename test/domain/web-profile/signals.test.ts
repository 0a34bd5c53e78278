import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidNorwegianOrgNumber } from '../../../src/domain/org-number.ts';
import { extractSignals, orgNumbersIn } from '../../../src/domain/web-profile/signals.ts';
import { page } from './fixtures.ts';

const fjordlys = { orgNumber: '915734200', name: 'FJORDLYS REGNSKAP AS', orgFormCode: 'AS' };

describe('extractSignals on fixtures', () => {
  it('company page: org number in the footer, name in title, the agency org number kept apart', () => {
    const s = extractSignals(page('company-footer.html', 'https://www.fjordlys.no/'), fjordlys);
    expect(s).toMatchObject({
      reachable: true,
      orgNumberOnPage: true,
      otherOrgNumbers: ['921845634'],
      nameOnPage: true,
      nameInTitle: true,
      nameIsShort: false,
      parkedMarkers: [],
      defaultPageMarkers: [],
      redirectedToOtherDomain: false,
      requestedDomain: 'fjordlys.no',
    });
    expect(s.title).toBe('Fjordlys Regnskap – Autorisert regnskapsfører i Tromsø');
  });

  it('the same page does not confirm a different company', () => {
    const s = extractSignals(page('company-footer.html', 'https://www.fjordlys.no/'), {
      orgNumber: '931765426',
      name: 'FJORDLYS BYGG AS',
    });
    expect(s.orgNumberOnPage).toBe(false);
    expect(s.otherOrgNumbers).toEqual(['915734200', '921845634']);
    expect(s.nameOnPage).toBe(false);
  });

  it('parked domain: sale text and parking hosts', () => {
    const s = extractSignals(page('parked.html', 'http://fjordlysregnskap.com/'), fjordlys);
    expect(s.parkedMarkers).toEqual(expect.arrayContaining(['for-sale-text', 'sedo', 'parkingcrew']));
    expect(s.orgNumberOnPage).toBe(false);
    expect(s.defaultPageMarkers).toEqual([]);
  });

  it('shared hosting default page', () => {
    const s = extractSignals(page('default-hosting.html', 'http://fjordlys-regnskap.no/'), fjordlys);
    expect(s.defaultPageMarkers).toEqual(
      expect.arrayContaining(['plesk-default', 'cpanel-default', 'hosting-placeholder']),
    );
    expect(s.parkedMarkers).toEqual([]);
    expect(s.nameOnPage).toBe(false);
  });

  it('shop: org number written "NO 921 845 634 MVA"', () => {
    const s = extractSignals(page('shopify-shop.html', 'https://nordlysstrikk.no/'), {
      orgNumber: '921845634',
      name: 'NORDLYS STRIKK AS',
    });
    expect([s.orgNumberOnPage, s.nameInTitle]).toEqual([true, true]);
  });

  it('name with "&" and Nordic letters matches the page spelling', () => {
    const s = extractSignals(page('wordpress-social.html', 'https://bergenbygg.no/'), {
      orgNumber: '987654325',
      name: 'BERGEN BYGG & TØMRER AS',
    });
    expect([s.orgNumberOnPage, s.nameOnPage, s.nameInTitle]).toEqual([true, true, true]);
  });

  it('notices a redirect to another registrable domain, not to www', () => {
    const away = extractSignals(
      page('company-footer.html', 'http://fjordlys.com/', { finalUrl: 'https://www.annetfirma.no/' }),
      fjordlys,
    );
    expect([away.redirectedToOtherDomain, away.finalDomain]).toEqual([true, 'annetfirma.no']);
    const www = extractSignals(
      page('company-footer.html', 'http://fjordlys.no/', { finalUrl: 'https://www.fjordlys.no/' }),
      fjordlys,
    );
    expect(www.redirectedToOtherDomain).toBe(false);
  });

  it('a non-2xx answer is not reachable', () => {
    expect(
      extractSignals({ ...page('company-footer.html', 'https://fjordlys.no/'), status: 503 }, fjordlys).reachable,
    ).toBe(false);
  });

  it('apache and nginx placeholders, from tiny pages', () => {
    const mk = (html: string) =>
      extractSignals({ url: 'http://x.no/', finalUrl: 'http://x.no/', status: 200, html, headers: {} }, fjordlys);
    expect(mk('<html><body><h1>It works!</h1></body></html>').defaultPageMarkers).toEqual(['apache-default']);
    expect(mk('<title>Welcome to nginx!</title><h1>Welcome to nginx!</h1>').defaultPageMarkers).toEqual([
      'nginx-default',
    ]);
    expect(mk('<title>Domenet er til salgs</title><p>Dette domenet er til salgs.</p>').parkedMarkers).toEqual([
      'for-sale-text-no',
    ]);
    expect(mk('<p>It works! We fixed our plumbing.</p>').defaultPageMarkers).toEqual([]);
  });

  it('a short name matches but is flagged', () => {
    const s = extractSignals(
      {
        url: 'https://k2.no/',
        finalUrl: 'https://k2.no/',
        status: 200,
        html: '<title>K2 – arkitekter</title>',
        headers: {},
      },
      {
        orgNumber: '915734200',
        name: 'K2 AS',
      },
    );
    expect([s.nameInTitle, s.nameIsShort]).toEqual([true, true]);
  });
});

describe('orgNumbersIn', () => {
  it.each([
    ['Org.nr. 915734200', ['915734200']],
    ['Org nr: 915 734 200', ['915734200']],
    ['NO 915 734 200 MVA', ['915734200']],
    ['NO915734200MVA', ['915734200']],
    ['915.734.200', ['915734200']],
    ['915 734 201', []], // bad check digit
    ['Konto 1915734200', []], // part of a longer number
    ['Tlf 915 73 420', []],
  ])('%j → %j', (text, expected) => {
    expect(orgNumbersIn(text)).toEqual(expected);
  });

  it('finds any valid number however it is grouped (property)', () => {
    const valid = fc
      .array(fc.integer({ min: 0, max: 9 }), { minLength: 8, maxLength: 8 })
      .map((d) => {
        const w = [3, 2, 7, 6, 5, 4, 3, 2];
        const r = d.reduce((s, x, i) => s + x * w[i], 0) % 11;
        return d.join('') + String(r === 0 ? 0 : 11 - r);
      })
      .filter(isValidNorwegianOrgNumber);
    fc.assert(
      fc.property(
        valid,
        fc.constantFrom(' ', '.', '\u00a0', ''),
        fc.constantFrom('Org.nr. ', 'NO ', 'org.nr:'),
        (n, sep, prefix) => {
          const text = `${prefix}${n.slice(0, 3)}${sep}${n.slice(3, 6)}${sep}${n.slice(6)} MVA`;
          expect(orgNumbersIn(text)).toEqual([n]);
        },
      ),
    );
  });
});
