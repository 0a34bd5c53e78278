// Company by domain, pure rules: a URL, host or e-mail address to its registrable domain (Public
// Suffix List), the one free-mail list, and a name's likeness to a domain.
import { describe, expect, it } from 'vitest';
import { emailDomainOf, isFreeMailDomain, nameLikeness, registrableDomainOf } from '../../src/domain/company-domain.ts';

describe('registrableDomainOf', () => {
  it('reduces URLs, www. hosts, subdomains and paths to the registrable domain', () => {
    for (const s of [
      'example.no',
      'www.example.no',
      'https://www.example.no/om-oss?x=1#top',
      'HTTP://Shop.Example.NO:8080/',
      ' www.example.no. ',
    ])
      expect(registrableDomainOf(s), s).toBe('example.no');
    expect(registrableDomainOf('firma.co.uk')).toBe('firma.co.uk');
    expect(registrableDomainOf('www.firma.co.uk')).toBe('firma.co.uk');
  });

  it('keeps a private-suffix site its own, and refuses suffixes, IPs and junk', () => {
    expect(registrableDomainOf('klient.github.io')).toBe('klient.github.io');
    for (const s of ['github.io', 'co.uk', 'no', '127.0.0.1', 'not a domain', '', 'ftp://example.no'])
      expect(registrableDomainOf(s), s).toBeNull();
  });
});

describe('emailDomainOf', () => {
  it("takes the address's domain part, reduced", () => {
    expect(emailDomainOf('Ola.Nordmann@post.Example.no')).toBe('example.no');
    expect(emailDomainOf(' kari@gmail.com ')).toBe('gmail.com');
    for (const s of ['example.no', '@example.no', 'ola@', 'ola@github.io', 'ola@exa mple.no'])
      expect(emailDomainOf(s), s).toBeNull();
  });
});

describe('isFreeMailDomain', () => {
  it('knows webmail and Nordic ISP domains, not company domains', () => {
    for (const d of ['gmail.com', 'outlook.com', 'hotmail.com', 'online.no', 'live.se', 'mail.dk', 'inet.fi'])
      expect(isFreeMailDomain(d), d).toBe(true);
    expect(isFreeMailDomain('example.no')).toBe(false);
    // An ISP subscriber host reduces to the listed domain first.
    expect(isFreeMailDomain(emailDomainOf('matti@pp.inet.fi') ?? '')).toBe(true);
  });
});

describe('nameLikeness', () => {
  it('is 1 for the labels a name gives, 0.9 for initials, else letter-pair similarity', () => {
    expect(nameLikeness('fjordbygg.no', 'FJORD BYGG AS', 'AS')).toBe(1);
    expect(nameLikeness('fjord-bygg.no', 'Fjord Bygg AS', 'AS')).toBe(1);
    expect(nameLikeness('havbris.com', 'HAVBRIS DOMENE AS', 'AS')).toBe(1); // distinctive first word
    expect(nameLikeness('sorlandetoglyse.no', 'Sørlandet & Lyse AS', 'AS')).toBe(1); // & as og, ø folded
    expect(nameLikeness('dnv.no', 'DET NORSKE VERITAS AS', 'AS')).toBe(0.9);
    // "fjordbyg" against "fjordbygg": 7 shared bigrams of 7 + 8 -> 14/15.
    expect(nameLikeness('fjordbyg.no', 'FJORD BYGG AS', 'AS')).toBe(0.933);
    expect(nameLikeness('zzz.no', 'FJORD BYGG AS', 'AS')).toBe(0);
  });
});
