// The CVR mapping, field for field, over the five fixture documents (test/fixtures/cvr/SOURCE.md):
// an A/S with board, direction and owners, an ApS with P-units, an enkeltmandsvirksomhed, a
// company under bankruptcy and a dissolved one.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isValidDanishCvrNumber, isValidOrgNumber } from '../../../src/domain/org-number.ts';
import { mapVirksomhed, newCvrRejectLog, ownershipBand, parseCvrNdjson } from '../../../src/sources/cvr/index.ts';

const lines = readFileSync(new URL('../../fixtures/cvr/virksomheder.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n');
const byCvr = new Map(
  lines.map((l) => {
    const c = mapVirksomhed(JSON.parse(l));
    return [c.core.orgNumber, c];
  }),
);
const get = (cvr: string) => byCvr.get(cvr)!;

describe('CVR numbers', () => {
  it('accepts 8 digits whose weighted sum (2 7 6 5 4 3 2 1) is divisible by 11', () => {
    for (const n of ['35540008', '41770007', '12340001', '29980004', '38710001'])
      expect(isValidDanishCvrNumber(n)).toBe(true);
    expect(isValidOrgNumber('DK', '35540008')).toBe(true);
    expect(isValidDanishCvrNumber('35540009')).toBe(false); // check fails
    expect(isValidDanishCvrNumber('3554000')).toBe(false); // 7 digits
    expect(isValidDanishCvrNumber('923609016')).toBe(false); // a Norwegian number
    expect(isValidDanishCvrNumber('05540008')).toBe(false); // no leading zero
  });
});

describe('Vrvirksomhed mapping', () => {
  it('maps the A/S: core, address with kommune, industries, employees, board and direction, owners', () => {
    const c = get('35540008');
    expect(c.core).toMatchObject({
      country: 'DK',
      name: 'Nordlys Maskiner A/S',
      orgFormCode: 'A/S',
      orgFormDescription: 'Aktieselskab',
      naceCode1: '282900',
      naceDescription1: 'Fremstilling af andre maskiner til generelle formål',
      naceCode2: '465000',
      employeeCount: 57,
      employeeCountRange: null,
      hasRegisteredEmployees: true,
      website: 'www.nordlys-maskiner.dk',
      email: null,
      phone: null,
      foundingDate: '2013-10-15',
      registrationDate: '2013-11-01',
      status: 'registered',
      isBankrupt: false,
      isDeleted: false,
      deletedDate: null,
      registryParentOrgNumber: '41770007',
      source: 'CVR',
    });
    expect(c.core.businessAddress).toEqual({
      street: 'Amaliegade 10, 2. th',
      postalCode: '1256',
      city: 'København K',
      municipality: 'KØBENHAVN',
      municipalityNumber: '101',
      countryCode: 'DK',
    });
    expect(
      c.roles.map((r) => [
        r.roleTypeCode,
        r.roleTypeDescription,
        r.personFirstName,
        r.personLastName,
        r.entityOrgNumber,
      ]),
    ).toEqual([
      ['DAGL', 'ADM. DIR.', 'Mette Lund', 'Sørensen', null],
      ['LEDE', 'FORMAND', 'Henrik', 'Bach', null],
      ['MEDL', 'BESTYRELSESMEDLEM', 'Sofie', 'Krogh', null],
      ['REVI', 'Revision', null, null, '44100002'],
    ]); // Ole Dam left the board in 2019; beneficial owners are not roles
    expect(c.roles[3].entityName).toBe('Revisionsfirmaet Tal & Tal P/S');
    expect(c.owners).toEqual([
      {
        ownerType: 'company',
        ownerName: 'Kystholding ApS',
        ownerCvr: '41770007',
        pctLow: 66.67,
        pctHigh: 90,
        votingPctLow: 66.67,
      },
      { ownerType: 'person', ownerName: 'Henrik Bach', ownerCvr: null, pctLow: 10, pctHigh: 15, votingPctLow: 10 },
    ]);
    expect(c.subUnits.map((u) => [u.orgNumber, u.parentOrgNumber, u.isDeleted])).toEqual([
      ['1019283746', '35540008', false],
    ]);
    expect(c.lastUpdated).toBe('2024-03-14T09:12:44.000+01:00');
    // No personal identifier leaves the mapper.
    expect(JSON.stringify(c)).not.toMatch(/4002000\d{3}|enhedsNummer/);
  });

  it('maps the ApS: current name, P-units open and closed, employees as an interval, a person owning 100 %', () => {
    const c = get('41770007');
    expect(c.core).toMatchObject({
      name: 'Kystholding ApS',
      orgFormCode: 'APS',
      orgFormDescription: 'Anpartsselskab',
      naceCode1: '642120',
      employeeCount: 5,
      employeeCountRange: '5-9',
      registryParentOrgNumber: null,
    });
    expect(c.core.businessAddress).toMatchObject({
      street: 'Strandvejen 88B',
      municipality: 'GENTOFTE',
      municipalityNumber: '157',
    });
    expect(c.subUnits.map((u) => [u.orgNumber, u.startDate, u.closureDate, u.isDeleted])).toEqual([
      ['1020304050', '2012-02-01', null, false],
      ['1020304069', '2016-04-01', '2020-12-31', true],
    ]);
    expect(c.roles.map((r) => r.roleTypeCode)).toEqual(['DAGL', 'STIF']);
    expect(c.owners).toEqual([
      { ownerType: 'person', ownerName: 'Lars Kyster', ownerCvr: null, pctLow: 100, pctHigh: 100, votingPctLow: 100 },
    ]);
  });

  it('maps the enkeltmandsvirksomhed: status from sammensatStatus, the owner as INNH, no phone kept', () => {
    const c = get('12340001');
    expect(c.core).toMatchObject({
      name: 'Hansens VVS v/Jens Hansen',
      orgFormCode: 'ENK',
      orgFormDescription: 'Enkeltmandsvirksomhed',
      status: 'registered',
      employeeCount: 2,
      phone: null,
    });
    expect(c.core.businessAddress?.municipalityNumber).toBe('751');
    expect(c.roles).toHaveLength(1);
    expect(c.roles[0]).toMatchObject({
      roleTypeCode: 'INNH',
      personFirstName: 'Jens',
      personLastName: 'Hansen',
      personBirthYear: null,
    });
  });

  it('maps the company under bankruptcy', () => {
    const c = get('29980004');
    expect(c.core).toMatchObject({
      status: 'bankruptcy',
      isBankrupt: true,
      isDeleted: false,
      employeeCount: 10,
      employeeCountRange: '10-19',
    });
  });

  it('maps the dissolved company: deregistered on the end of its life span, no current roles', () => {
    const c = get('38710001');
    expect(c.core).toMatchObject({
      name: 'Fynsk Handel ApS',
      status: 'deregistered',
      isDeleted: true,
      isBankrupt: false,
      deletedDate: '2022-06-30',
    });
    expect(c.roles).toEqual([]);
    expect(c.owners).toEqual([]);
  });

  it('knows the legal ownership bands and nothing else', () => {
    expect(ownershipBand(0.3333)).toEqual([33.33, 50]);
    expect(ownershipBand(0.5)).toEqual([50, 66.67]);
    expect(ownershipBand(1)).toEqual([100, 100]);
    expect(ownershipBand(0.42)).toBeNull();
  });

  it('NDJSON: bad lines are counted by line number and the good ones still come', async () => {
    const input = [
      lines[0],
      '{not json',
      JSON.stringify({ _source: { Vrvirksomhed: { cvrNummer: 35540009 } } }),
      '',
      lines[1],
    ].join('\n');
    const rejects = newCvrRejectLog();
    const out = [];
    for await (const c of parseCvrNdjson(Readable.from([input]), rejects)) out.push(c.core.orgNumber);
    expect(out).toEqual(['35540008', '41770007']);
    expect(rejects.rejected).toBe(2);
    expect(rejects.samples).toEqual(['line 2: not a JSON document', 'line 3: CVR 35540009: invalid CVR number']);
  });
});
