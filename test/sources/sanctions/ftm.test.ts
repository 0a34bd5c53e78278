import { describe, expect, it } from 'vitest';
import { parseFtmDelta, parseFtmEntities } from '../../../src/sources/sanctions/ftm.ts';
import { collect, fixture, streamOf } from './helpers.ts';

describe('parseFtmEntities', () => {
  it('keeps the six target entities of the sample and drops the Address support object', async () => {
    const entities = await collect(parseFtmEntities(streamOf(fixture('opensanctions-entities.ftm.sample.json'))));
    expect(entities.map((e) => `${e.schema}:${e.id}`)).toEqual([
      'Organization:NK-2GdmHtZTeNXjNVrBGEXZNj',
      'Person:NK-2Ka3UvopqbpZmVDFjWd4LA',
      'Person:NK-2KeUB68qUJtykm3BuAcazG',
      'Person:NK-2Mht2rqBeravCTdyQAWc4o',
      'Person:NK-2Myxbs6wX9xFKGoQn3sLaY',
      'Organization:NK-2PacmNpiLUmoz4XD2mSt7A',
    ]);
  });

  it('maps a person field by field, dropping the day of the birth date', async () => {
    const entities = await collect(parseFtmEntities(streamOf(fixture('opensanctions-entities.ftm.sample.json'))));
    const kuzmenko = entities.find((e) => e.id === 'NK-2Ka3UvopqbpZmVDFjWd4LA');
    expect(kuzmenko).toEqual({
      id: 'NK-2Ka3UvopqbpZmVDFjWd4LA',
      schema: 'Person',
      name: 'Vitaly Yurievich KUZMENKO',
      aliases: ['Vitalij Kuzmenko', 'Виталий Юрьевич КУЗЬМЕНКО'],
      weakAliases: [],
      birthDates: ['1971-01'],
      countries: ['ru'],
      topics: ['sanction'],
      datasets: ['eu_fsf'],
      firstSeen: '2024-02-26T16:57:25',
      lastSeen: '2024-06-01T10:57:03',
      lastChange: '2024-03-28T18:57:01',
    });
    // nationality and country both feed countries, without duplicates
    expect(entities.find((e) => e.id === 'NK-2Myxbs6wX9xFKGoQn3sLaY')?.countries).toEqual(['by']);
    // no nationality, no country: empty
    expect(entities.find((e) => e.id === 'NK-2KeUB68qUJtykm3BuAcazG')?.countries).toEqual([]);
  });

  it('uses the caption as name and every other name as alias', async () => {
    const entities = await collect(parseFtmEntities(streamOf(fixture('opensanctions-entities.ftm.sample.json'))));
    const tobacco = entities[0];
    expect(tobacco.name).toBe('RAB „Inter Tobacco“');
    expect(tobacco.aliases).toHaveLength(11);
    expect(tobacco.aliases).toContain('“Inter Tobacco” LLC');
    expect(tobacco.aliases).not.toContain(tobacco.name);
    expect(tobacco.birthDates).toEqual([]);
  });

  it('reads partial birth dates and keeps weak aliases apart', async () => {
    const line = JSON.stringify({
      id: 'x1',
      schema: 'Person',
      caption: 'Test PERSON',
      properties: {
        name: ['Test PERSON'],
        alias: ['T. Person'],
        weakAlias: ['Testy', ':'],
        birthDate: ['1965', '1965-03', '1966-03-23'],
        citizenship: ['NO', 'zz'],
      },
      datasets: ['peps'],
      target: true,
    });
    const [e] = await collect(parseFtmEntities(streamOf(line + '\n')));
    expect(e.birthDates).toEqual(['1965', '1965-03', '1966-03']);
    expect(e.aliases).toEqual(['T. Person']);
    expect(e.weakAliases).toEqual(['Testy']);
    expect(e.countries).toEqual(['no']);
    expect(e.topics).toEqual([]);
  });

  it('skips non-targets and other schemata (Vessel), and blank lines', async () => {
    const lines = [
      { id: 'v', schema: 'Vessel', caption: 'Ship', properties: { name: ['Ship'] }, target: true },
      { id: 'p', schema: 'Person', caption: 'Someone', properties: { name: ['Someone'] }, target: false },
      {
        id: 'c',
        schema: 'Company',
        caption: 'Firm AS',
        properties: { name: ['Firm AS'], jurisdiction: ['no'] },
        target: true,
      },
    ];
    const out = await collect(parseFtmEntities(streamOf(lines.map((l) => JSON.stringify(l)).join('\n\n') + '\n')));
    expect(out.map((e) => e.id)).toEqual(['c']);
    expect(out[0].countries).toEqual(['no']);
  });

  it('names the line of malformed input', async () => {
    const good = JSON.stringify({ id: 'a', schema: 'Person', properties: { name: ['A'] }, target: true });
    await expect(collect(parseFtmEntities(streamOf(`${good}\n{"id": "b", oops}\n`)))).rejects.toThrow(
      /entities\.ftm\.json line 2: invalid JSON/,
    );
    const badProp = JSON.stringify({ id: 'b', schema: 'Person', properties: { name: 'B' }, target: true });
    await expect(collect(parseFtmEntities(streamOf(`${good}\n${good}\n${badProp}\n`)))).rejects.toThrow(
      /line 3: entity b: property "name" is not a list of strings/,
    );
    await expect(collect(parseFtmEntities(streamOf('{"schema":"Person","properties":{}}\n')))).rejects.toThrow(
      /line 1: entity has no "id"/,
    );
    await expect(collect(parseFtmEntities(streamOf('[1,2]\n')))).rejects.toThrow(/line 1: entity is not an object/);
  });
});

