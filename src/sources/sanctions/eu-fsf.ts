// EU consolidated financial sanctions list, FSF XML 1.1 (FORMATS.md §8.2): attributes-only
// model in namespace http://eu.europa.ec/fpi/fsd/export, one <sanctionEntity> per listing.
import type { Readable } from 'node:stream';
import type { SanctionEntity } from '../../domain/screening/types.ts';
import { iso2, partialBirthDate, SanctionsParseError, splitNames, uniqueStrings } from './common.ts';
import { childrenNamed, xmlRecords, type XmlElement } from './xml-records.ts';

export const EU_FSF_NAMESPACE = 'http://eu.europa.ec/fpi/fsd/export';

function wholeName(alias: XmlElement): string {
  const a = alias.attrs;
  const whole = (a.wholeName ?? '').trim();
  if (whole) return whole;
  return [a.firstName, a.middleName, a.lastName]
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(' ');
}

function birthDate(b: XmlElement): string | null {
  const a = b.attrs;
  if (a.birthdate) return partialBirthDate(a.birthdate);
  if (!/^\d{4}$/.test(a.year ?? '')) return null;
  const month = Number(a.monthOfYear);
  return month >= 1 && month <= 12 ? `${a.year}-${String(month).padStart(2, '0')}` : a.year;
}

function toEntity(el: XmlElement, index: number): SanctionEntity {
  const where = `EU FSF sanctionEntity #${index} (line ${el.line})`;
  const logicalId = (el.attrs.logicalId ?? '').trim();
  if (!logicalId) throw new SanctionsParseError(where, 'missing logicalId');
  const subject = childrenNamed(el, 'subjectType')[0];
  const code = subject?.attrs.code ?? '';
  if (code !== 'person' && code !== 'enterprise') {
    throw new SanctionsParseError(
      where,
      `subjectType code ${JSON.stringify(code)} is neither "person" nor "enterprise"`,
    );
  }
  const aliases = childrenNamed(el, 'nameAlias').map((a) => ({
    name: wholeName(a),
    strong: a.attrs.strong !== 'false',
  }));
  const strong = aliases.filter((a) => a.strong && a.name).map((a) => a.name);
  const weak = aliases.filter((a) => !a.strong && a.name).map((a) => a.name);
  const name = strong[0] ?? weak[0];
  if (!name) throw new SanctionsParseError(where, `entity eu-fsf-${logicalId} has no name`);
  const countries = [...childrenNamed(el, 'citizenship'), ...childrenNamed(el, 'address')].map((c) =>
    iso2(c.attrs.countryIso2Code),
  );
  const published = childrenNamed(el, 'regulation')
    .map((r) => (r.attrs.publicationDate ?? '').trim())
    .filter((d) => /^\d{4}-\d{2}-\d{2}/.test(d))
    .sort();
  const entity: SanctionEntity = {
    id: `eu-fsf-${logicalId}`,
    schema: code === 'person' ? 'Person' : 'Organization',
    name,
    ...splitNames(name, strong, weak),
    birthDates: uniqueStrings(childrenNamed(el, 'birthdate').map(birthDate)),
    countries: uniqueStrings(countries),
    topics: ['sanction'],
    datasets: ['eu_fsf'],
  };
  if (published.length > 0) entity.lastChange = published[published.length - 1];
  return entity;
}

/** Streams the listings of an EU FSF XML 1.1 export. */
export async function* parseEuFsfXml(input: Readable): AsyncGenerator<SanctionEntity> {
  let index = 0;
  for await (const el of xmlRecords(input, {
    source: 'EU FSF XML',
    root: { name: 'export', uri: EU_FSF_NAMESPACE },
    records: new Set(['sanctionEntity']),
  })) {
    yield toEntity(el, ++index);
  }
}
