import { describe, expect, it } from 'vitest';
import { parseTargetsSimpleCsv } from '../../../src/sources/sanctions/targets-csv.ts';
import { collect, fixture, streamOf } from './helpers.ts';

describe('parseTargetsSimpleCsv', () => {
  it('accepts the real header with no rows', async () => {
    expect(await collect(parseTargetsSimpleCsv(streamOf(fixture('opensanctions-targets.simple.header.csv'))))).toEqual(
      [],
    );
  });

  it('maps rows field by field, splitting multi-values on ";" and skipping vessels', async () => {
    const rows = await collect(parseTargetsSimpleCsv(streamOf(fixture('targets.simple.illustrative.csv'))));
    expect(rows.map((r) => r.id)).toEqual([
      'NK-2Ka3UvopqbpZmVDFjWd4LA',
      'NK-2PacmNpiLUmoz4XD2mSt7A',
      'NK-fixture-pep',
      'NK-fixture-bank',
      'NK-fixture-agha',
    ]);
    expect(rows[0]).toEqual({
      id: 'NK-2Ka3UvopqbpZmVDFjWd4LA',
      schema: 'Person',
      name: 'Vitaly Yurievich KUZMENKO',
      aliases: ['Vitalij Kuzmenko', 'Виталий Юрьевич КУЗЬМЕНКО'],
      weakAliases: [],
      birthDates: ['1971-01'],
      countries: ['ru'],
      topics: ['sanction'],
      datasets: ['EU Financial Sanctions Files (FSF)'],
      firstSeen: '2024-02-26T16:57:25',
      lastSeen: '2024-06-01T10:57:03',
      lastChange: '2024-03-28T18:57:01',
    });
    const bank = rows[3];
    expect(bank.name).toBe('Bank "Rossiya", JSC');
    expect(bank.aliases).toEqual(['Rossiya Bank JSC', 'АО «АБ «РОССИЯ»']);
    expect(bank.countries).toEqual(['ru', 'cy']);
    expect(bank.datasets).toEqual([
      'US OFAC Specially Designated Nationals (SDN) List',
      'EU Financial Sanctions Files (FSF)',
    ]);
    expect(rows[4].birthDates).toEqual(['1953', '1958']);
  });

  it('derives topics from the sanctions column and PEP dataset titles, or takes them from the caller', async () => {
    const rows = await collect(parseTargetsSimpleCsv(streamOf(fixture('targets.simple.illustrative.csv'))));
    expect(rows.find((r) => r.id === 'NK-fixture-pep')?.topics).toEqual(['role.pep']);
    expect(rows.find((r) => r.id === 'NK-2PacmNpiLUmoz4XD2mSt7A')?.topics).toEqual(['sanction']);
    const given = await collect(
      parseTargetsSimpleCsv(streamOf(fixture('targets.simple.illustrative.csv')), { topics: ['role.rca'] }),
    );
    expect(given.find((r) => r.id === 'NK-fixture-pep')?.topics).toEqual(['role.rca']);
    expect(given.find((r) => r.id === 'NK-2PacmNpiLUmoz4XD2mSt7A')?.topics).toEqual(['role.rca', 'sanction']);
  });

  it('reads the older layout without program_ids', async () => {
    const [row] = await collect(parseTargetsSimpleCsv(streamOf(fixture('targets.simple.old-header.csv'))));
    expect(row.name).toBe('Svjatlana Paulauna PACHODAVA');
    expect(row.birthDates).toEqual(['1975-05']);
    expect(row.datasets).toEqual(['EU Financial Sanctions Files (FSF)']);
    expect(row.lastChange).toBe('2024-03-28T18:57:01');
  });

  it('names the line of malformed input', async () => {
    const header =
      'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n';
    const good = 'a,Person,A B,,,,,,,,,,d,,,\n';
    await expect(collect(parseTargetsSimpleCsv(streamOf(header + good + 'b,Person,C D\n')))).rejects.toThrow(
      /targets\.simple\.csv line 3: expected 16 fields, found 3/,
    );
    await expect(collect(parseTargetsSimpleCsv(streamOf('identifier,kind,label\nx,y,z\n')))).rejects.toThrow(
      /line 1: header lacks column\(s\) id, schema, name/,
    );
    await expect(collect(parseTargetsSimpleCsv(streamOf(header + ',Person,X,,,,,,,,,,d,,,\n')))).rejects.toThrow(
      /line 2: empty id/,
    );
    await expect(
      collect(parseTargetsSimpleCsv(streamOf(header + good + 'c,Person,"unclosed,,,,,,,,,,,d,,,\n'))),
    ).rejects.toThrow(/line 3/);
    await expect(collect(parseTargetsSimpleCsv(streamOf('')))).rejects.toThrow(/empty file/);
  });
});
