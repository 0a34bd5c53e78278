import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  newBolagsverketStats,
  parseBolagsverketText,
  type BolagsverketStats,
} from '../../../src/sources/bolagsverket/index.ts';
import type { NordicCompanyRecord } from '../../../src/sources/nordic-record.ts';

const HEADER =
  'organisationsidentitet;namnskyddslopnummer;registreringsland;organisationsnamn;organisationsform;avregistreringsdatum;avregistreringsorsak;pagandeAvvecklingsEllerOmstruktureringsforfarande;registreringsdatum;verksamhetsbeskrivning;postadress';
const fixture = (name: string) => createReadStream(new URL(`../../fixtures/bolagsverket/${name}`, import.meta.url));
const streamOf = (s: string | Buffer) => Readable.from([typeof s === 'string' ? Buffer.from(s, 'utf8') : s]);

async function collect(
  input: Readable,
  stats: BolagsverketStats = newBolagsverketStats(),
): Promise<NordicCompanyRecord[]> {
  const out: NordicCompanyRecord[] = [];
  for await (const r of parseBolagsverketText(input, { stats })) out.push(r);
  return out;
}

const base = {
  country: 'SE',
  naceCode1: null,
  naceDescription1: null,
  businessAddress: null,
  website: null,
  deregistrationDate: null,
  isDeregistered: false,
  isBankrupt: false,
  isBeingDissolved: false,
  status: 'registered',
  lastModified: null,
} as const;

const EXEMPEL: NordicCompanyRecord = {
  ...base,
  orgNumber: '5560000001',
  name: 'Exempel AB',
  orgFormCode: 'AB',
  orgFormDescription: 'Aktiebolag',
  postalAddress: {
    street: 'Exempelgatan 1',
    postalCode: '11122',
    city: 'STOCKHOLM',
    municipalityCode: null,
    countryCode: 'SE',
  },
  registrationDate: '2001-05-10',
  description: 'Bolaget har till föremål …',
};

