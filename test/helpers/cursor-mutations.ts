// Mutated cursors for the paging property tests: every one must be refused with 400.
import fc from 'fast-check';

/** Edits of `cursor` (a letter changed, dropped, cut, extended), noise, and halves swapped with `other`. */
export function cursorMutations(cursor: string, other: string, ...extra: fc.Arbitrary<string>[]) {
  return fc.oneof(
    fc
      .tuple(fc.nat(cursor.length - 1), fc.constantFrom(...'AZaz09-_.=+/ %'.split('')))
      .map(([i, c]) => cursor.slice(0, i) + c + cursor.slice(i + 1)),
    fc.nat(cursor.length - 1).map((i) => cursor.slice(0, i) + cursor.slice(i + 1)),
    fc.nat(cursor.length).map((i) => cursor.slice(0, i)),
    fc.string({ minLength: 1, maxLength: 60 }).map((s) => cursor + s),
    fc.string({ minLength: 1, maxLength: 300 }),
    fc.constant(`${other.split('.')[0]}.${cursor.split('.')[1]}`),
    fc.constant(`${cursor.split('.')[0]}.${other.split('.')[1]}`),
    ...extra,
  );
}
