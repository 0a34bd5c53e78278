import { describe, expect, it } from 'vitest';
import { extractSocialHandles } from '../../../src/domain/web-profile/social.ts';
import { fixture } from './fixtures.ts';

describe('extractSocialHandles', () => {
  it('WordPress site: company handles, not share buttons, posts or people', () => {
    expect(extractSocialHandles(fixture('wordpress-social.html'), 'https://bergenbygg.no/')).toEqual({
      linkedin: 'bergen-bygg-tomrer',
      facebook: 'BergenByggTomrer',
      instagram: 'bergenbygg',
      twitter: 'BergenBygg',
    });
  });

  it('Shopify shop: skips the sharer link', () => {
    expect(extractSocialHandles(fixture('shopify-shop.html'), 'https://nordlysstrikk.no/')).toEqual({
      linkedin: null,
      facebook: 'nordlysstrikk',
      instagram: 'nordlysstrikk',
      twitter: null,
    });
  });

  it('company page: LinkedIn from links and JSON-LD sameAs', () => {
    const h = extractSocialHandles(fixture('company-footer.html'), 'https://www.fjordlys.no/');
    expect(h).toEqual({ linkedin: 'fjordlys-regnskap', facebook: 'fjordlysregnskap', instagram: null, twitter: null });
  });

  it('a page with no social links', () => {
    expect(extractSocialHandles(fixture('default-hosting.html'), 'http://x.no/')).toEqual({
      linkedin: null,
      facebook: null,
      instagram: null,
      twitter: null,
    });
  });

  it.each([
    ['https://www.facebook.com/tr?id=123&ev=PageView', 'facebook', null],
    ['https://www.facebook.com/plugins/page.php?href=x', 'facebook', null],
    ['https://www.facebook.com/sharer.php?u=https%3A%2F%2Ffirma.no', 'facebook', null],
    ['https://www.facebook.com/sharer/sharer.php?u=x', 'facebook', null],
    ['https://www.facebook.com/dialog/share?app_id=1', 'facebook', null],
    ['https://www.facebook.com/groups/12345', 'facebook', null],
    ['https://www.facebook.com/pages/Firma-AS/123456789012', 'facebook', '123456789012'],
    ['https://m.facebook.com/FirmaAS?ref=bookmarks', 'facebook', 'FirmaAS'],
    ['https://nb-no.facebook.com/firma.as/', 'facebook', 'firma.as'],
    ['https://twitter.com/intent/tweet?text=x', 'twitter', null],
    ['https://twitter.com/share?url=x', 'twitter', null],
    ['https://twitter.com/i/web/status/1', 'twitter', null],
    ['https://mobile.twitter.com/firma_no', 'twitter', 'firma_no'],
    ['https://x.com/firma_no/status/123', 'twitter', 'firma_no'],
    ['https://www.instagram.com/p/C8x2kLmNq4R/', 'instagram', null],
    ['https://www.instagram.com/reel/abc/', 'instagram', null],
    ['https://instagram.com/firma.no?igsh=abc', 'instagram', 'firma.no'],
    ['https://www.linkedin.com/in/ola-nordmann', 'linkedin', null],
    ['https://www.linkedin.com/shareArticle?mini=true&url=x', 'linkedin', null],
    ['https://no.linkedin.com/company/firma-as', 'linkedin', 'firma-as'],
    ['https://www.linkedin.com/company/12345678/admin/', 'linkedin', '12345678'],
    ['https://www.linkedin.com/company/s%C3%B8rlandsbygg', 'linkedin', 'sørlandsbygg'],
    ['https://facebook.com.evil.example/FirmaAS', 'facebook', null],
  ])('%s → %s %j', (href, network, handle) => {
    const h = extractSocialHandles(`<a href="${href.replace(/&/g, '&amp;')}">x</a>`, 'https://firma.no/');
    expect(h[network as keyof typeof h]).toBe(handle);
  });

  it('prefers the handle linked most often, then the first', () => {
    const html = ['https://instagram.com/partner', 'https://instagram.com/firma', 'https://www.instagram.com/Firma/']
      .map((u) => `<a href="${u}">i</a>`)
      .join('');
    expect(extractSocialHandles(html, 'https://firma.no/').instagram).toBe('firma');
    expect(
      extractSocialHandles('<a href="https://x.com/a">1</a><a href="https://x.com/b">2</a>', 'https://firma.no/')
        .twitter,
    ).toBe('a');
  });

  it('resolves protocol-relative links and ignores junk', () => {
    const html =
      '<a href="//www.facebook.com/FirmaAS">f</a><a href="javascript:void(0)">j</a><a href="http://[bad">b</a>';
    expect(extractSocialHandles(html, 'https://firma.no/').facebook).toBe('FirmaAS');
  });
});
