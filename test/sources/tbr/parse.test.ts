import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LicenseParseError, parseLicenses, type LicenseRecord } from '../../../src/sources/tbr/parse.ts';
import { LICENSE_FIELDS } from '../../../src/sources/tbr/license-types.ts';
import { parseLicenseDate } from '../../../src/sources/tbr/validate.ts';
import { collect, errorOf, streamOf } from '../stream-helpers.ts';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/tbr/${name}`, import.meta.url));
const CSV = fixture('licenses-sample.csv');
const NDJSON = fixture('licenses-sample.ndjson');
const JSON_ARRAY = fixture('licenses-sample.json');
const HEADER = LICENSE_FIELDS.join(';');

const EXPECTED: Omit<LicenseRecord, 'line'>[] = [
  {
    licenseNumber: '204518',
    registerType: 'Alkoholsbevilling',
    orgNumber: '923609016',
    holderName: 'Kafé Ærlig AS',
    venueName: 'Bar "Ærlig"; Grünerløkka',
    venueOrgNumber: '914778271',
    licenseTypeCode: '01SKJE',
    licenseTypeDescription: 'Skjenkebevilling',
    productGroups: ['GRP1', 'GRP2', 'GRP3'],
    address: 'Thorvald Meyers gate 2',
    postnr: '0555',
    poststed: 'OSLO',
    municipality: 'Oslo',
    municipalityNo: '0301',
    issuingAuthority: 'Oslo kommune',
    validFrom: '2024-10-01T00:00:00.000Z',
    validTo: '2028-09-30T00:00:00.000Z',
  },
  {
    licenseNumber: '77120',
    registerType: 'Tobakksbevilling',
    orgNumber: '914778271',
    holderName: 'Fjord Tobakk AS',
    venueName: 'Fjord Tobakk AS',
    venueOrgNumber: null,
    licenseTypeCode: '19TBEK',
    licenseTypeDescription: 'Tobakk eksport',
    productGroups: ['TROY', 'TINN'],
    address: 'Sjøgata 4',
    postnr: '8006',
    poststed: 'BODØ',
    municipality: 'Bodø',
    municipalityNo: '1804',
    issuingAuthority: 'Helsedirektoratet',
    validFrom: '2023-01-15T07:00:00.000Z',
    validTo: null,
  },
  {
    licenseNumber: '55001',
    registerType: 'Alkoholsbevilling',
    orgNumber: '979938799',
    holderName: 'Nordisk Vin AS',
    venueName: null,
    venueOrgNumber: null,
    licenseTypeCode: '11ENGR',
    licenseTypeDescription: 'Engrosbevilling for alkohol',
    productGroups: ['GRP1', 'GRP2', 'GRP3'],
    address: null,
    postnr: null,
    poststed: null,
    municipality: null,
    municipalityNo: null,
    issuingAuthority: 'Helsedirektoratet',
    validFrom: '2020-03-01T00:00:00.000Z',
    validTo: '2030-03-01T00:00:00.000Z',
  },
];
const withLines = (lines: number[]) => EXPECTED.map((r, i) => ({ line: lines[i], ...r }));

describe('parseLicenses on the documented examples', () => {
  it.each([
    ['CSV', CSV, 'csv', [2, 3, 4]],
    ['NDJSON (blank line skipped)', NDJSON, 'json', [1, 2, 4]],
    ['JSON array (index + 1)', JSON_ARRAY, 'json', [1, 2, 3]],
  ] as const)('reads %s, explicitly and with auto-detection', async (_name, bytes, format, lines) => {
    expect(await collect(parseLicenses(streamOf(bytes), format))).toEqual(withLines([...lines]));
    expect(await collect(parseLicenses(streamOf(bytes), 'auto'))).toEqual(withLines([...lines]));
  });

  it('gives the same records however the bytes are chunked (BOM split included)', async () => {
    for (const bytes of [CSV, NDJSON, JSON_ARRAY]) {
      const whole = await collect(parseLicenses(streamOf(bytes), 'auto'));
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 8 }), async (cuts) => {
          expect(await collect(parseLicenses(streamOf(bytes, cuts), 'auto'))).toEqual(whole);
        }),
        { numRuns: 25 },
      );
    }
  });

  it('accepts a JSON array with a BOM and leading whitespace, an empty array, and CSV with optional columns left out', async () => {
    expect(await collect(parseLicenses(streamOf(`\uFEFF \n [ ]`), 'auto'))).toEqual([]);
    const [r] = await collect(
      parseLicenses(streamOf(`licenseNumber;licenseTypeCode;registerType\nA-1;99XXXX;Tobakksbevilling\n`), 'auto'),
    );
    expect(r).toMatchObject({
      line: 2,
      licenseNumber: 'A-1',
      licenseTypeCode: '99XXXX',
      licenseTypeDescription: null,
      productGroups: [],
      validFrom: null,
    });
  });
});

describe('parseLicenses validation names the line and field', () => {
  const row = (over: Record<string, string>) => {
    const base: Record<string, string> = {
      licenseNumber: '1',
      registerType: 'Alkoholsbevilling',
      licenseTypeCode: '01SKJE',
      orgNumber: '923609016',
      municipalityNo: '0301',
      validFrom: '2024-01-01',
      validTo: '2025-01-01',
      productGroups: 'GRP1',
    };
    const merged = { ...base, ...over };
    return LICENSE_FIELDS.map((f) => merged[f] ?? '').join(';');
  };
  const csv = (...rows: string[]) => `${HEADER}\n${rows.join('\n')}\n`;
  const cases: [string, string, number, string | null, RegExp][] = [
    [
      'unknown registerType',
      csv(row({}), row({ registerType: 'Snusbevilling' })),
      3,
      'registerType',
      /must be Alkoholsbevilling or Tobakksbevilling/,
    ],
    ['bad org number', csv(row({ orgNumber: '923609017' })), 2, 'orgNumber', /check digit/],
    ['bad venue org number', csv(row({ venueOrgNumber: '12345' })), 2, 'venueOrgNumber', /9-digit/],
    ['bad municipality number', csv(row({ municipalityNo: '301' })), 2, 'municipalityNo', /4-digit/],
    ['bad postnr', csv(row({ postnr: 'N-0150' })), 2, 'postnr', /4-digit/],
    ['impossible date', csv(row({ validFrom: '2024-02-30' })), 2, 'validFrom', /YYYY-MM-DD/],
    ['Norwegian date style', csv(row({ validTo: '01.01.2025' })), 2, 'validTo', /YYYY-MM-DD/],
    ['timestamp without zone', csv(row({ validTo: '2025-01-01T10:00:00' })), 2, 'validTo', /with zone/],
    ['validFrom after validTo', csv(row({ validFrom: '2026-01-01' })), 2, 'validTo', /before validFrom/],
    [
      'unknown product group',
      csv(row({ productGroups: 'GRP1|WINE' })),
      2,
      'productGroups',
      /unknown product group "WINE"/,
    ],
    ['missing licence number', csv(row({ licenseNumber: ' ' })), 2, 'licenseNumber', /required/],
    ['licence number with spaces', csv(row({ licenseNumber: '12 34' })), 2, 'licenseNumber', /letters, digits/],
    ['unknown column', `${HEADER};colour\n${row({})};red\n`, 1, 'colour', /unknown column/],
    [
      'duplicate column',
      `licenseNumber;registerType;licenseTypeCode;licenseTypeDesc;licenseTypeDescription\n`,
      1,
      'licenseTypeDescription',
      /twice/,
    ],
    [
      'missing required column',
      `licenseNumber;registerType\n1;Alkoholsbevilling\n`,
      1,
      'licenseTypeCode',
      /required column/,
    ],
    ['wrong field count', csv(row({}), `${row({})};x`), 3, null, /expected 17 fields/],
    ['unclosed quote', csv(row({ holderName: '"Open' })), 2, null, /Quote Not Closed/i],
    ['empty input', '', 1, null, /empty/],
    ['header only whitespace', ' \n\n', 1, null, /empty/],
  ];
  it.each(cases)('CSV: %s', async (_name, text, line, field, message) => {
    const err = await errorOf(parseLicenses(streamOf(text), 'auto'));
    expect(err).toBeInstanceOf(LicenseParseError);
    expect(err).toMatchObject({ line, field });
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`line ${line}`);
  });

  const ok = { licenseNumber: '1', registerType: 'Tobakksbevilling', licenseTypeCode: '18TBIM' };
  const jsonCases: [string, string, number, string | null, RegExp][] = [
    ['unknown key', JSON.stringify([ok, { ...ok, colour: 'red' }]), 2, 'colour', /unknown key/],
    ['non-object element', JSON.stringify([ok, 'x']), 2, null, /expected a JSON object/],
    ['number as org number', JSON.stringify([{ ...ok, orgNumber: 923609016 }]), 1, 'orgNumber', /must be a string/],
    [
      'product groups as object',
      JSON.stringify([{ ...ok, productGroups: { a: 1 } }]),
      1,
      'productGroups',
      /list of codes/,
    ],
    ['negative licence number', JSON.stringify([{ ...ok, licenseNumber: -5 }]), 1, 'licenseNumber', /must be a string/],
    [
      'alias and name both given',
      JSON.stringify([{ ...ok, licenseTypeDesc: 'a', licenseTypeDescription: 'b' }]),
      1,
      'licenseTypeDescription',
      /twice/,
    ],
    // One chunk: the error comes before element 1 is consumed, so "at or after element 1".
    [
      'syntax error in array',
      `[${JSON.stringify(ok)},\n{"licenseNumber": }]`,
      1,
      null,
      /invalid JSON array at or after element 1/,
    ],
    ['trailing text after the array', `[${JSON.stringify(ok)}] trailing`, 1, null, /invalid JSON/],
    ['NDJSON broken line', `${JSON.stringify(ok)}\n\n{"licenseNumber":"2",\n`, 3, null, /invalid JSON/],
    [
      'NDJSON unknown register',
      `${JSON.stringify({ ...ok, registerType: 'Alkohol' })}\n`,
      1,
      'registerType',
      /must be/,
    ],
  ];
  it.each(jsonCases)('JSON: %s', async (_name, text, line, field, message) => {
    const err = await errorOf(parseLicenses(streamOf(text), 'json'));
    expect(err).toBeInstanceOf(LicenseParseError);
    expect(err).toMatchObject({ line, field });
    expect(err.message).toMatch(message);
  });

  it('refuses CSV content when JSON was asked for, and JSON content forced through CSV', async () => {
    expect((await errorOf(parseLicenses(streamOf(CSV), 'json'))).message).toMatch(/must start with "\[" .* or "\{"/);
    expect(await errorOf(parseLicenses(streamOf(NDJSON), 'csv'))).toMatchObject({ line: 1 });
  });
});

describe('parseLicenses properties', () => {
  it('parses ISO dates and timestamps to the same instant Date does', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }),
        fc.integer({ min: -12, max: 14 }),
        (d, offsetHours) => {
          expect(parseLicenseDate(d.toISOString())).toBe(d.toISOString());
          expect(parseLicenseDate(d.toISOString().slice(0, 10))).toBe(`${d.toISOString().slice(0, 10)}T00:00:00.000Z`);
          // Same instant written with an offset.
          const local = new Date(d.getTime() + offsetHours * 3_600_000).toISOString().slice(0, 19);
          const sign = offsetHours < 0 ? '-' : '+';
          const zone = `${sign}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`;
          expect(parseLicenseDate(`${local}${zone}`)).toBe(
            new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString(),
          );
        },
      ),
    );
  });

  it('reads the same records from CSV, NDJSON and a JSON array written from them', async () => {
    const text = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'Æ', 'ø', ';', '"', '|', ' ', ',', 'é', '\n') });
    const rec = fc.record({
      licenseNumber: fc.stringMatching(/^[0-9]{1,8}$/),
      registerType: fc.constantFrom('Alkoholsbevilling', 'Tobakksbevilling'),
      licenseTypeCode: fc.constantFrom('01SKJE', '11ENGR', '18TBIM', '19TBEK', '42ABCD'),
      holderName: text,
      venueName: text,
      productGroups: fc.subarray(['GRP1', 'GRP2', 'GRP3', 'TROY', 'TINN']),
      validFrom: fc.constantFrom('2020-01-01', '2021-06-30T12:00:00Z', ''),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(rec, { minLength: 1, maxLength: 6 }), async (recs) => {
        const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
        const csvText = `${Object.keys(recs[0]).join(';')}\n${recs
          .map((r) =>
            Object.values(r)
              .map((v) => quote(Array.isArray(v) ? v.join('|') : v))
              .join(';'),
          )
          .join('\n')}\n`;
        const ndjson = recs.map((r) => JSON.stringify(r)).join('\n');
        const array = JSON.stringify(recs);
        const strip = (rs: LicenseRecord[]) => rs.map(({ line: _line, ...rest }) => rest);
        const fromCsv = strip(await collect(parseLicenses(streamOf(csvText), 'auto')));
        expect(strip(await collect(parseLicenses(streamOf(ndjson), 'auto')))).toEqual(fromCsv);
        expect(strip(await collect(parseLicenses(streamOf(array), 'auto')))).toEqual(fromCsv);
        expect(fromCsv.map((r) => r.holderName)).toEqual(recs.map((r) => r.holderName.trim() || null));
        expect(fromCsv.map((r) => r.productGroups)).toEqual(recs.map((r) => r.productGroups));
      }),
      { numRuns: 80 },
    );
  });
});

describe('parseLicenses streams', () => {
  it.each([
    ['CSV', CSV],
    ['NDJSON', NDJSON],
    ['JSON array', JSON_ARRAY],
  ])('releases the source when the consumer stops early (%s)', async (_name, bytes) => {
    const input = streamOf(bytes, [40, 80, 200]);
    for await (const r of parseLicenses(input, 'auto')) {
      expect(r.licenseNumber).toBe('204518');
      break;
    }
    expect(input.destroyed).toBe(true);
  });

  it.each(['json', 'ndjson', 'csv'] as const)(
    'reads 50 000 %s records while the source stays a few chunks ahead',
    async (kind) => {
      const total = 50_000;
      let produced = 0;
      const item = (i: number) => ({
        licenseNumber: String(i),
        registerType: 'Alkoholsbevilling',
        licenseTypeCode: '01SKJE',
        productGroups: ['GRP1'],
      });
      async function* source() {
        if (kind === 'json') yield Buffer.from('[');
        if (kind === 'csv') yield Buffer.from('licenseNumber;registerType;licenseTypeCode;productGroups\n');
        for (let chunk = 0; chunk < total / 500; chunk++) {
          const parts: string[] = [];
          for (let i = 0; i < 500; i++) {
            const n = chunk * 500 + i;
            if (kind === 'csv') parts.push(`${n};Alkoholsbevilling;01SKJE;GRP1\n`);
            else if (kind === 'ndjson') parts.push(`${JSON.stringify(item(n))}\n`);
            else parts.push(`${n === 0 ? '' : ','}${JSON.stringify(item(n))}`);
          }
          produced += 500;
          yield Buffer.from(parts.join(''));
        }
        if (kind === 'json') yield Buffer.from(']');
      }
      let consumed = 0;
      let maxAhead = 0;
      for await (const r of parseLicenses(Readable.from(source(), { objectMode: false }), 'auto')) {
        expect(r.licenseNumber).toBe(String(consumed));
        consumed++;
        maxAhead = Math.max(maxAhead, produced - consumed);
      }
      expect(consumed).toBe(total);
      expect(maxAhead).toBeLessThan(10_000);
    },
  );
});
