import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIsoDate, RejectLog } from '../../src/sources/nordic-record.ts';

describe('parseIsoDate', () => {
  it('returns every real calendar date unchanged', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          expect(parseIsoDate(iso)).toBe(iso);
          expect(parseIsoDate(`  ${iso} `)).toBe(iso);
        },
      ),
    );
  });

  it('treats blank and missing as null', () => {
    for (const v of ['', '   ', null, undefined]) expect(parseIsoDate(v)).toBeNull();
  });

  it('rejects impossible days and months', () => {
    for (const v of ['2023-02-29', '2024-02-30', '2024-13-01', '2024-00-10', '2024-04-31', '0999-01-01']) {
      expect(() => parseIsoDate(v), v).toThrow(/invalid date/);
    }
    expect(parseIsoDate('2024-02-29')).toBe('2024-02-29');
  });

  it('either returns a YYYY-MM-DD string or throws, for any input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        let out: string | null;
        try {
          out = parseIsoDate(s);
        } catch (err) {
          expect((err as Error).message).toMatch(/invalid date/);
          return;
        }
        if (out !== null) expect(out).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        else expect(s.trim()).toBe('');
      }),
    );
  });
});

describe('RejectLog', () => {
  it('keeps the first reasons and aborts past the limit', () => {
    const log = new RejectLog('test source', 3, 2);
    log.add('line 2', 'bad a');
    log.add('line 3', 'bad b');
    log.add('line 4', 'bad c');
    expect(log.rejected).toBe(3);
    expect(log.samples).toEqual(['line 2: bad a', 'line 3: bad b']);
    expect(() => log.add('line 5', 'bad d')).toThrow(/test source: more than 3 rejected records.*line 2: bad a/);
  });
});
