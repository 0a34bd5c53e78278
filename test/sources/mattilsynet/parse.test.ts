import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INSPECTIONS_URL,
  INSPECTION_COLUMNS,
  InspectionParseError,
  parseInspectionDate,
  parseInspectionsCsv,
  type InspectionParseStats,
  type InspectionRecord,
} from '../../../src/sources/mattilsynet/parse.ts';
import { collect, errorOf, streamOf } from '../stream-helpers.ts';

const SAMPLE = readFileSync(
  new URL('../../fixtures/mattilsynet/smilefjes-tilsyn-header-and-illustrative-row.csv', import.meta.url),
);
const HEADER = INSPECTION_COLUMNS.join(';');

/** One data row with overrides by column name. */
function row(over: Partial<Record<(typeof INSPECTION_COLUMNS)[number], string>> = {}): string {
  const base: Record<string, string> = {
    tilsynsobjektid: 'Z1703151057439673252OPMTI_Tilsynsobjekt',
    orgnummer: '923609016',
    navn: 'KAFÉ ÆRLIG',
    adrlinje1: 'Storgata 1',
    adrlinje2: '',
    postnr: '0150',
    poststed: 'OSLO',
    tilsynid: 'Z2406251324396200239ZDBTB_TilsynAvtale',
    sakref: '2024/00001',
    status: '0',
    dato: '01022024',
    total_karakter: '1',
    tilsynsbesoektype: '0',
    tema1_no: 'Rutiner og ledelse',
    tema1_nn: 'Rutinar og leiing',
    karakter1: '0',
    tema2_no: 'Lokaler og utstyr',
    tema2_nn: 'Lokale og utstyr',
    karakter2: '1',
    tema3_no: 'Mathåndtering og tilberedning',
    tema3_nn: 'Mathandtering og tilbereiing',
    karakter3: '0',
    tema4_no: 'Merking og sporbarhet',
    tema4_nn: 'Merking og sporbarheit',
    karakter4: '4',
  };
  return INSPECTION_COLUMNS.map((c) => over[c] ?? base[c]).join(';');
}
const file = (...rows: string[]) => `\uFEFF${HEADER}\n${rows.join('\n')}\n`;

describe('parseInspectionsCsv on the real header and illustrative row', () => {
  it('maps every column', async () => {
    const rows = await collect(parseInspectionsCsv(streamOf(SAMPLE)));
    expect(rows).toEqual<InspectionRecord[]>([
      {
        line: 2,
        upstreamId: 'Z2406251324396200239ZDBTB_TilsynAvtale',
        venueId: 'Z1703151057439673252OPMTI',
        orgNumber: '999999999',
        name: 'ILLUSTRATIVE RESTAURANT AS',
        address: 'Karl Johans gate 37',
        postnr: '0162',
        poststed: 'OSLO',
        caseRef: '2024/00000',
        status: '0',
        date: '2024-06-25',
        totalRating: 1,
        inspectionType: 'ordinary',
        themes: [
          {
            number: 1,
            nameNo: 'Rutiner og ledelse',
            nameNn: 'Rutiner og ledelse',
            grade: 0,
            applicable: true,
            assessed: true,
          },
          {
            number: 2,
            nameNo: 'Lokaler og utstyr',
            nameNn: 'Lokaler og utstyr',
            grade: 1,
            applicable: true,
            assessed: true,
          },
          {
            number: 3,
            nameNo: 'Mathåndtering og tilberedning',
            nameNn: 'Mathåndtering og tilberedning',
            grade: 0,
            applicable: true,
            assessed: true,
          },
          {
            number: 4,
            nameNo: 'Merking og sporbarhet',
            nameNn: 'Merking og sporbarhet',
            grade: 4,
            applicable: false,
            assessed: false,
          },
        ],
      },
    ]);
    expect(DEFAULT_INSPECTIONS_URL).toBe('https://data.mattilsynet.no/smilefjes-tilsyn.csv');
  });

  it('gives the same records however the bytes are chunked', async () => {
    const whole = await collect(parseInspectionsCsv(streamOf(SAMPLE)));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: SAMPLE.length }), { maxLength: 10 }), async (cuts) => {
        expect(await collect(parseInspectionsCsv(streamOf(SAMPLE, cuts)))).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });
});

