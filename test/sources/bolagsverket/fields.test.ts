import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseNames,
  parsePendingProcedures,
  parsePostalAddress,
  splitBolagsverketLine,
  splitComposite,
} from '../../../src/sources/bolagsverket/index.ts';
import { primaryName } from '../../../src/sources/bolagsverket/fields.ts';

const quote = (f: string) => `"${f.replaceAll('"', '""')}"`;
// Values as they occur: any text without line breaks (a line break is joined by the caller).
const value = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !/[\r\n]/.test(s));

describe('splitBolagsverketLine', () => {
  it('round-trips quoted fields with any content, including quotes and ";"', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 12 }), (fields) => {
        expect(splitBolagsverketLine(fields.map(quote).join(';'))).toEqual({ fields, open: false });
      }),
    );
  });

  it('round-trips unquoted fields without ";" that do not start with a quote', () => {
    const bare = value.filter((s) => !s.includes(';') && !s.startsWith('"'));
    fc.assert(
      fc.property(fc.array(bare, { minLength: 1, maxLength: 12 }), (fields) => {
        expect(splitBolagsverketLine(fields.join(';')).fields).toEqual(fields);
      }),
    );
  });

  it('keeps a stray quote that is not followed by ";" or the end of the line', () => {
    expect(splitBolagsverketLine('"a";"24" skärm";"b"').fields).toEqual(['a', '24" skärm', 'b']);
  });

  it('reports a line that ends inside a quoted field as open', () => {
    expect(splitBolagsverketLine('"a";"first line')).toEqual({ fields: ['a', 'first line'], open: true });
    expect(splitBolagsverketLine('"a";')).toEqual({ fields: ['a', ''], open: false });
    expect(splitBolagsverketLine('')).toEqual({ fields: [''], open: false });
  });
});

describe('$-composites', () => {
  const part = fc.string({ maxLength: 12 }).filter((s) => !s.includes('$') && s.trim() === s);

  it('splitComposite inverts join("$")', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 8 }), (parts) => {
        expect(splitComposite(parts.join('$'))).toEqual(parts);
      }),
    );
  });

  it('parseNames returns every non-empty name in order, and picks the first FORETAGSNAMN', () => {
    const name = part.filter((s) => s !== '' && !s.includes('|'));
    const type = fc.constantFrom('FORETAGSNAMN-ORGNAM', 'NAMN-ORGNAM', 'FORNAMN_FRSPRAK-ORGNAM', 'SARS_FORNAMN-ORGNAM');
    fc.assert(
      fc.property(fc.array(fc.tuple(name, type), { minLength: 1, maxLength: 5 }), (entries) => {
        const names = parseNames(entries.map(([n, t]) => `${n}$${t}$2001-01-01`).join('|'));
        expect(names.map((n) => n.name)).toEqual(entries.map(([n]) => n));
        const firstCompanyName = entries.find(([, t]) => t === 'FORETAGSNAMN-ORGNAM')?.[0] ?? entries[0][0];
        expect(primaryName(names)).toBe(firstCompanyName);
      }),
    );
  });

  it('parsePostalAddress reads street $ c/o $ city $ postcode $ country, tolerating swapped city/postcode', () => {
    expect(parsePostalAddress('Storgatan 1$c/o X$STOCKHOLM$111 22$SE-LAND')).toEqual({
      street: 'Storgatan 1',
      careOf: 'c/o X',
      city: 'STOCKHOLM',
      postalCode: '11122',
      countryCode: 'SE',
    });
    expect(parsePostalAddress('Box 1$$11122$STOCKHOLM$SE-LAND')).toMatchObject({
      city: 'STOCKHOLM',
      postalCode: '11122',
    });
    expect(parsePostalAddress('Gata 1\\nLgh 1001$$UMEÅ$90325$')).toMatchObject({
      street: 'Gata 1, Lgh 1001',
      countryCode: null,
    });
    expect(parsePostalAddress('')).toBeNull();
  });

  it('parsePendingProcedures reads code and date of each procedure', () => {
    expect(parsePendingProcedures('KK-AVOMFO$2020-01-01|LI-AVOMFO$Likvidation$2021-02-03|FR-AVOMFO$null')).toEqual([
      { code: 'KK', date: '2020-01-01' },
      { code: 'LI', date: '2021-02-03' },
      { code: 'FR', date: null },
    ]);
    expect(parsePendingProcedures('')).toEqual([]);
  });
});
