import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseShareholderCsv,
  ShareholderParseError,
  splitPostal,
  type ShareholderRow,
} from '../../../src/sources/aksjonaer/parse.ts';
import { collect, errorOf, streamOf } from '../stream-helpers.ts';

const SAMPLE = readFileSync(new URL('../../fixtures/aksjonaer/aksjeeierbok-sample.csv', import.meta.url));
const HEADER =
  'Orgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;Antall aksjer;Antall aksjer selskap';
const OLD_HEADER =
  'Orgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Antall aksjer;Antall aksjer selskap';

/** Appends a mod-11 check digit to 8 digits, or returns null when none exists (remainder 1). */
function withCheckDigit(eight: string): string | null {
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const rest = weights.reduce((a, w, i) => a + w * Number(eight[i]), 0) % 11;
  const check = rest === 0 ? 0 : 11 - rest;
  return check === 10 ? null : eight + check;
}
const orgNumberArb = fc
  .stringMatching(/^[89][0-9]{7}$/)
  .map(withCheckDigit)
  .filter((s): s is string => s !== null);

describe('parseShareholderCsv on the real sample', () => {
  it('parses every quirk of the real rows', async () => {
    const rows = await collect(parseShareholderCsv(streamOf(SAMPLE)));
    expect(rows).toEqual<ShareholderRow[]>([
      {
        line: 2,
        orgNumber: '979938799',
        companyName: 'NEL ASA',
        shareClass: 'Ordinære aksjer',
        holderType: 'person',
        holderName: 'OLA NORDMANN',
        holderOrgNumber: null,
        holderBirthYear: 1980,
        postalCode: '0150',
        postalPlace: 'OSLO',
        countryCode: 'NO',
        shareCount: 10,
        totalSharesInCompany: 1838457834,
      },
      {
        // blank name, blank postal field
        line: 3,
        orgNumber: '979938799',
        companyName: 'NEL ASA',
        shareClass: 'Ordinære aksjer',
        holderType: 'person',
        holderName: null,
        holderOrgNumber: null,
        holderBirthYear: 1980,
        postalCode: null,
        postalPlace: null,
        countryCode: 'NO',
        shareCount: 10,
        totalSharesInCompany: 1838457834,
      },
      {
        // " " as the number, and a `;` inside the foreign address (10 fields) folded back into Postnr/sted
        line: 4,
        orgNumber: '998367891',
        companyName: 'CARE OF SWEDEN AS',
        shareClass: 'Ordinære aksjer',
        holderType: 'foreign',
        holderName: 'PARIR AB',
        holderOrgNumber: null,
        holderBirthYear: null,
        postalCode: 'S-51',
        postalPlace: 'Tranemo; Sverige',
        countryCode: 'SE',
        shareCount: 60,
        totalSharesInCompany: 100,
      },
      {
        line: 5,
        orgNumber: '916258720',
        companyName: 'HAWK INFINITY AS',
        shareClass: 'A-aksjer',
        holderType: 'foreign',
        holderName: 'UAB "ERA CAPITAL" (SELSKAP)',
        holderOrgNumber: null,
        holderBirthYear: null,
        postalCode: '08240',
        postalPlace: 'Vilnius',
        countryCode: 'LT',
        shareCount: 115178,
        totalSharesInCompany: 93957660,
      },
      {
        // unbalanced quote is literal and does not swallow the rest of the file
        line: 6,
        orgNumber: '998858690',
        companyName: 'VIKING ASSISTANCE GROUP AS',
        shareClass: 'Ordinære aksjer',
        holderType: 'foreign',
        holderName: '"IF P INSURANCE HOLDING LTD (PUBL',
        holderOrgNumber: null,
        holderBirthYear: null,
        postalCode: '10680',
        postalPlace: 'STOCKHOLM',
        countryCode: 'SE',
        shareCount: 820378,
        totalSharesInCompany: 820528,
      },
    ]);
  });

  it('gives the same rows however the bytes are chunked (BOM and æøå split included)', async () => {
    const whole = await collect(parseShareholderCsv(streamOf(SAMPLE)));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: SAMPLE.length }), { maxLength: 12 }), async (cuts) => {
        expect(await collect(parseShareholderCsv(streamOf(SAMPLE, cuts)))).toEqual(whole);
      }),
      { numRuns: 60 },
    );
  });
});

