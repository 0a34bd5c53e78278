import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NordicCompanyRecord } from '../../../src/sources/nordic-record.ts';
import { parsePrhCompany } from '../../../src/sources/prh/index.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json', import.meta.url), 'utf8'),
);
const wolt = fixture.companies[0];
const clone = () => structuredClone(wolt);

describe('parsePrhCompany', () => {
  it('maps the Wolt fixture field by field', () => {
    const expected: NordicCompanyRecord = {
      country: 'FI',
      orgNumber: '2646674-9',
      name: 'Wolt Oy', // the open type-1 name, not the ended "Wolt Enterprises Oy"
      orgFormCode: '16',
      orgFormDescription: 'Osakeyhtiö',
      naceCode1: '96999',
      naceDescription1: 'Muu muualla luokittelematon palvelutoiminta',
      businessAddress: {
        street: 'Pohjoinen Rautatiekatu 21',
        postalCode: '00100',
        city: 'HELSINKI',
        municipalityCode: '091',
        countryCode: 'FI',
      },
      postalAddress: null,
      website: null,
      registrationDate: '2014-10-29',
      deregistrationDate: null,
      isDeregistered: false,
      isBankrupt: false,
      isBeingDissolved: false,
      status: 'registered',
      description: null,
      lastModified: '2026-01-02T07:49:26',
      // The ended name, kept for name matching (company_names).
      otherNames: [{ kind: 'former', name: 'Wolt Enterprises Oy', validFrom: '2014-10-29', validTo: '2025-05-12' }],
    };
    expect(parsePrhCompany(wolt)).toEqual(expected);
  });

  it('takes the newest open type-1 name and ignores auxiliary names', () => {
    const c = clone();
    c.names = [
      { name: 'Apuninimi', type: '3', registrationDate: '2026-01-01', version: 1 },
      { name: 'Old Oy', type: '1', registrationDate: '2010-01-01', version: 1 },
      { name: 'Newer Oy', type: '1', registrationDate: '2020-01-01', version: 1 },
      { name: 'Ended Oy', type: '1', registrationDate: '2024-01-01', endDate: '2025-01-01', version: 2 },
    ];
    expect(parsePrhCompany(c).name).toBe('Newer Oy');
  });

  it('keeps the last official name when every name has ended', () => {
    const c = clone();
    c.names = [
      { name: 'First Oy', type: '1', registrationDate: '2010-01-01', endDate: '2015-01-01' },
      { name: 'Last Oy', type: '1', registrationDate: '2015-01-01', endDate: '2020-01-01' },
    ];
    expect(parsePrhCompany(c).name).toBe('Last Oy');
  });

  it('uses the current company form and falls back to English, then Swedish descriptions', () => {
    const c = clone();
    c.companyForms = [
      {
        type: '16',
        descriptions: [{ languageCode: '1', description: 'Osakeyhtiö' }],
        registrationDate: '2010-01-01',
        endDate: '2015-01-01',
      },
      {
        type: '17',
        descriptions: [
          { languageCode: '2', description: 'Publikt aktiebolag' },
          { languageCode: '3', description: 'Public limited company' },
        ],
        registrationDate: '2015-01-01',
      },
    ];
    const r = parsePrhCompany(c);
    expect(r.orgFormCode).toBe('17');
    expect(r.orgFormDescription).toBe('Public limited company');
    c.companyForms[1].descriptions = [{ languageCode: '2', description: 'Publikt aktiebolag' }];
    expect(parsePrhCompany(c).orgFormDescription).toBe('Publikt aktiebolag');
  });

  it('maps a postal address with a PO box and c/o, and the website', () => {
    const c = clone();
    c.addresses.push({
      type: 2,
      postOfficeBox: '123',
      co: 'Tilitoimisto Oy',
      postCode: '00101',
      postOffices: [{ city: 'HELSINGFORS', languageCode: '2', municipalityCode: '091' }],
      registrationDate: '2023-08-14',
    });
    c.website = { url: ' www.wolt.com ' };
    const r = parsePrhCompany(c);
    expect(r.postalAddress).toEqual({
      street: 'c/o Tilitoimisto Oy, PL 123',
      postalCode: '00101',
      city: 'HELSINGFORS', // only a Swedish post office given
      municipalityCode: '091',
      countryCode: 'FI',
    });
    expect(r.website).toBe('www.wolt.com');
  });

  it('prefers the current address over an ended one', () => {
    const c = clone();
    c.addresses.push({
      type: 1,
      street: 'Vanha katu',
      buildingNumber: '1',
      postCode: '00200',
      registrationDate: '2024-01-01',
      endDate: '2025-01-01',
      postOffices: [],
    });
    expect(parsePrhCompany(c).businessAddress?.street).toBe('Pohjoinen Rautatiekatu 21');
  });

  it('marks a ceased company as deregistered', () => {
    const c = clone();
    c.endDate = '2025-06-30';
    c.tradeRegisterStatus = '4';
    const r = parsePrhCompany(c);
    expect([r.isDeregistered, r.deregistrationDate, r.status]).toEqual([true, '2025-06-30', 'deregistered']);
    const byStatusOnly = clone();
    byStatusOnly.tradeRegisterStatus = '2';
    expect(parsePrhCompany(byStatusOnly)).toMatchObject({
      isDeregistered: true,
      deregistrationDate: null,
      status: 'deregistered',
    });
    const notInTradeRegister = clone();
    notInTradeRegister.tradeRegisterStatus = '0';
    expect(parsePrhCompany(notInTradeRegister)).toMatchObject({ isDeregistered: false, status: 'registered' });
  });

  it('reads bankruptcy, liquidation and restructuring from open company situations', () => {
    const withSituation = (type: string, endDate?: string) => {
      const c = clone();
      c.companySituations = [{ type, registrationDate: '2025-01-01', ...(endDate ? { endDate } : {}) }];
      return parsePrhCompany(c);
    };
    expect(withSituation('KONK')).toMatchObject({ isBankrupt: true, isBeingDissolved: false, status: 'bankruptcy' });
    expect(withSituation('SELTILA')).toMatchObject({
      isBankrupt: false,
      isBeingDissolved: true,
      status: 'liquidation',
    });
    expect(withSituation('SANE')).toMatchObject({
      isBankrupt: false,
      isBeingDissolved: false,
      status: 'restructuring',
    });
    expect(withSituation('KONK', '2025-03-01')).toMatchObject({ isBankrupt: false, status: 'registered' });
  });

  it('throws an Error naming the company for bad input', () => {
    expect(() => parsePrhCompany([])).toThrow(/not a JSON object/);
    expect(() => parsePrhCompany({ names: [] })).toThrow(/without businessId/);
    const badId = clone();
    badId.businessId.value = '2646674-8';
    expect(() => parsePrhCompany(badId)).toThrow('company 2646674-8: invalid business ID');
    const noName = clone();
    noName.names = [{ name: 'Aux', type: '3', endDate: '2020-01-01' }];
    expect(() => parsePrhCompany(noName)).toThrow('company 2646674-9: no company name');
    const badDate = clone();
    badDate.registrationDate = '2014-02-30';
    expect(() => parsePrhCompany(badDate)).toThrow(/company 2646674-9: registrationDate: invalid date/);
  });
});