describe('parseInspectionsCsv field rules', () => {
  it('reads quoted fields with `;`, `""` and line breaks, and numbers the lines that follow', async () => {
    const text = file(
      row({ navn: '"Café ""Nye""; bar"', adrlinje1: '"Storgata 1\nbakgården"', adrlinje2: 'inngang B' }),
      row({ tilsynid: 'second', navn: 'Pizza "Roma"' }),
    );
    const rows = await collect(parseInspectionsCsv(streamOf(text)));
    expect(rows.map((r) => [r.line, r.name, r.address])).toEqual([
      [2, 'Café "Nye"; bar', 'Storgata 1\nbakgården, inngang B'],
      [4, 'Pizza "Roma"', 'Storgata 1'],
    ]);
  });

  it('drops exact and id-only duplicates, keeping the first, and counts them', async () => {
    const stats: InspectionParseStats = { records: 0, duplicatesDropped: 0 };
    const text = file(row(), row({ tilsynid: 'b' }), row(), row({ navn: 'OTHER NAME' }), row({ tilsynid: 'c' }));
    const gen = parseInspectionsCsv(streamOf(text), stats);
    const rows: InspectionRecord[] = [];
    let result = await gen.next();
    while (!result.done) {
      rows.push(result.value);
      result = await gen.next();
    }
    expect(rows.map((r) => [r.line, r.upstreamId, r.name])).toEqual([
      [2, 'Z2406251324396200239ZDBTB_TilsynAvtale', 'KAFÉ ÆRLIG'],
      [3, 'b', 'KAFÉ ÆRLIG'],
      [6, 'c', 'KAFÉ ÆRLIG'],
    ]);
    expect(result.value).toEqual({ records: 3, duplicatesDropped: 2 });
    expect(stats).toEqual({ records: 3, duplicatesDropped: 2 });
  });

  it('derives a blank total_karakter from the worst theme, ignoring 4 and 5', async () => {
    const [a, b] = await collect(
      parseInspectionsCsv(
        streamOf(
          file(
            row({ total_karakter: '', karakter1: '2', karakter2: '5', karakter3: '1', karakter4: '4' }),
            row({ tilsynid: 'x', total_karakter: '', karakter1: '5', karakter2: '', karakter3: '0', karakter4: '4' }),
          ),
        ),
      ),
    );
    expect(a.totalRating).toBe(2);
    expect(a.themes.map((t) => [t.grade, t.applicable, t.assessed])).toEqual([
      [2, true, true],
      [5, true, false],
      [1, true, true],
      [4, false, false],
    ]);
    expect(b.totalRating).toBe(0);
    expect(b.themes[1]).toMatchObject({ grade: null, applicable: true, assessed: false });
  });

  it('nulls invalid org numbers and postal codes, strips the venue suffix, maps follow-ups', async () => {
    const rows = await collect(
      parseInspectionsCsv(
        streamOf(
          file(
            row({ orgnummer: '', postnr: '162', tilsynsbesoektype: '1' }),
            row({ tilsynid: 'b', orgnummer: '923609017', tilsynsobjektid: '', tilsynsbesoektype: '' }),
            row({
              tilsynid: 'c',
              orgnummer: '92360901',
              adrlinje1: '',
              adrlinje2: '',
              sakref: '',
              status: '',
              poststed: '',
            }),
          ),
        ),
      ),
    );
    expect(rows.map((r) => [r.orgNumber, r.postnr, r.inspectionType, r.venueId])).toEqual([
      [null, null, 'follow-up', 'Z1703151057439673252OPMTI'],
      [null, '0150', null, null],
      [null, '0150', 'ordinary', 'Z1703151057439673252OPMTI'],
    ]);
    expect(rows[2]).toMatchObject({ address: null, caseRef: null, status: null, poststed: null });
  });

  it('ignores extra columns the upstream may add, wherever they are', async () => {
    const text = `extra;${HEADER};more\nX;${row({ navn: 'MED EKSTRA' })};Y\n`;
    const [r] = await collect(parseInspectionsCsv(streamOf(text)));
    expect(r).toMatchObject({ name: 'MED EKSTRA', date: '2024-02-01', line: 2 });
  });
});