describe('parseShareholderCsv on other layouts', () => {
  it('reads older files without Landkode, without BOM, with CRLF and blank lines', async () => {
    const text = `${OLD_HEADER}\r\n923609016;EQUINOR ASA;Ordinære aksjer;FOLKETRYGDFONDET;914778271;0115 OSLO;42;3000\r\n\r\n923609016;EQUINOR ASA;Ordinære aksjer;ACME LTD; ;SW1A 1AA, LONDON;7;\r\n`;
    const rows = await collect(parseShareholderCsv(streamOf(text)));
    expect(
      rows.map((r) => [r.line, r.holderType, r.holderOrgNumber, r.countryCode, r.shareCount, r.totalSharesInCompany]),
    ).toEqual([
      [2, 'company', '914778271', null, 42, 3000],
      [4, 'foreign', null, null, 7, null],
    ]);
    expect(rows[0]).toMatchObject({ postalCode: '0115', postalPlace: 'OSLO', holderBirthYear: null });
    expect(rows[1]).toMatchObject({ postalCode: 'SW1A 1AA', postalPlace: 'LONDON' });
  });

  it('classifies a blank number with Landkode NO as a person without birth year', async () => {
    const text = `${HEADER}\n923609016;EQUINOR ASA;Ordinære aksjer;KARI NORDMANN; ;0150 OSLO;no;1;10\n`;
    const [row] = await collect(parseShareholderCsv(streamOf(text)));
    expect(row).toMatchObject({
      holderType: 'person',
      holderBirthYear: null,
      holderOrgNumber: null,
      countryCode: 'NO',
    });
  });

  it('keeps one row per share class of the same holder', async () => {
    const text = `${HEADER}\n923609016;EQUINOR ASA;A-aksjer;FOLKETRYGDFONDET;914778271;0115 OSLO;NO;5;10\n923609016;EQUINOR ASA;B-aksjer;FOLKETRYGDFONDET;914778271;0115 OSLO;NO;6;20\n`;
    const rows = await collect(parseShareholderCsv(streamOf(text)));
    expect(rows.map((r) => [r.shareClass, r.shareCount, r.totalSharesInCompany])).toEqual([
      ['A-aksjer', 5, 10],
      ['B-aksjer', 6, 20],
    ]);
  });
});

describe('parseShareholderCsv errors name the line', () => {
  const cases: [string, string, number, RegExp][] = [
    [
      'bad investee org number',
      `${HEADER}\n923609016;A;B;C;1980;0150 OSLO;NO;1;2\n12345678;X;Y;Z;1980;;NO;1;2\n`,
      3,
      /Orgnr/,
    ],
    ['investee check digit wrong', `${HEADER}\n923609017;X;Y;Z;1980;;NO;1;2\n`, 2, /check digit/],
    [
      'non-numeric share count',
      `${HEADER}\n923609016;X;Y;Z;1980;;NO;1O;2\n`,
      2,
      /Antall aksjer must be a whole number/,
    ],
    ['non-numeric total', `${HEADER}\n923609016;X;Y;Z;1980;;NO;10;abc\n`, 2, /Antall aksjer selskap/],
    ['too few fields', `${HEADER}\n923609016;X;Y;Z;1980;;NO;10\n`, 2, /expected 9 fields/],
    ['unknown header', `Org;Selskap\n923609016;X;Y;Z;1980;;NO;10;20\n`, 1, /unknown header/],
    ['header missing', `923609016;X;Y;Z;1980;;NO;10;20\n`, 1, /unknown header/],
    ['empty file', ``, 1, /empty/],
    ['odd holder number', `${HEADER}\n923609016;X;Y;Z;19800;;NO;10;20\n`, 2, /Fødselsår\/orgnr/],
    ['country code not ISO-2', `${HEADER}\n923609016;X;Y;Z; ;;SWE;10;20\n`, 2, /Landkode/],
    ['blank company name', `${HEADER}\n923609016; ;Y;Z;1980;;NO;10;20\n`, 2, /Selskap/],
  ];
  it.each(cases)('%s', async (_name, text, line, message) => {
    const err = await errorOf(parseShareholderCsv(streamOf(text)));
    expect(err).toBeInstanceOf(ShareholderParseError);
    expect((err as ShareholderParseError).line).toBe(line);
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`line ${line}`);
  });
});

