import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, queryHash } from '../../src/domain/cursor.ts';

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const position = fc.tuple(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), fc.nat());

describe('cursor codec', () => {
  it('round-trips any position for the query that made it', () => {
    fc.assert(
      fc.property(position, fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string()), (k, query) => {
        const q = queryHash('companies', query);
        expect(decodeCursor(key, encodeCursor(key, { q, k }), q)).toEqual({ ok: true, payload: { q, k } });
      }),
    );
  });

  it('refuses a cursor signed with another key, or for another query', () => {
    fc.assert(
      fc.property(position, (k) => {
        const q = queryHash('companies', { orgForm: 'AS' });
        expect(decodeCursor(otherKey, encodeCursor(key, { q, k }), q)).toMatchObject({
          ok: false,
          reason: 'signature',
        });
        expect(
          decodeCursor(key, encodeCursor(key, { q, k }), queryHash('companies', { orgForm: 'ENK' })),
        ).toMatchObject({ ok: false, reason: 'query' });
      }),
    );
  });

  it('refuses every single-character change', () => {
    const q = queryHash('companies', { q: 'fjord' });
    const token = encodeCursor(key, { q, k: ['fjord bygg as', 42] });
    fc.assert(
      fc.property(fc.nat(token.length - 1), fc.string({ minLength: 1, maxLength: 1 }), (i, c) => {
        fc.pre(token[i] !== c);
        expect(decodeCursor(key, token.slice(0, i) + c + token.slice(i + 1), q).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('hashes queries independently of key order and empty values', () => {
    expect(queryHash('s', { a: 1, b: 'x', c: undefined, d: '' })).toBe(queryHash('s', { b: 'x', a: 1 }));
    expect(queryHash('s', { a: 1 })).not.toBe(queryHash('t', { a: 1 }));
  });
});