describe('parseInspectionsCsv errors name the line', () => {
  const cases: [string, string, number, RegExp][] = [
    ['impossible date', file(row(), row({ tilsynid: 'b', dato: '31022024' })), 3, /dato/],
    ['short date', file(row({ dato: '1022024' })), 2, /dato/],
    ['month 13', file(row({ dato: '01132024' })), 2, /dato/],
    ['total rating 4', file(row({ total_karakter: '4' })), 2, /total_karakter/],
    ['total rating text', file(row({ total_karakter: 'x' })), 2, /total_karakter/],
    ['theme grade 7', file(row({ karakter3: '7' })), 2, /karakter3/],
    [
      'no grade to derive from',
      file(row({ total_karakter: '', karakter1: '4', karakter2: '5', karakter3: '', karakter4: '4' })),
      2,
      /no karakter/,
    ],
    ['unknown visit type', file(row({ tilsynsbesoektype: '2' })), 2, /tilsynsbesoektype/],
    ['blank tilsynid', file(row({ tilsynid: ' ' })), 2, /tilsynid/],
    ['missing column', `tilsynsobjektid;orgnummer;navn\na;b;c\n`, 1, /lacks column/],
    ['wrong field count', file(row(), `${row({ tilsynid: 'b' })};surplus`), 3, /expected 25 fields/],
    ['unclosed quote', file(row(), row({ tilsynid: 'b', navn: '"open' })), 3, /Quote Not Closed/i],
    ['empty file', '', 1, /empty/],
  ];
  it.each(cases)('%s', async (_name, text, line, message) => {
    const err = await errorOf(parseInspectionsCsv(streamOf(text)));
    expect(err).toBeInstanceOf(InspectionParseError);
    expect((err as InspectionParseError).line).toBe(line);
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`line ${line}`);
  });
});

describe('parseInspectionsCsv properties', () => {
  it('accepts exactly the real calendar dates', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1990-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }), (d) => {
        const iso = d.toISOString().slice(0, 10);
        const [y, m, day] = iso.split('-');
        expect(parseInspectionDate(`${day}${m}${y}`)).toBe(iso);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8}$/), (s) => {
        const out = parseInspectionDate(s);
        if (out !== null) expect(new Date(`${out}T00:00:00Z`).toISOString().slice(0, 10)).toBe(out);
        else {
          const [dd, mm, yyyy] = [s.slice(0, 2), s.slice(2, 4), s.slice(4)];
          const d = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
          expect(
            d.getUTCDate() === Number(dd) && d.getUTCMonth() + 1 === Number(mm) && d.getUTCFullYear() === Number(yyyy),
          ).toBe(false);
        }
      }),
    );
  });

  it('recovers any text written with CSV quoting, and the worst grade as the derived total', async () => {
    const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const text = fc.string({
      minLength: 1,
      maxLength: 15,
      unit: fc.constantFrom('a', 'Ø', ';', '"', ' ', '\n', 'é', '1'),
    });
    const grades = fc
      .array(fc.integer({ min: 0, max: 5 }), { minLength: 4, maxLength: 4 })
      .filter((g) => g.some((x) => x <= 3));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name: text.filter((s) => s.trim() !== ''), addr: text, grades }), {
          minLength: 1,
          maxLength: 6,
        }),
        async (rs) => {
          const rows = rs.map((r, i) =>
            row({
              tilsynid: `id${i}`,
              navn: quote(r.name),
              adrlinje1: quote(r.addr),
              total_karakter: '',
              karakter1: String(r.grades[0]),
              karakter2: String(r.grades[1]),
              karakter3: String(r.grades[2]),
              karakter4: String(r.grades[3]),
            }),
          );
          const parsed = await collect(parseInspectionsCsv(streamOf(file(...rows))));
          expect(parsed.map((p) => p.name)).toEqual(rs.map((r) => r.name.trim()));
          expect(parsed.map((p) => p.address)).toEqual(rs.map((r) => r.addr.trim() || null));
          expect(parsed.map((p) => p.totalRating)).toEqual(rs.map((r) => Math.max(...r.grades.filter((g) => g <= 3))));
        },
      ),
      { numRuns: 100 },
    );
  });
});