describe('parseShareholderCsv properties', () => {
  const text = (min: number) =>
    fc.string({
      minLength: min,
      maxLength: 20,
      unit: fc.constantFrom('A', 'Ø', 'å', ' ', '"', '(', '-', '.', '1', 'é'),
    });
  const holder = fc.oneof(
    fc.record({ kind: fc.constant('company' as const), id: orgNumberArb }),
    fc.record({ kind: fc.constant('person' as const), id: fc.integer({ min: 1900, max: 2024 }).map(String) }),
    fc.record({ kind: fc.constant('foreign' as const), id: fc.constantFrom(' ', '') }),
  );
  const row = fc.record({
    orgNumber: orgNumberArb,
    company: text(1).filter((s) => s.trim() !== ''),
    cls: fc.constantFrom('Ordinære aksjer', 'A-aksjer', 'NO0010096985'),
    name: text(0),
    holder,
    place: text(1).filter((s) => s.trim() !== '' && !s.includes(',') && !/\d/.test(s)),
    extra: fc.array(
      text(1).filter((s) => !s.includes(',')),
      { maxLength: 3 },
    ),
    country: fc.constantFrom('SE', 'LT', 'DK', 'GB'),
    count: fc.nat({ max: 2 ** 40 }),
    total: fc.option(fc.nat({ max: 2 ** 40 }), { nil: null }),
  });

  it('recovers every field written, including `;` folded from foreign addresses', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), async (rows) => {
        const lines = rows.map((r) => {
          const country = r.holder.kind === 'foreign' ? r.country : 'NO';
          // Foreign addresses may carry `;`; the place part joins the surplus fields back.
          const place = [r.place, ...r.extra].join(';');
          const postal = r.holder.kind === 'foreign' ? `12-345, ${place}` : `0150 ${place}`;
          return [r.orgNumber, r.company, r.cls, r.name, r.holder.id, postal, country, r.count, r.total ?? ''].join(
            ';',
          );
        });
        const parsed = await collect(parseShareholderCsv(streamOf(`\uFEFF${HEADER}\n${lines.join('\n')}`)));
        expect(parsed).toHaveLength(rows.length);
        parsed.forEach((p, i) => {
          const r = rows[i];
          expect(p.line).toBe(i + 2);
          expect(p.orgNumber).toBe(r.orgNumber);
          expect(p.companyName).toBe(r.company.trim());
          expect(p.holderType).toBe(r.holder.kind);
          expect(p.holderName).toBe(r.name.trim() || null);
          expect(p.holderOrgNumber).toBe(r.holder.kind === 'company' ? r.holder.id : null);
          expect(p.holderBirthYear).toBe(r.holder.kind === 'person' ? Number(r.holder.id) : null);
          expect(p.postalCode).toBe(r.holder.kind === 'foreign' ? '12-345' : '0150');
          expect(p.postalPlace).toBe([r.place, ...r.extra].join(';').trim());
          expect(p.shareCount).toBe(r.count);
          expect(p.totalSharesInCompany).toBe(r.total);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('splitPostal never loses text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        const { postalCode, postalPlace } = splitPostal(s);
        const joined = [postalCode, postalPlace].filter((x) => x !== null).join(' ');
        // Every non-separator character of the input survives in code or place.
        const strip = (x: string) => x.replace(/[\s,]/g, '');
        expect(strip(joined)).toBe(strip(s));
      }),
    );
  });
});

describe('parseShareholderCsv streams in bounded memory', () => {
  it('parses 200 000 generated rows while the source stays only a few chunks ahead', async () => {
    const total = 200_000;
    let produced = 0;
    async function* source() {
      yield Buffer.from(`\uFEFF${HEADER}\n`);
      for (let chunk = 0; chunk < total / 1000; chunk++) {
        let s = '';
        for (let i = 0; i < 1000; i++) {
          s += `923609016;EQUINOR ASA;Ordinære aksjer;ØYSTEIN ÅSEN;${1930 + (i % 80)};0150 OSLO;NO;${i + 1};3000000\n`;
        }
        produced += 1000;
        yield Buffer.from(s);
      }
    }
    let consumed = 0;
    let maxAhead = 0;
    let shares = 0;
    for await (const row of parseShareholderCsv(Readable.from(source(), { objectMode: false }))) {
      consumed++;
      shares += row.shareCount;
      maxAhead = Math.max(maxAhead, produced - consumed);
    }
    expect(consumed).toBe(total);
    expect(shares).toBe((total / 1000) * ((1000 * 1001) / 2));
    // Rows are not buffered: the source is never more than a handful of 1000-row chunks ahead.
    expect(maxAhead).toBeLessThan(20_000);
  });
});
