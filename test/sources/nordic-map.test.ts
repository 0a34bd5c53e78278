// NordicCompanyRecord → CompanyCore, field by field, on the real PRH sample and the Bolagsverket
// sample line, plus determinism (the store's change detection hashes the mapped core).
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompanyCore } from '../../src/domain/company.ts';
import { parseBolagsverketText } from '../../src/sources/bolagsverket/index.ts';
import { nordicToCompanyCore } from '../../src/sources/nordic-map.ts';
import type { NordicCompanyRecord } from '../../src/sources/nordic-record.ts';
import { parsePrhCompany } from '../../src/sources/prh/index.ts';

const fixture = (p: string) => new URL(`../fixtures/${p}`, import.meta.url);

const EMPTY = {
  naceCode2: null,
  naceDescription2: null,
  naceCode3: null,
  naceDescription3: null,
  sectorCode: null,
  employeeCount: null,
  hasRegisteredEmployees: null,
  email: null,
  phone: null,
  registryParentOrgNumber: null,
  foundingDate: null,
  registeredInVat: null,
  registeredInBiz: null,
  isInForcedDissolution: false,
  lastSubmittedAccountsYear: null,
} as const;

describe('nordicToCompanyCore', () => {
  it('maps the PRH Wolt sample field by field', () => {
    const wolt = JSON.parse(readFileSync(fixture('prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json'), 'utf8'))
      .companies[0];
    const core = nordicToCompanyCore(parsePrhCompany({ ...wolt, website: { url: 'https://wolt.com/' } }));
    const expected: CompanyCore = {
      ...EMPTY,
      country: 'FI',
      orgNumber: '2646674-9',
      name: 'Wolt Oy', // type 1 without endDate, not the ended "Wolt Enterprises Oy"
      orgFormCode: '16',
      orgFormDescription: 'Osakeyhtiö',
      naceCode1: '96999',
      naceDescription1: 'Muu muualla luokittelematon palvelutoiminta',
      businessAddress: {
        street: 'Pohjoinen Rautatiekatu 21',
        postalCode: '00100',
        city: 'HELSINKI',
        municipality: null,
        municipalityNumber: '091',
        countryCode: 'FI',
      },
      postalAddress: null,
      website: 'wolt.com',
      registrationDate: '2014-10-29',
      isBankrupt: false,
      isBeingDissolved: false,
      isDeleted: false,
      deletedDate: null,
      status: 'registered',
      description: null,
      source: 'YTJ',
    };
    expect(core).toEqual(expected);
  });

  it('maps the Bolagsverket sample line field by field', async () => {
    const records: NordicCompanyRecord[] = [];
    for await (const r of parseBolagsverketText(
      createReadStream(fixture('bolagsverket/bolagsverket-bulkfil-sample.txt')),
    ))
      records.push(r);
    const expected: CompanyCore = {
      ...EMPTY,
      country: 'SE',
      orgNumber: '5560000001',
      name: 'Exempel AB',
      orgFormCode: 'AB',
      orgFormDescription: 'Aktiebolag',
      naceCode1: null,
      naceDescription1: null,
      businessAddress: null,
      postalAddress: {
        street: 'Exempelgatan 1',
        postalCode: '11122',
        city: 'STOCKHOLM',
        municipality: null,
        municipalityNumber: null,
        countryCode: 'SE',
      },
      website: null,
      registrationDate: '2001-05-10',
      isBankrupt: false,
      isBeingDissolved: false,
      isDeleted: false,
      deletedDate: null,
      status: 'registered',
      description: 'Bolaget har till föremål …',
      source: 'Bolagsverket',
    };
    expect(records.map(nordicToCompanyCore)).toEqual([expected]);
  });

  it('carries deregistration, bankruptcy and dissolution over', () => {
    const base = nordicToCompanyCore(
      parsePrhCompany({ businessId: { value: '2646674-9' }, names: [{ name: 'X Oy', type: '1' }] }),
    );
    const r: NordicCompanyRecord = {
      country: 'SE',
      orgNumber: '5560000001',
      name: 'Y AB',
      orgFormCode: null,
      orgFormDescription: null,
      naceCode1: null,
      naceDescription1: null,
      businessAddress: null,
      postalAddress: null,
      website: null,
      registrationDate: null,
      deregistrationDate: '2019-11-30',
      isDeregistered: true,
      isBankrupt: true,
      isBeingDissolved: false,
      status: 'deregistered',
      description: null,
      lastModified: null,
    };
    expect(nordicToCompanyCore(r)).toMatchObject({
      isDeleted: true,
      deletedDate: '2019-11-30',
      isBankrupt: true,
      status: 'deregistered',
      source: 'Bolagsverket',
    });
    expect(base).toMatchObject({ isDeleted: false, status: 'registered', website: null, businessAddress: null });
  });

  it('is deterministic: equal records give byte-identical cores (what the content hash sees)', () => {
    const address = fc.option(
      fc.record({
        street: fc.option(fc.string()),
        postalCode: fc.option(fc.string()),
        city: fc.option(fc.string()),
        municipalityCode: fc.option(fc.string()),
        countryCode: fc.option(fc.string()),
      }),
    );
    const record = fc.record({
      country: fc.constantFrom('FI' as const, 'SE' as const),
      orgNumber: fc.string(),
      name: fc.string(),
      orgFormCode: fc.option(fc.string()),
      orgFormDescription: fc.option(fc.string()),
      naceCode1: fc.option(fc.string()),
      naceDescription1: fc.option(fc.string()),
      businessAddress: address,
      postalAddress: address,
      website: fc.option(fc.string()),
      registrationDate: fc.option(fc.string()),
      deregistrationDate: fc.option(fc.string()),
      isDeregistered: fc.boolean(),
      isBankrupt: fc.boolean(),
      isBeingDissolved: fc.boolean(),
      status: fc.constantFrom('registered' as const, 'deregistered' as const, 'bankruptcy' as const),
      description: fc.option(fc.string()),
      lastModified: fc.option(fc.string()),
    });
    const hash = (v: unknown) => createHash('sha1').update(JSON.stringify(v)).digest('hex');
    fc.assert(
      fc.property(record, (r) => {
        // A copy with its keys in another order, as a different parse path might build it.
        const shuffled = Object.fromEntries(
          Object.entries(structuredClone(r)).reverse(),
        ) as unknown as NordicCompanyRecord;
        const a = nordicToCompanyCore(r);
        expect(hash(a)).toBe(hash(nordicToCompanyCore(shuffled)));
        expect(hash(a)).toBe(hash(nordicToCompanyCore({ ...r, lastModified: 'changed upstream timestamp' })));
        expect(a.source).toBe(r.country === 'FI' ? 'YTJ' : 'Bolagsverket');
      }),
    );
  });
});
