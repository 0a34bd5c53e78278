import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateDomains, nameLabels } from '../../../src/domain/web-profile/candidates.ts';
import { coreNameWords } from '../../../src/domain/web-profile/names.ts';

const company = (over: Partial<Parameters<typeof candidateDomains>[0]> = {}) => ({
  name: 'BRØNNØYSUNDREGISTRENE',
  orgFormCode: 'ORGL',
  website: null,
  email: null,
  ...over,
});

describe('candidateDomains', () => {
  it('puts the registry website first, keeping its host, then e-mail, then name guesses', () => {
    const c = candidateDomains(
      company({
        name: 'Fjordlys Regnskap AS',
        orgFormCode: 'AS',
        website: 'www.fjordlys.no',
        email: 'post@fjordlysregnskap.no',
      }),
    );
    expect(c.slice(0, 2)).toEqual([
      { domain: 'fjordlys.no', host: 'www.fjordlys.no', origin: 'brreg-website' },
      { domain: 'fjordlysregnskap.no', host: 'fjordlysregnskap.no', origin: 'email-domain' },
    ]);
    // The e-mail domain is not guessed again from the name.
    expect(c.filter((x) => x.domain === 'fjordlysregnskap.no')).toHaveLength(1);
    expect(c.slice(2).map((x) => x.domain)).toEqual([
      'fjordlys-regnskap.no',
      'fjordlysregnskap.com',
      'fjordlys-regnskap.com',
      'fjordlys.com',
    ]);
    expect(c.slice(2).every((x) => x.origin === 'name-guess')).toBe(true);
  });

  it.each([
    ['www.brreg.no', 'www.brreg.no', 'brreg.no'],
    ['http://www.firma.no/kontakt', 'www.firma.no', 'firma.no'],
    ['HTTPS://Firma.NO/', 'firma.no', 'firma.no'],
    [' firma.no ', 'firma.no', 'firma.no'],
    ['butikk.firma.priv.no', 'butikk.firma.priv.no', 'firma.priv.no'],
  ])('reads the website field %j', (website, host, domain) => {
    expect(candidateDomains(company({ website }))[0]).toEqual({ domain, host, origin: 'brreg-website' });
  });

  it.each(['ikke oppgitt', 'http://', 'localhost', '10.0.0.1', 'ftp://firma.no', 'firma', 'www.facebook.com/firma'])(
    'ignores an unusable website %j',
    (website) => {
      expect(candidateDomains(company({ website })).some((c) => c.origin === 'brreg-website')).toBe(false);
    },
  );

  it.each(['ola@gmail.com', 'kari.nordmann@online.no', 'x@hotmail.com', 'y@outlook.com', 'bad-address'])(
    'skips free-mail %j',
    (email) => {
      expect(candidateDomains(company({ email })).some((c) => c.origin === 'email-domain')).toBe(false);
    },
  );

  it('uses the registrable domain of a company mail host', () => {
    expect(candidateDomains(company({ email: 'Faktura@Mail.Firma.no' }))[0]).toEqual({
      domain: 'firma.no',
      host: 'firma.no',
      origin: 'email-domain',
    });
  });
});

describe('name guesses', () => {
  it.each([
    ['EQUINOR ASA', 'ASA', ['equinor']],
    ['BJØRNSTAD & SØNN AS', 'AS', ['bjornstadsonn', 'bjornstad-sonn', 'bjornstadogsonn', 'bjornstad']],
    ['ÆRLIGE ÅLESUND BÅT AS', 'AS', ['aerligealesundbat', 'aerlige-alesund-bat', 'aerlige']],
    ['AS VINMONOPOLET', 'AS', ['vinmonopolet']],
    ['Hansen A/S', null, ['hansen']],
    ['NORSK HYDRO ASA', null, ['norskhydro', 'norsk-hydro']],
    ['OLA NORDMANN ENK', 'ENK', ['olanordmann', 'ola-nordmann']],
    ['3T AS', 'AS', ['3t']],
    ['AS', 'AS', []],
    ['Café Ørn ANS', 'ANS', ['cafeorn', 'cafe-orn']],
  ])('%s → %j', (name, form, labels) => {
    expect(nameLabels(name, form)).toEqual(labels);
  });

  it('strips only legal forms at the ends', () => {
    expect(coreNameWords('SA SERVICE SA', 'SA')).toEqual(['service']);
    expect(coreNameWords('DA VINCI DESIGN DA', 'DA')).toEqual(['vinci', 'design']);
    expect(coreNameWords('BYGG AS OG SØNN AS', 'AS')).toEqual(['bygg', 'as', 'og', 'sonn']);
  });

  it('always yields valid, unique hostnames (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.option(fc.constantFrom('AS', 'ASA', 'ENK', 'DA'), { nil: null }),
        (name, form) => {
          const c = candidateDomains({ name, orgFormCode: form, website: null, email: null });
          const domains = c.map((x) => x.domain);
          expect(new Set(domains).size).toBe(domains.length);
          for (const { host } of c) {
            expect(host).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.(?:no|com)$/);
          }
        },
      ),
    );
  });
});
