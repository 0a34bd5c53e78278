// Every recorded brreg / Regnskapsregisteret payload maps to the expected record, field by field.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapEnhet, mapRegnskap, mapRoller, mapUnderenhet } from '../../../src/sources/brreg/map.ts';
import { ROOT } from '../../helpers/env.ts';

const load = (dir: string, file: string) =>
  JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures', dir, file), 'utf8'));
const brreg = (f: string) => load('brreg', f);

const NONE = {
  naceCode2: null,
  naceDescription2: null,
  naceCode3: null,
  naceDescription3: null,
  website: null,
  email: null,
  phone: null,
  registryParentOrgNumber: null,
};

describe('brreg Enhet', () => {
  it('enheter-details-response: an active AS', () => {
    expect(mapEnhet(brreg('enheter-details-response.json'))).toEqual({
      ...NONE,
      country: 'NO',
      orgNumber: '112233445',
      name: 'SESAM STASJON',
      orgFormCode: 'AS',
      orgFormDescription: 'Aksjeselskap',
      naceCode1: '52.292',
      naceDescription1: 'Skipsmegling',
      sectorCode: null,
      employeeCount: 50,
      hasRegisteredEmployees: true,
      businessAddress: {
        street: 'Tyvholmen 1',
        postalCode: '0101',
        city: 'OSLO',
        municipality: 'OSLO',
        municipalityNumber: '0301',
        countryCode: 'NO',
      },
      postalAddress: {
        street: 'c/o reder K. Rusing, Postboks 1752 Vika',
        postalCode: '0122',
        city: 'OSLO',
        municipality: 'OSLO',
        municipalityNumber: '0301',
        countryCode: 'NO',
      },
      foundingDate: '2017-10-20',
      registrationDate: '2017-10-20',
      registeredInVat: true,
      registeredInBiz: true,
      isBankrupt: false,
      isBeingDissolved: false,
      isInForcedDissolution: false,
      isDeleted: false,
      deletedDate: null,
      status: 'active',
      description: null, // vedtektsfestetFormaal [""] holds nothing
      lastSubmittedAccountsYear: null,
      source: 'Brønnøysundregistrene',
    });
  });

  it('enheter-details-deleted-response: a deleted unit keeps its name and deletion date', () => {
    const c = mapEnhet(brreg('enheter-details-deleted-response.json'));
    expect(c).toMatchObject({
      orgNumber: '123456789',
      name: 'SLETTET ENHET AS',
      orgFormCode: 'UTBG',
      orgFormDescription: 'Frivillig registrert utleiebygg',
      isDeleted: true,
      deletedDate: '2017-10-20',
      status: 'deleted',
      businessAddress: null,
      postalAddress: null,
      employeeCount: null,
    });
  });

  it('enheter-search-response and the two search pages: every unit maps', () => {
    const [sesamStasjon] = brreg('enheter-search-response.json')._embedded.enheter.map(mapEnhet);
    expect(sesamStasjon).toMatchObject({ orgNumber: '112233445', name: 'SESAM STASJON', employeeCount: 50 });
    const page1 = brreg('enheter-search-page1-response.json')._embedded.enheter.map(mapEnhet);
    const page2 = brreg('enheter-search-page2-response.json')._embedded.enheter.map(mapEnhet);
    expect(page1[0]).toEqual({
      ...NONE,
      country: 'NO',
      orgNumber: '976030788',
      name: 'SESAM AS',
      orgFormCode: 'AS',
      orgFormDescription: 'Aksjeselskap',
      naceCode1: '56.101',
      naceDescription1: 'Drift av restauranter og kafeer',
      sectorCode: '2100',
      employeeCount: 10,
      hasRegisteredEmployees: null,
      businessAddress: {
        street: 'Elgeseter gate 1',
        postalCode: '7030',
        city: 'TRONDHEIM',
        municipality: 'TRONDHEIM',
        municipalityNumber: '5001',
        countryCode: 'NO',
      },
      postalAddress: null,
      foundingDate: '1995-12-12',
      registrationDate: '1996-01-25',
      registeredInVat: true,
      registeredInBiz: true,
      isBankrupt: false,
      isBeingDissolved: false,
      isInForcedDissolution: false,
      isDeleted: false,
      deletedDate: null,
      status: 'active',
      description: null,
      lastSubmittedAccountsYear: '2022',
      source: 'Brønnøysundregistrene',
    });
    expect(page1[1]).toMatchObject({
      orgNumber: '971497017',
      orgFormCode: 'FLI',
      naceCode1: '88.911',
      employeeCount: 0,
      registeredInVat: false,
      registeredInBiz: false,
      lastSubmittedAccountsYear: '2012',
    });
    expect(page2[0]).toMatchObject({
      orgNumber: '988879134',
      name: 'SESAM FILMKLUBB',
      website: 'www.sesam.filmklubb.blogspot.com',
      sectorCode: '7000',
      businessAddress: {
        street: 'Frivilligsentralen, Violgata 14',
        postalCode: '1776',
        city: 'HALDEN',
        municipalityNumber: '3101',
      },
      postalAddress: { street: 'FVS, Boks 40', postalCode: '1751', city: 'HALDEN', municipalityNumber: '3101' },
    });
  });

  it('empty search pages have no _embedded', () => {
    expect(brreg('enheter-search-empty-response.json')._embedded).toBeUndefined();
    expect(brreg('underenheter-search-empty-response.json')._embedded).toBeUndefined();
  });
});

