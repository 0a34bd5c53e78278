import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrgNumberSet } from '../../../src/sources/bolagsverket/org-number-set.ts';

describe('OrgNumberSet', () => {
  it('behaves like a Map from org number to state, through growth', () => {
    const key = fc.integer({ min: 1, max: 9_999_999_999 });
    const op = fc.tuple(key, fc.constantFrom<'plain' | 'numbered'>('plain', 'numbered'));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), fc.array(key, { maxLength: 50 }), (ops, probes) => {
        const set = new OrgNumberSet();
        const model = new Map<number, string>();
        for (const [k, state] of ops) {
          set.set(k, state);
          model.set(k, state);
        }
        expect(set.size).toBe(model.size);
        for (const k of [...model.keys(), ...probes]) expect(set.get(k)).toBe(model.get(k) ?? 'absent');
      }),
    );
  });

  it('holds 200 000 sequential org numbers', () => {
    const set = new OrgNumberSet();
    for (let i = 0; i < 200_000; i++) set.set(5_560_000_000 + i * 10, i % 2 ? 'plain' : 'numbered');
    expect(set.size).toBe(200_000);
    expect(set.get(5_560_000_000)).toBe('numbered');
    expect(set.get(5_560_000_010)).toBe('plain');
    expect(set.get(5_560_000_001)).toBe('absent');
  });

  it('refuses keys it cannot store', () => {
    expect(() => new OrgNumberSet().set(0, 'plain')).toThrow(/bad key/);
  });
});