describe('parseFtmDelta', () => {
  it('parses the sample ADD records', async () => {
    const records = await collect(parseFtmDelta(streamOf(fixture('opensanctions-entities.delta.sample.json'))));
    expect(records.map((r) => [r.op, r.id])).toEqual([
      ['ADD', 'NK-2T3S8Hu29ktYnKSTgQp2wL'],
      ['ADD', 'NK-2sJaJRaPJcWUfMbHjTtWcL'],
    ]);
    const aqi = records[0].entity!;
    expect(aqi.name).toBe('AL-QAIDA IN IRAQ');
    expect(aqi.topics).toEqual(['sanction', 'crime.terror']);
    expect(aqi.countries).toEqual(['iq', 'sy']);
    expect(aqi.aliases).toContain('Islamic State in Iraq and the Levant');
    expect(aqi.weakAliases).not.toContain(':');
    const agha = records[1].entity!;
    expect(agha.schema).toBe('Person');
    expect(agha.birthDates).toEqual(['1953', '1958']);
    expect(agha.aliases).toContain('Mullah Janan');
    expect(agha.weakAliases).toEqual(['アブドゥッラー・ジャーン・アガ', 'Abdullah Jan Agha)']);
  });

  it('turns DEL, and ADD/MOD of entities that are no longer screened targets, into deletions', async () => {
    const lines = [
      { op: 'DEL', entity: { id: 'gone' } },
      {
        op: 'MOD',
        entity: { id: 'was-target', schema: 'Person', caption: 'X', properties: { name: ['X'] }, target: false },
      },
      { op: 'ADD', entity: { id: 'addr', schema: 'Address', caption: 'Oslo', properties: {}, target: false } },
      {
        op: 'MOD',
        entity: { id: 'still', schema: 'LegalEntity', caption: 'Y', properties: { name: ['Y'] }, target: true },
      },
    ];
    const out = await collect(parseFtmDelta(streamOf(lines.map((l) => JSON.stringify(l)).join('\n'))));
    expect(out.map((r) => [r.op, r.id, r.entity?.schema])).toEqual([
      ['DEL', 'gone', undefined],
      ['DEL', 'was-target', undefined],
      ['DEL', 'addr', undefined],
      ['MOD', 'still', 'LegalEntity'],
    ]);
  });

  it('rejects unknown ops and a DEL without id, naming the line', async () => {
    await expect(collect(parseFtmDelta(streamOf('{"op":"UPSERT","entity":{"id":"a"}}\n')))).rejects.toThrow(
      /entities\.delta\.json line 1: unknown op "UPSERT"/,
    );
    await expect(collect(parseFtmDelta(streamOf('\n{"op":"DEL","entity":{}}\n')))).rejects.toThrow(
      /line 2: DEL without entity id/,
    );
    await expect(collect(parseFtmDelta(streamOf('{"op":"ADD"}\n')))).rejects.toThrow(/line 1: entity is not an object/);
  });
});