describe('brreg Underenhet', () => {
  it('underenheter-details-response: located by beliggenhetsadresse, closed on nedleggelsesdato', () => {
    expect(mapUnderenhet(brreg('underenheter-details-response.json'))).toEqual({
      orgNumber: '776655441',
      parentOrgNumber: '112233445',
      name: 'SESAM STASJON',
      orgFormCode: 'BEDR',
      naceCode1: '52.292',
      naceDescription1: 'Skipsmegling',
      employeeCount: 50,
      address: {
        street: 'Tyvholmen 1',
        postalCode: '0122',
        city: 'OSLO',
        municipality: 'OSLO',
        municipalityNumber: '0301',
        countryCode: 'NO',
      },
      startDate: null,
      closureDate: '2018-10-20',
      isDeleted: false,
    });
  });

  it('underenheter-details-deleted-response', () => {
    expect(mapUnderenhet(brreg('underenheter-details-deleted-response.json'))).toMatchObject({
      orgNumber: '987123456',
      orgFormCode: 'AAFY',
      isDeleted: true,
      closureDate: '2017-10-05',
      parentOrgNumber: null,
      address: null,
    });
  });

  it('underenheter-search-response', () => {
    const [u] = brreg('underenheter-search-response.json')._embedded.underenheter.map(mapUnderenhet);
    expect(u).toEqual({
      orgNumber: '334455660',
      parentOrgNumber: '443322119',
      name: 'TRYLLEBUTIKKEN SESAM',
      orgFormCode: 'BEDR',
      naceCode1: '90.012',
      naceDescription1: 'Utøvende kunstnere og underholdsningsvirksomhet innen scenekunst',
      employeeCount: null,
      address: {
        street: 'Sagstua',
        postalCode: '2120',
        city: 'NORD-ODAL',
        municipality: 'NORD-ODAL',
        municipalityNumber: '0418',
        countryCode: 'NO',
      },
      startDate: null,
      closureDate: null,
      isDeleted: false,
    });
  });
});

