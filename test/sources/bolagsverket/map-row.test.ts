import { describe, expect, it } from 'vitest';
import { mapBolagsverketFields, swedishOrgFormLabels } from '../../../src/sources/bolagsverket/index.ts';

const fields = (over: Partial<Record<number, string>> = {}) => {
  const f = [
    '5566778899$ORGNR-IDORG',
    '',
    'SE-LAND',
    'Test AB$FORETAGSNAMN-ORGNAM$2001-01-01',
    'AB-ORGFO',
    '',
    '',
    '',
    '2001-01-01',
    '',
    '',
  ];
  for (const [i, v] of Object.entries(over)) f[Number(i)] = v as string;
  return f;
};
const map = (over: Partial<Record<number, string>> = {}) => {
  const r = mapBolagsverketFields(fields(over), swedishOrgFormLabels());
  if (r.kind !== 'record') throw new Error(`expected a record, got ${r.kind}`);
  return r;
};

describe('mapBolagsverketFields', () => {
  it('maps pending procedures to status and flags', () => {
    const cases: [string, object][] = [
      ['KK-AVOMFO$2025-01-01', { status: 'bankruptcy', isBankrupt: true, isBeingDissolved: false }],
      ['LI-AVOMFO$2025-01-01', { status: 'liquidation', isBankrupt: false, isBeingDissolved: true }],
      ['FUOL-AVOMFO$2025-01-01', { status: 'merger', isBeingDissolved: true }],
      ['DEOL-AVOMFO$2025-01-01', { status: 'merger', isBeingDissolved: true }],
      ['FUOT-AVOMFO$2025-01-01', { status: 'registered', isBeingDissolved: false }], // the absorbing company goes on
      ['FR-AVOMFO$2025-01-01', { status: 'restructuring', isBeingDissolved: false }],
      ['LI-AVOMFO$2024-01-01|KK-AVOMFO$2025-01-01', { status: 'bankruptcy', isBankrupt: true, isBeingDissolved: true }],
    ];
    for (const [pending, expected] of cases) expect(map({ 7: pending }).record, pending).toMatchObject(expected);
  });

  it('lets deregistration win over pending procedures', () => {
    expect(map({ 5: '2024-05-05', 6: 'LIAV-AVORG', 7: 'LI-AVOMFO$2023-01-01' }).record).toMatchObject({
      status: 'deregistered',
      isDeregistered: true,
      deregistrationDate: '2024-05-05',
      isBeingDissolved: false,
      isBankrupt: false,
    });
  });

  it('accepts GD numbers and the 16 century prefix, and reads the löpnummer', () => {
    expect(map({ 0: '2021005489$GDNR-IDORG' }).record.orgNumber).toBe('2021005489');
    expect(map({ 0: '165566778899$ORGNR-IDORG' }).record.orgNumber).toBe('5566778899');
    expect(map({ 0: '556677-8899$ORGNR-IDORG', 1: '3' })).toMatchObject({
      namnskyddslopnummer: 3,
      record: { orgNumber: '5566778899' },
    });
  });

  it('names what is wrong in a malformed row', () => {
    const labels = swedishOrgFormLabels();
    expect(() => mapBolagsverketFields(fields({ 0: '5566778899' }), labels)).toThrow(
      'organisationsidentitet has no type',
    );
    expect(() => mapBolagsverketFields(fields({ 1: 'x' }), labels)).toThrow('namnskyddslopnummer "x" is not a number');
    expect(() => mapBolagsverketFields(fields({ 3: '' }), labels)).toThrow('5566778899: organisationsnamn is empty');
    expect(() => mapBolagsverketFields(fields({ 8: '2001-13-01' }), labels)).toThrow(
      '5566778899: registreringsdatum: invalid date "2001-13-01"',
    );
    expect(() => mapBolagsverketFields(fields().slice(0, 10), labels)).toThrow('expected 11 fields, got 10');
  });

  it('leaves the description of an unknown organisation form empty', () => {
    expect(map({ 4: 'ZZ-ORGFO' }).record).toMatchObject({ orgFormCode: 'ZZ', orgFormDescription: null });
    expect(map({ 4: '' }).record).toMatchObject({ orgFormCode: null, orgFormDescription: null });
  });
});
