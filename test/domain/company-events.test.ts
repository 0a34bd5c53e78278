// coreEvents: one event per changed category, before/after holding only the changed fields, in
// the order of MONITORED_CORE, and the status type read from which flag rose or fell.
import { describe, expect, it } from 'vitest';
import { coreEvents, coreImage, MONITORED_CORE } from '../../src/domain/company-events.ts';

const KEY = { country: 'NO', orgNumber: '923609016', source: 'brreg' };
const base = () => Object.fromEntries(MONITORED_CORE.map(([, column]) => [column, null])) as Record<string, unknown>;

describe('coreEvents', () => {
  it('raises nothing when the monitored columns are equal (undefined and null are the same)', () => {
    const stored = { ...base(), name: 'FJORD AS', is_bankrupt: false, description: 'old' };
    const incoming = { name: 'FJORD AS', is_bankrupt: false, description: 'new' };
    expect(coreEvents(KEY, coreImage(stored), coreImage(incoming))).toEqual([]);
  });

  it('groups changed fields by category in MONITORED_CORE order, with only those fields', () => {
    const stored = { ...base(), name: 'FJORD AS', business_address_street: 'Gate 1', nace_code1: '62.010' };
    const incoming = {
      ...stored,
      name: 'FJORD HOLDING AS',
      business_address_street: 'Gate 2',
      business_address_city: 'OSLO',
      nace_code1: '62.020',
    };
    expect(coreEvents(KEY, coreImage(stored), coreImage(incoming))).toEqual([
      {
        ...KEY,
        category: 'name',
        type: 'name_changed',
        fieldsChanged: ['name'],
        before: { name: 'FJORD AS' },
        after: { name: 'FJORD HOLDING AS' },
      },
      {
        ...KEY,
        category: 'address',
        type: 'address_changed',
        fieldsChanged: ['businessAddress.street', 'businessAddress.city'],
        before: { 'businessAddress.street': 'Gate 1', 'businessAddress.city': null },
        after: { 'businessAddress.street': 'Gate 2', 'businessAddress.city': 'OSLO' },
      },
      {
        ...KEY,
        category: 'industry',
        type: 'industry_changed',
        fieldsChanged: ['naceCode1'],
        before: { naceCode1: '62.010' },
        after: { naceCode1: '62.020' },
      },
    ]);
  });

  it.each([
    [{ is_bankrupt: false }, { is_bankrupt: true }, 'bankrupt'],
    [{ is_deleted: false }, { is_deleted: true, deleted_date: '2026-11-27' }, 'deregistered'],
    [{ is_in_forced_dissolution: null }, { is_in_forced_dissolution: true }, 'dissolved'],
    [{ is_bankrupt: true }, { is_bankrupt: false }, 'reinstated'],
    [{ status: 'ACTIVE' }, { status: 'INACTIVE' }, 'status_changed'],
  ])('types a status change %j → %j as %s', (before, after, type) => {
    const [event] = coreEvents(KEY, coreImage({ ...base(), ...before }), coreImage({ ...base(), ...after }));
    expect(event).toMatchObject({ category: 'status', type });
  });
});