describe('brreg roller', () => {
  it('enheter-roller-person-response: a person keeps names and birth year only', () => {
    const roles = mapRoller(brreg('enheter-roller-person-response.json'));
    expect(roles).toEqual([
      {
        groupCode: 'STYR',
        groupDescription: 'Styre',
        roleTypeCode: 'LEDE',
        roleTypeDescription: 'Styrets leder',
        personFirstName: 'Ove',
        personMiddleName: null,
        personLastName: 'Olsen',
        personBirthYear: 1981,
        entityOrgNumber: null,
        entityName: null,
        electedBy: 'Representant for A-aksjonærene',
        responsibilityShare: null,
        position: 0,
      },
    ]);
    expect(JSON.stringify(roles)).not.toContain('1981-01-01');
  });

  it('enheter-roller-enhet-response: entity participants with their shares', () => {
    const roles = mapRoller(brreg('enheter-roller-enhet-response.json'));
    expect(roles.length).toBeGreaterThanOrEqual(2);
    expect(roles[0]).toEqual({
      groupCode: 'DELT',
      groupDescription: 'Deltakere',
      roleTypeCode: 'DTPR',
      roleTypeDescription: 'Deltaker med delt ansvar',
      personFirstName: null,
      personMiddleName: null,
      personLastName: null,
      personBirthYear: null,
      entityOrgNumber: '810006242',
      entityName: 'Rolfsens Deltakerorganisasjon AS',
      electedBy: null,
      responsibilityShare: '50%',
      position: 0,
    });
    expect(roles[1]).toMatchObject({ entityOrgNumber: '810004282', entityName: 'Sult AS' });
  });

  it('drops deregistered and resigned roles', () => {
    const roles = mapRoller({
      rollegrupper: [
        {
          type: { kode: 'STYR' },
          roller: [
            { type: { kode: 'MEDL' }, person: { navn: { fornavn: 'A', etternavn: 'B' } }, avregistrert: true },
            { type: { kode: 'MEDL' }, person: { navn: { fornavn: 'C', etternavn: 'D' } }, fratraadt: true },
            { type: { kode: 'LEDE' }, person: { navn: { fornavn: 'E', etternavn: 'F' } }, avregistrert: false },
          ],
        },
      ],
    });
    expect(roles.map((r) => r.personFirstName)).toEqual(['E']);
  });
});

describe('Regnskapsregisteret', () => {
  it('regnskap-923609016-2024: Equinor ASA 2024 key figures', () => {
    expect(mapRegnskap(load('regnskap', 'regnskap-923609016-2024-thirdparty-fixture.json'))).toEqual([
      {
        upstreamId: '5667197',
        accountsType: 'SELSKAP',
        periodFrom: '2024-01-01',
        periodTo: '2024-12-31',
        currency: 'NOK',
        revenue: 72543000000,
        operatingProfit: 10347000000,
        netResult: 8141000000,
        equity: 41090000000,
        totalAssets: 109150000000,
        totalLiabilities: 68060000000,
        source: 'Regnskapsregisteret',
      },
    ]);
  });

  it("regnskap-test-fixture-OrgnrResponseDefault: brreg's own expectation, typos and all", () => {
    expect(mapRegnskap(load('regnskap', 'regnskap-test-fixture-OrgnrResponseDefault.json'))).toEqual([
      {
        upstreamId: '10',
        accountsType: 'SELSKAP',
        periodFrom: '2019-01-01',
        periodTo: '2019-12-31',
        currency: 'valutakode',
        revenue: 2042,
        operatingProfit: 2040,
        netResult: 2038,
        equity: 2028,
        totalAssets: 2024,
        totalLiabilities: 2031,
        source: 'Regnskapsregisteret',
      },
    ]);
  });

  it('keeps missing sub-objects as null, not 0, and one row per (period, type)', () => {
    const rows = mapRegnskap([
      { regnskapstype: 'SELSKAP', regnskapsperiode: { tilDato: '2023-12-31' } },
      { regnskapstype: 'KONSERN', regnskapsperiode: { tilDato: '2023-12-31' }, eiendeler: { sumEiendeler: 5 } },
      { regnskapstype: 'SELSKAP', regnskapsperiode: { tilDato: '2023-12-31' }, eiendeler: { sumEiendeler: 7 } },
      { regnskapstype: 'SELSKAP' },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.accountsType === 'SELSKAP')).toMatchObject({
      totalAssets: 7,
      revenue: null,
      equity: null,
    });
  });
});