describe('parseBolagsverketText', () => {
  it('maps the FORMATS.md sample line field by field', async () => {
    expect(await collect(fixture('bolagsverket-bulkfil-sample.txt'))).toEqual([EXEMPEL]);
  });

  it('maps every line of the quirks fixture and counts what it skipped', async () => {
    const stats = newBolagsverketStats();
    const records = await collect(fixture('bulkfil-quirks.txt'), stats);
    const expected: NordicCompanyRecord[] = [
      {
        ...base, // line 2: foreign-language name first, escaped quotes, c/o, postcode with a space
        orgNumber: '5566778899',
        name: 'Nordlys Logistik AB',
        orgFormCode: 'AB',
        orgFormDescription: 'Aktiebolag',
        postalAddress: {
          street: 'c/o Ekonomibyrån, Storgatan 1',
          postalCode: '41101',
          city: 'GÖTEBORG',
          municipalityCode: null,
          countryCode: 'SE',
        },
        registrationDate: '2001-02-03',
        description: 'Transport och "logistik".',
      },
      // line 3 (sole trader, personnummer) is skipped
      {
        ...base, // line 4: deregistered after bankruptcy
        orgNumber: '9697123454',
        name: 'Fjällbolaget HB',
        orgFormCode: 'HB',
        orgFormDescription: 'Handelsbolag',
        postalAddress: {
          street: 'Fjällvägen 2',
          postalCode: '83013',
          city: 'ÅRE',
          municipalityCode: null,
          countryCode: 'SE',
        },
        registrationDate: '1995-06-01',
        deregistrationDate: '2019-11-30',
        isDeregistered: true,
        isBankrupt: true,
        status: 'deregistered',
        description: null,
      },
      {
        ...base, // line 5: liquidation pending
        orgNumber: '5561234500',
        name: 'Avveckla AB',
        orgFormCode: 'AB',
        orgFormDescription: 'Aktiebolag',
        postalAddress: {
          street: 'Kungsgatan 5',
          postalCode: '11143',
          city: 'STOCKHOLM',
          municipalityCode: null,
          countryCode: 'SE',
        },
        registrationDate: '2010-01-01',
        isBeingDissolved: true,
        status: 'liquidation',
        description: 'Konsultverksamhet.',
      },
      {
        ...base, // line 6: stray quote and ';' inside a quoted value; NAMN-type name
        orgNumber: '7164555554',
        name: 'Skärmföreningen',
        orgFormCode: 'I',
        orgFormDescription: 'Ideell förening som bedriver näringsverksamhet',
        postalAddress: {
          street: 'Box 12',
          postalCode: '21120',
          city: 'MALMÖ',
          municipalityCode: null,
          countryCode: 'SE',
        },
        registrationDate: '2015-09-09',
        description: 'Skärmar om 24" och mer; även kablar.',
      },
      {
        ...base, // line 7: only the mandatory parts
        orgNumber: '5569999906',
        name: 'Tomma AB',
        orgFormCode: 'AB',
        orgFormDescription: 'Aktiebolag',
        postalAddress: null,
        registrationDate: null,
        description: null,
      },
      {
        ...base, // lines 8–9: the row without namnskyddslöpnummer wins
        orgNumber: '5560001009',
        name: 'Dubbel AB',
        orgFormCode: 'AB',
        orgFormDescription: 'Aktiebolag',
        postalAddress: null,
        registrationDate: '2003-03-03',
        description: null,
      },
      // line 10 (too few fields) and 11 (Luhn) are rejected; 12 (personnummer labelled ORGNR) skipped
      {
        ...base, // lines 13–14: a line break inside the quoted description; reconstruction pending
        orgNumber: '7696123459',
        name: 'Radbrytning Ekonomisk förening',
        orgFormCode: 'EK',
        orgFormDescription: 'Ekonomisk förening',
        postalAddress: {
          street: 'Byvägen 3',
          postalCode: '90325',
          city: 'UMEÅ',
          municipalityCode: null,
          countryCode: 'SE',
        },
        registrationDate: '2012-12-12',
        status: 'restructuring',
        description: 'Första raden\nandra raden.',
      },
      EXEMPEL, // line 15: unquoted
    ];
    expect(records).toEqual(expected);
    expect(stats).toMatchObject({
      lines: 13,
      emitted: 8,
      skippedPersons: 2,
      duplicates: 1,
      superseded: 0,
      skippedOtherIdentity: {},
    });
    expect(stats.rejects.rejected).toBe(2);
    expect(stats.rejects.samples).toEqual([
      'line 10: expected 11 fields, got 4',
      'line 11: organisation number 5566778890 fails the Luhn check',
    ]);
  });

  it('never lets a person number out, not even in a reject reason', async () => {
    const stats = newBolagsverketStats();
    const rows = [
      '"191212121212$PERSON-IDORG";"";"SE-LAND";"X$FORETAGSNAMN-ORGNAM$";"E-ORGFO";"";"";"";"";"";""',
      '"121212-1212$ORGNR-IDORG";"";"SE-LAND";"X$FORETAGSNAMN-ORGNAM$";"E-ORGFO";"";"";"";"";"";""',
      '"191212121212$ORGNR-IDORG";"";"SE-LAND";"X$FORETAGSNAMN-ORGNAM$";"E-ORGFO";"";"";"";"";"";""',
      '"1912121212121$ORGNR-IDORG";"";"SE-LAND";"X$FORETAGSNAMN-ORGNAM$";"E-ORGFO";"";"";"";"";"";""',
      '"121212121$SAMORDNR-IDORG";"";"SE-LAND";"X$FORETAGSNAMN-ORGNAM$";"E-ORGFO";"";"";"";"";"";""',
    ];
    const records = await collect(streamOf(`${HEADER}\n${rows.join('\n')}\n`), stats);
    expect(records).toEqual([]);
    expect(stats.skippedPersons).toBe(4);
    expect(stats.rejects.samples).toEqual(['line 5: organisationsidentitet is not 10 digits']);
    expect(JSON.stringify(stats)).not.toMatch(/1212/);
  });

  it('handles a 23 000-character name and counts unknown identity types', async () => {
    const long = `Långt ${'namn '.repeat(4600)}AB`.trim();
    const stats = newBolagsverketStats();
    const text = [
      HEADER,
      `"5566778899$ORGNR-IDORG";"";"SE-LAND";"${long}$FORETAGSNAMN-ORGNAM$2001-01-01";"AB-ORGFO";"";"";"";"2001-01-01";"";""`,
      `"5566778899$UTLANDSK-IDORG";"";"SE-LAND";"Foreign$FORETAGSNAMN-ORGNAM$2001-01-01";"FL-ORGFO";"";"";"";"2001-01-01";"";""`,
    ].join('\r\n');
    const records = await collect(streamOf(text), stats);
    expect(records).toHaveLength(1);
    expect(records[0].name).toBe(long);
    expect(records[0].name.length).toBeGreaterThan(23_000);
    expect(stats.skippedOtherIdentity).toEqual({ UTLANDSK: 1 });
  });

  it('keeps one record per org number also when duplicates are not adjacent', async () => {
    const row = (org: string, seq: string, name: string) =>
      `"${org}$ORGNR-IDORG";"${seq}";"SE-LAND";"${name}$FORETAGSNAMN-ORGNAM$2001-01-01";"AB-ORGFO";"";"";"";"2001-01-01";"";""`;
    const stats = newBolagsverketStats();
    const records = await collect(
      streamOf(
        [
          HEADER,
          row('5566778899', '1', 'Numbered first'),
          row('5561234500', '', 'Other'),
          row('5566778899', '', 'Plain later'), // supersedes the numbered one
          row('5561234500', '3', 'Numbered after plain'), // dropped
          row('5566778899', '', 'Second plain'), // dropped: first plain row wins
        ].join('\n'),
      ),
      stats,
    );
    expect(records.map((r) => r.name)).toEqual(['Numbered first', 'Other', 'Plain later']);
    expect(stats).toMatchObject({ emitted: 3, superseded: 1, duplicates: 2 });
  });

  it('reads a Latin-1 file when told to', async () => {
    const text = `${HEADER}\n5560000001$ORGNR-IDORG;;SE-LAND;Åkeri Öst AB$FORETAGSNAMN-ORGNAM$2001-05-10;AB-ORGFO;;;;2001-05-10;;Storgatan 1$$GÄVLE$80320$SE-LAND\n`;
    const out: NordicCompanyRecord[] = [];
    for await (const r of parseBolagsverketText(streamOf(Buffer.from(text, 'latin1')), { encoding: 'latin1' }))
      out.push(r);
    expect(out.map((r) => [r.name, r.postalAddress?.city])).toEqual([['Åkeri Öst AB', 'GÄVLE']]);
  });

  it('aborts on a wrong header, naming line 1', async () => {
    await expect(collect(streamOf('orgnr;namn\n5560000001;X\n'))).rejects.toThrow(
      /^Bolagsverket bulkfil line 1: unexpected header "orgnr;namn"/,
    );
    await expect(collect(streamOf(''))).rejects.toThrow('Bolagsverket bulkfil: empty file (no header line)');
  });

  it('aborts when too many lines are malformed', async () => {
    const bad = Array.from({ length: 6 }, () => 'garbage').join('\n');
    const stats = newBolagsverketStats(5);
    await expect(collect(streamOf(`\uFEFF${HEADER}\n${bad}\n`), stats)).rejects.toThrow(
      /Bolagsverket bulkfil: more than 5 rejected records, giving up; first: line 2: expected 11 fields, got 1/,
    );
  });
});
