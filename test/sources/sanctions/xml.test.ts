import { describe, expect, it } from 'vitest';
import { parseEuFsfXml } from '../../../src/sources/sanctions/eu-fsf.ts';
import { parseUnConsolidatedXml } from '../../../src/sources/sanctions/un-consolidated.ts';
import { collect, fixture, streamOf } from './helpers.ts';

const EU_HEAD =
  '<?xml version="1.0"?>\n<export xmlns="http://eu.europa.ec/fpi/fsd/export" generationDate="2024-01-01">\n';

describe('parseEuFsfXml', () => {
  it('parses the excerpt field by field', async () => {
    const [mugabe, saddam] = await collect(parseEuFsfXml(streamOf(fixture('eu-fsf-export-excerpt.xml'))));
    expect(mugabe).toEqual({
      id: 'eu-fsf-1',
      schema: 'Person',
      name: 'Robert Gabriel Mugabe',
      aliases: [],
      weakAliases: [],
      birthDates: [],
      countries: [],
      topics: ['sanction'],
      datasets: ['eu_fsf'],
      lastChange: '2018-02-16',
    });
    expect(saddam).toMatchObject({
      id: 'eu-fsf-13',
      name: 'Saddam Hussein Al-Tikriti',
      aliases: ['Abu Ali'],
      weakAliases: ['Abou Ali'],
      birthDates: ['1937-04'],
      countries: ['iq'],
    });
  });

  it('handles enterprises, composed names, year-only birth dates and address countries', async () => {
    const xml = `${EU_HEAD}
  <sanctionEntity logicalId="77" euReferenceNumber="EU.1.1">
    <subjectType code="enterprise" classificationCode="E"/>
    <nameAlias wholeName="" firstName="" lastName="" strong="true"/>
    <nameAlias wholeName="Sample Trading LLC" strong="true"/>
    <address countryIso2Code="AE" countryDescription="UNITED ARAB EMIRATES"/>
    <address countryIso2Code="00" countryDescription="UNKNOWN"/>
  </sanctionEntity>
  <sanctionEntity logicalId="78">
    <subjectType code="person" classificationCode="P"/>
    <nameAlias firstName="Ivan" middleName="Ivanovich" lastName="Ivanov" strong="true"/>
    <birthdate circa="true" year="1960" monthOfYear="7"/>
    <birthdate circa="false" year="1961"/>
  </sanctionEntity>
</export>`;
    const [firm, ivan] = await collect(parseEuFsfXml(streamOf(xml)));
    expect(firm).toMatchObject({
      id: 'eu-fsf-77',
      schema: 'Organization',
      name: 'Sample Trading LLC',
      countries: ['ae'],
      birthDates: [],
    });
    expect(ivan).toMatchObject({ name: 'Ivan Ivanovich Ivanov', birthDates: ['1960-07', '1961'] });
  });

  it('names the record or line of malformed input', async () => {
    const noId = `${EU_HEAD}<sanctionEntity><subjectType code="person"/><nameAlias wholeName="A" strong="true"/></sanctionEntity></export>`;
    await expect(collect(parseEuFsfXml(streamOf(noId)))).rejects.toThrow(
      /EU FSF sanctionEntity #1 \(line 3\): missing logicalId/,
    );
    const badType = `${EU_HEAD}<sanctionEntity logicalId="5"><subjectType code="vessel"/></sanctionEntity></export>`;
    await expect(collect(parseEuFsfXml(streamOf(badType)))).rejects.toThrow(/#1 .*subjectType code "vessel"/);
    const noName = `${EU_HEAD}<sanctionEntity logicalId="6"><subjectType code="person"/></sanctionEntity></export>`;
    await expect(collect(parseEuFsfXml(streamOf(noName)))).rejects.toThrow(/eu-fsf-6 has no name/);
    await expect(
      collect(parseEuFsfXml(streamOf(`${EU_HEAD}<sanctionEntity logicalId="1">\n<oops></sanctionEntity></export>`))),
    ).rejects.toThrow(/EU FSF XML: malformed XML at 4:/);
    await expect(collect(parseEuFsfXml(streamOf(fixture('un-consolidated-list-excerpt.xml'))))).rejects.toThrow(
      /root element is <CONSOLIDATED_LIST>/,
    );
    await expect(collect(parseEuFsfXml(streamOf('<export><sanctionEntity logicalId="1"/></export>')))).rejects.toThrow(
      /expected <\{http/,
    );
    await expect(collect(parseEuFsfXml(streamOf('')))).rejects.toThrow(/EU FSF XML: .*root element/);
  });
});

describe('parseUnConsolidatedXml', () => {
  it('parses individuals and entities field by field', async () => {
    const [makenga, kakwavu, adf] = await collect(
      parseUnConsolidatedXml(streamOf(fixture('un-consolidated-list-excerpt.xml'))),
    );
    expect(makenga).toEqual({
      id: 'un-1',
      schema: 'Person',
      name: 'SULTANI MAKENGA',
      aliases: ['MAKENGA, Colonel SULTANI'],
      weakAliases: ['Musa'],
      birthDates: ['1973-12'],
      countries: ['cd', 'ug'],
      topics: ['sanction'],
      datasets: ['un_sc_sanctions'],
    });
    expect(kakwavu).toMatchObject({
      id: 'un-2',
      name: 'JÉRÔME KAKWAVU BUKANDE',
      aliases: ['Jérôme Kakwavu'],
      birthDates: ['1973', '1974'],
    });
    expect(adf).toMatchObject({
      id: 'un-3',
      schema: 'Organization',
      name: 'ALLIED DEMOCRATIC FORCES',
      aliases: ['ADF'],
      birthDates: [],
    });
  });

  it('reads original-script names, year and wide-range birth dates, formal country names and update dates', async () => {
    const xml = `<CONSOLIDATED_LIST dateGenerated="2024-01-01"><INDIVIDUALS><INDIVIDUAL>
      <DATAID>9</DATAID><FIRST_NAME>ABDUL</FIRST_NAME><SECOND_NAME>GHANI</SECOND_NAME><THIRD_NAME>BARADAR</THIRD_NAME>
      <NAME_ORIGINAL_SCRIPT>عبدالغنی برادر</NAME_ORIGINAL_SCRIPT>
      <NATIONALITY><VALUE>Iran (Islamic Republic of)</VALUE><VALUE>Atlantis</VALUE></NATIONALITY>
      <LAST_DAY_UPDATED><VALUE>2015-01-01</VALUE><VALUE>2021-11-22</VALUE></LAST_DAY_UPDATED>
      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE><YEAR>1968</YEAR></INDIVIDUAL_DATE_OF_BIRTH>
      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE><FROM_YEAR>1940</FROM_YEAR><TO_YEAR>1990</TO_YEAR></INDIVIDUAL_DATE_OF_BIRTH>
    </INDIVIDUAL></INDIVIDUALS><ENTITIES/></CONSOLIDATED_LIST>`;
    const [e] = await collect(parseUnConsolidatedXml(streamOf(xml)));
    expect(e).toMatchObject({
      id: 'un-9',
      name: 'ABDUL GHANI BARADAR',
      aliases: ['عبدالغنی برادر'],
      countries: ['ir'],
      birthDates: ['1968', '1940', '1990'],
      lastChange: '2021-11-22',
    });
  });

  it('names the record or line of malformed input', async () => {
    const bad =
      '<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>x1</DATAID><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>';
    await expect(collect(parseUnConsolidatedXml(streamOf(bad)))).rejects.toThrow(
      /UN list INDIVIDUAL #1 \(line 1\): DATAID "x1" is not a number/,
    );
    const noName = '<CONSOLIDATED_LIST><ENTITIES><ENTITY><DATAID>4</DATAID></ENTITY></ENTITIES></CONSOLIDATED_LIST>';
    await expect(collect(parseUnConsolidatedXml(streamOf(noName)))).rejects.toThrow(
      /ENTITY #1 .*un-4 has no FIRST_NAME/,
    );
    await expect(
      collect(parseUnConsolidatedXml(streamOf('<CONSOLIDATED_LIST>\n<INDIVIDUALS>\n</ENTITIES>'))),
    ).rejects.toThrow(/UN consolidated list XML: malformed XML at 3:/);
  });
});
