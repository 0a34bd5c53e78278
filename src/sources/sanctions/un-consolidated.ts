// UN Security Council consolidated list XML (FORMATS.md §8.3): <CONSOLIDATED_LIST> with
// <INDIVIDUALS><INDIVIDUAL> and <ENTITIES><ENTITY>; element-only model, no namespace.
import type { Readable } from 'node:stream';
import type { SanctionEntity } from '../../domain/screening/types.ts';
import { partialBirthDate, SanctionsParseError, splitNames, uniqueStrings } from './common.ts';
import { countryToIso2 } from './countries.ts';
import { child, childrenNamed, childText, xmlRecords, type XmlElement } from './xml-records.ts';

/** A "BETWEEN 1950 AND 1990" range is too vague to list every year. */
const MAX_YEAR_SPAN = 10;

function birthDates(el: XmlElement): string[] {
  const out: (string | null)[] = [];
  for (const dob of childrenNamed(el, 'INDIVIDUAL_DATE_OF_BIRTH')) {
    const date = childText(dob, 'DATE');
    const year = childText(dob, 'YEAR');
    const from = Number(childText(dob, 'FROM_YEAR'));
    const to = Number(childText(dob, 'TO_YEAR'));
    if (date) out.push(partialBirthDate(date));
    else if (year) out.push(partialBirthDate(year));
    else if (from > 0 && to >= from) {
      // Every year of a short range, so that a subject's year inside it counts as agreeing.
      const years = to - from <= MAX_YEAR_SPAN ? Array.from({ length: to - from + 1 }, (_, i) => from + i) : [from, to];
      out.push(...years.map(String));
    }
  }
  return uniqueStrings(out);
}

function toEntity(el: XmlElement, index: number): SanctionEntity {
  const person = el.name === 'INDIVIDUAL';
  const where = `UN list ${el.name} #${index} (line ${el.line})`;
  const dataId = childText(el, 'DATAID');
  if (!/^\d+$/.test(dataId)) throw new SanctionsParseError(where, `DATAID ${JSON.stringify(dataId)} is not a number`);
  const parts = person ? ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'] : ['FIRST_NAME'];
  const name = parts
    .map((p) => childText(el, p))
    .filter(Boolean)
    .join(' ');
  if (!name) throw new SanctionsParseError(where, `un-${dataId} has no FIRST_NAME`);
  const aliasTag = person ? 'INDIVIDUAL_ALIAS' : 'ENTITY_ALIAS';
  const aliases = childrenNamed(el, aliasTag).map((a) => ({
    name: childText(a, 'ALIAS_NAME'),
    low: /^low$/i.test(childText(a, 'QUALITY')),
  }));
  const strong = [childText(el, 'NAME_ORIGINAL_SCRIPT'), ...aliases.filter((a) => !a.low).map((a) => a.name)];
  const weak = aliases.filter((a) => a.low).map((a) => a.name);
  const nationality = childrenNamed(child(el, 'NATIONALITY') ?? el, 'VALUE').map((v) => v.text);
  const addressCountries = childrenNamed(el, person ? 'INDIVIDUAL_ADDRESS' : 'ENTITY_ADDRESS').map((a) =>
    childText(a, 'COUNTRY'),
  );
  const updated = childrenNamed(child(el, 'LAST_DAY_UPDATED') ?? el, 'VALUE')
    .map((v) => v.text.trim())
    .filter((d) => /^\d{4}-\d{2}-\d{2}/.test(d))
    .sort();
  const entity: SanctionEntity = {
    id: `un-${dataId}`,
    schema: person ? 'Person' : 'Organization',
    name,
    ...splitNames(name, strong, weak),
    birthDates: person ? birthDates(el) : [],
    countries: uniqueStrings([...nationality, ...addressCountries].map(countryToIso2)),
    topics: ['sanction'],
    datasets: ['un_sc_sanctions'],
  };
  if (updated.length > 0) entity.lastChange = updated[updated.length - 1];
  return entity;
}

/** Streams the individuals and entities of the UN SC consolidated list. */
export async function* parseUnConsolidatedXml(input: Readable): AsyncGenerator<SanctionEntity> {
  let index = 0;
  for await (const el of xmlRecords(input, {
    source: 'UN consolidated list XML',
    root: { name: 'CONSOLIDATED_LIST', uri: '' },
    records: new Set(['INDIVIDUAL', 'ENTITY']),
  })) {
    yield toEntity(el, ++index);
  }
}
